"""The shapes the registry is written in: a dataset, its entities and their fields."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Model, QuerySet

from service.companies.datasets.fields import FieldType


@dataclass(frozen=True)
class Field:
    """One exposed field: its name on the wire, where it comes from and its type.

    `path` is an ORM path from the dataset's root model (`company__name`,
    `highlights__return_on_assets`); None means a field of the spec that the
    register does not hold, always written as null. `derive` turns the column
    into the written value (a company uuid into its page URL); derived fields
    cannot be filtered on. `role` hides the field from callers without it.
    `path_for_roles` gives the path for the caller's granted roles where one field
    reads a different column by role (the credit risk score: the full one only with
    credit_check); `path` is then the one for a caller without roles, and
    names.visible_fields/field_for hand out the field resolved (`for_roles`), so
    writing and filtering read the same column.
    """

    name: str
    path: str | None
    type: FieldType
    derive: Callable[[Any], Any] | None = None
    role: str | None = None
    path_for_roles: Callable[[frozenset[str]], str] | None = None

    def for_roles(self, granted_roles: frozenset[str]) -> Field:
        if self.path_for_roles is None:
            return self
        return replace(self, path=self.path_for_roles(granted_roles), path_for_roles=None)

    @property
    def filterable(self) -> bool:
        return self.path is not None and self.derive is None and self.type is not FieldType.JSON


@dataclass(frozen=True)
class Entity:
    """A named object of a composite (`accounts_highlights`).

    `presence` is a path that is null exactly when a left-joined entity is absent
    (accounts without a balance sheet); the entity is then written as null.
    """

    name: str
    fields: tuple[Field, ...]
    presence: str | None = None

    def field_named(self, name: str) -> Field | None:
        return next((field for field in self.fields if field.name == name), None)


@dataclass(frozen=True)
class Dataset:
    """A dataset: rows of `model` ordered by primary key, each written as its entities.

    A composite writes `{entity: {...}, ...}` (plus `headline` fields at the top,
    where the spec puts `uuid`/`app_url` on the composite itself); a plain dataset
    writes its one (root) entity's fields flat. `role` is needed for the whole
    dataset; `scope` narrows rows by the caller's granted roles.
    """

    name: str
    model: type[Model]
    entities: tuple[Entity, ...]
    composite: bool
    description: str
    headline: tuple[Field, ...] = ()
    role: str | None = None
    scope: Callable[[QuerySet, frozenset[str]], QuerySet] | None = None

    @property
    def root(self) -> Entity:
        return self.entities[0]

    def entity_named(self, name: str) -> Entity | None:
        return next((entity for entity in self.entities if entity.name == name), None)
