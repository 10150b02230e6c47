"""Resolving `entity.field`, `entity` and bare root `field` names of a dataset, with errors that help.

Unknown names are 400s listing what is available; a field the caller's roles
do not cover is the 403 of spec §7 (its name is public, its values are not). The
fields handed out read the column the caller's roles allow (Field.for_roles).
"""

from __future__ import annotations

from collections.abc import Sequence

from service.companies.datasets.schema import Dataset, Entity, Field
from service.errors import BadRequest, RoleMissing, field_error


def unknown_name(loc: Sequence[str], detail: str, *, code: str) -> BadRequest:
    return BadRequest(detail, code=code, errors=[field_error(loc, detail)])


def visible_fields(entity: Entity, *, granted_roles: frozenset[str]) -> tuple[Field, ...]:
    """The fields the caller's roles show, each reading the column those roles allow."""
    return tuple(
        field.for_roles(granted_roles)
        for field in entity.fields
        if field.role is None or field.role in granted_roles
    )


def entity_for(*, dataset: Dataset, name: str, loc: Sequence[str]) -> Entity:
    entity = dataset.entity_named(name)
    if entity is None:
        available = ", ".join(entity.name for entity in dataset.entities)
        raise unknown_name(
            loc,
            f"Unknown entity {name!r} in dataset {dataset.name}. Available entities: {available}.",
            code="unknown_entity",
        )
    return entity


def field_for(
    *, dataset: Dataset, entity: Entity, name: str, loc: Sequence[str], granted_roles: frozenset[str]
) -> Field:
    field = entity.field_named(name)
    if field is None:
        available = ", ".join(field.name for field in visible_fields(entity, granted_roles=granted_roles))
        raise unknown_name(
            loc,
            f"Unknown field {name!r} of {entity.name} in dataset {dataset.name}. Available fields: {available}.",
            code="unknown_field",
        )
    if field.role is not None and field.role not in granted_roles:
        raise RoleMissing([field.role])
    return field.for_roles(granted_roles)


def split_reference(reference: str) -> tuple[str | None, str]:
    """`entity.field` -> (entity, field); a bare `field` -> (None, field) meaning the root entity."""
    entity_name, dot, field_name = reference.partition(".")
    return (entity_name, field_name) if dot else (None, reference)
