"""The catalogue tables' rows (list categories, report types, role and flag types ...), each keyed
by a unique `key`, kept as the code lists them: one statement a table, run after every migrate
and after each flush of the test suite's committing tests."""

from __future__ import annotations


def key_rows_ensure(model, rows: dict[str, dict], *, update: bool = True) -> None:
    """Create the rows missing from `model`'s table; with `update`, also set the given fields of those
    present (an upsert on `key`). A row the code no longer lists is left alone."""
    objects = [model(key=key, **fields) for key, fields in rows.items()]
    fields = sorted({name for values in rows.values() for name in values})
    if update and fields:
        model.objects.bulk_create(objects, update_conflicts=True, unique_fields=["key"], update_fields=fields)
    else:
        model.objects.bulk_create(objects, ignore_conflicts=True)
