"""Idempotent upsert of a batch keyed on natural keys, writing only rows that changed.

The batch's existing rows are read first (one query on the unique index) so that:
existing rows keep their uuid (children refer to it), unchanged rows are not written
at all (their `update_timestamp` stays, so change feeds stay quiet on a re-import),
and the caller sees each row's previous values (to record status or head-count changes).
"""

from __future__ import annotations

import operator
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce

from django.db import IntegrityError, connection, transaction
from django.db.models import Model, Q

from service.companies.importers.bulk import rows_insert, rows_upsert


@dataclass
class UpsertOutcome:
    created: list[dict] = field(default_factory=list)
    updated: list[tuple[dict, dict]] = field(default_factory=list)  # (row, its previous values)
    unchanged: list[dict] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {"created": len(self.created), "updated": len(self.updated), "unchanged": len(self.unchanged)}


def rows_upsert_changed(
    *,
    model: type[Model],
    rows: Sequence[dict],
    key_fields: Sequence[str],
    compare_fields: Sequence[str],
    touch_fields: Sequence[str] = (),
) -> UpsertOutcome:
    """Rows are dicts of attnames with a fresh `uuid`; the uuid of an existing row replaces it in place.

    `touch_fields` (e.g. update_timestamp) are written on change but not compared.
    Rows in one batch must have distinct keys.
    """
    outcome = UpsertOutcome()
    if not rows:
        return outcome
    previous = _existing(model, rows, key_fields, compare_fields)
    for row in rows:
        key = tuple(row[f] for f in key_fields)
        before = previous.get(key)
        if before is None:
            outcome.created.append(row)
            continue
        row["uuid"] = before["uuid"]
        if all(row[f] == before[f] for f in compare_fields):
            outcome.unchanged.append(row)
        else:
            outcome.updated.append((row, before))
    update_fields = [*compare_fields, *touch_fields]
    try:
        # New keys go straight in (COPY on PostgreSQL), the cheapest write there is.
        with transaction.atomic():
            rows_insert(model=model, rows=outcome.created)
    except IntegrityError:
        # Another writer added one of these keys since we looked: take the slower upsert.
        rows_upsert(model=model, rows=outcome.created, unique_fields=key_fields, update_fields=update_fields)
    rows_upsert(model=model, rows=[row for row, _ in outcome.updated], unique_fields=key_fields, update_fields=update_fields)
    return outcome


def _existing(model, rows, key_fields, compare_fields) -> dict[tuple, dict]:
    # Group keys by their leading fields (e.g. org_nr_schema) so each group is one lookup on the last field.
    *lead_fields, last_field = key_fields
    groups: dict[tuple, list] = defaultdict(list)
    for row in rows:
        groups[tuple(row[f] for f in lead_fields)].append(row[last_field])
    if connection.vendor == "postgresql":
        return _existing_postgresql(model, groups, key_fields, compare_fields)
    condition = reduce(
        operator.or_,
        (Q(**dict(zip(lead_fields, lead)), **{f"{last_field}__in": values}) for lead, values in groups.items()),
    )
    found = model.objects.filter(condition).values("uuid", *key_fields, *compare_fields)
    return {tuple(values[f] for f in key_fields): values for values in found}


def _existing_postgresql(model, groups, key_fields, compare_fields) -> dict[tuple, dict]:
    """The same lookup as one `= ANY(array)` per group: the ORM's `IN` spends ~10 us per key on 5000 keys."""
    *lead_fields, last_field = key_fields
    names = ["uuid", *key_fields, *compare_fields]
    column = {name: connection.ops.quote_name(model._meta.get_field(name).column) for name in names}
    table = connection.ops.quote_name(model._meta.db_table)
    found = {}
    with connection.cursor() as cursor:
        for lead, values in groups.items():
            where = " AND ".join([*(f"{column[f]} = %s" for f in lead_fields), f"{column[last_field]} = ANY(%s)"])
            cursor.execute(f"SELECT {', '.join(column[n] for n in names)} FROM {table} WHERE {where}", [*lead, values])
            for record in cursor.fetchall():
                values_of = dict(zip(names, record))
                found[tuple(values_of[f] for f in key_fields)] = values_of
    return found
