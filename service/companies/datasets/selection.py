"""`keep_only_fields` and `ignore_fields`: which entities and fields a response carries.

Both take a comma list whose items are an entity (`accounts_balance_sheet`),
one field of an entity (`accounts_highlights.return_on_assets`) or a bare field
of the root entity (`accounting_year`). keep_only_fields is applied first, then
ignore_fields removes from what is left. Fields keep the dataset's order, not
the request's. A composite's headline fields (`uuid`, `app_url` at the top of
a flag composite) are always written. Fewer fields also means fewer joins:
only the columns written (and filtered on) are read.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.companies.datasets.names import entity_for, field_for, split_reference, visible_fields
from service.companies.datasets.schema import Dataset, Entity, Field
from service.errors import bad_field


@dataclass(frozen=True)
class SelectedEntity:
    entity: Entity
    fields: tuple[Field, ...]


def selection_from(
    *, dataset: Dataset, keep_only: str | None, ignore: str | None, granted_roles: frozenset[str]
) -> tuple[SelectedEntity, ...]:
    chosen: dict[str, list[Field]] = {
        entity.name: list(visible_fields(entity, granted_roles=granted_roles)) for entity in dataset.entities
    }
    if keep_only is not None:
        kept = _named(dataset=dataset, raw=keep_only, parameter="keep_only_fields", granted_roles=granted_roles)
        chosen = {
            name: fields if kept[name] is None else [field for field in fields if field.name in kept[name]]
            for name, fields in chosen.items()
            if name in kept
        }
    if ignore is not None:
        ignored = _named(dataset=dataset, raw=ignore, parameter="ignore_fields", granted_roles=granted_roles)
        for name, unwanted in ignored.items():
            if unwanted is None:
                chosen.pop(name, None)
            elif name in chosen:
                chosen[name] = [field for field in chosen[name] if field.name not in unwanted]
    selected = tuple(
        SelectedEntity(entity, tuple(chosen[entity.name]))
        for entity in dataset.entities
        if chosen.get(entity.name)
    )
    if not selected:
        raise bad_field(["query", "ignore_fields" if ignore else "keep_only_fields"], "no field is left to write")
    return selected


def _named(
    *, dataset: Dataset, raw: str, parameter: str, granted_roles: frozenset[str]
) -> dict[str, set[str] | None]:
    """Entity name -> the field names given for it, or None when the whole entity is named."""
    loc = ["query", parameter]
    named: dict[str, set[str] | None] = {}
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise bad_field(loc, "give a comma list of entity, entity.field or root field names")
    for item in items:
        entity_name, field_name = split_reference(item)
        if entity_name is None and dataset.entity_named(field_name) is not None:
            named[field_name] = None
            continue
        entity = dataset.root if entity_name is None else entity_for(dataset=dataset, name=entity_name, loc=loc)
        field = field_for(dataset=dataset, entity=entity, name=field_name, loc=loc, granted_roles=granted_roles)
        if named.get(entity.name, set()) is not None:
            named.setdefault(entity.name, set()).add(field.name)
    return named
