"""One SQL query per request: the selected columns of every entity, joined, read in chunks.

`values_list` over the ORM paths of the selected fields lets Django join the
composite's entities in SQL (inner joins for required foreign keys, left joins
for reverse one-to-ones and nullable keys), so there is no query per row and no
model instance per row. `.iterator(chunk_size=...)` reads through a server-side
cursor on PostgreSQL (fetchmany on SQLite): memory holds one chunk, not the page.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import connections, transaction
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from service.companies.datasets.fields import FieldType
from service.companies.datasets.filters import Condition, apply_conditions
from service.companies.datasets.keyset import Keyset, keyset_apply
from service.companies.datasets.schema import Dataset, Field
from service.companies.datasets.selection import SelectedEntity
from service.pagination import Page

CHUNK_SIZE = 2000


@dataclass(frozen=True)
class PlannedField:
    field: Field
    index: int | None  # position in the row tuple; None for a field that is always null


@dataclass(frozen=True)
class PlannedEntity:
    name: str
    presence_index: int | None  # the entity is null when this column is; None: always present
    fields: tuple[PlannedField, ...]


@dataclass(frozen=True)
class Plan:
    dataset: Dataset
    headline: tuple[PlannedField, ...]
    entities: tuple[PlannedEntity, ...]
    columns: tuple[str, ...]
    column_types: tuple[FieldType | None, ...]  # None: read only by derived fields (app_url)


def plan_for(*, dataset: Dataset, selection: Iterable[SelectedEntity]) -> Plan:
    """Where each written field sits in the row; a path shared by several fields is read once."""
    columns: dict[str, int] = {}
    column_types: list[FieldType | None] = []

    def index_of(path: str | None) -> int | None:
        if path is None:
            return None
        if path not in columns:
            columns[path] = len(columns)
            column_types.append(None)
        return columns[path]

    def planned(fields: Iterable[Field]) -> tuple[PlannedField, ...]:
        result = []
        for field in fields:
            index = index_of(field.path)
            if index is not None and field.derive is None:
                column_types[index] = field.type
            result.append(PlannedField(field, index))
        return tuple(result)

    headline = planned(dataset.headline)
    entities = tuple(
        PlannedEntity(
            name=selected.entity.name,
            presence_index=None if selected.entity is dataset.root else index_of(selected.entity.presence),
            fields=planned(selected.fields),
        )
        for selected in selection
    )
    if not columns:
        index_of("pk")  # only always-null fields chosen: still read one column per row to count rows
    return Plan(
        dataset=dataset,
        headline=headline,
        entities=entities,
        columns=tuple(columns),
        column_types=tuple(column_types),
    )


def dataset_queryset(
    *,
    dataset: Dataset,
    conditions: Iterable[Condition],
    granted_roles: frozenset[str],
    keyset: Keyset | None = None,
) -> QuerySet:
    queryset = dataset.model.objects.all()
    if dataset.scope is not None:
        queryset = dataset.scope(queryset, granted_roles)
    if keyset is not None:
        queryset = keyset_apply(queryset, keyset)
    return apply_conditions(queryset, conditions)


def plan_rows(
    *,
    plan: Plan,
    queryset: QuerySet,
    page: Page,
    ordering: tuple[str, ...] = ("pk",),
    chunk_size: int = CHUNK_SIZE,
) -> Iterator[tuple]:
    """The page's rows as tuples in `plan.columns` order, by primary key so offsets are stable
    (by update_timestamp, then primary key, for a keyset page).

    Lazy: nothing runs until the response is streamed.
    """
    vendor = connections[queryset.db].vendor
    reads = [_read(path, field_type, vendor=vendor) for path, field_type in zip(plan.columns, plan.column_types)]
    page_rows = queryset.values_list(*reads).order_by(*ordering)[page.offset : page.offset + page.limit]
    if vendor != "postgresql":
        return page_rows.iterator(chunk_size=chunk_size)
    return _in_transaction(page_rows, using=queryset.db, chunk_size=chunk_size)


def _in_transaction(page_rows: QuerySet, *, using: str, chunk_size: int) -> Iterator[tuple]:
    # Outside a transaction Django declares the server-side cursor WITH HOLD, and PostgreSQL
    # materialises such a cursor's whole result before the first row (seconds for a 100,000-row
    # page); inside one the rows stream from the plan as they are fetched. (Not on SQLite, where
    # the service's transactions take the write lock.)
    with transaction.atomic(using=using):
        yield from page_rows.iterator(chunk_size=chunk_size)


def _read(path: str, field_type: FieldType | None, *, vendor: str) -> str | Cast:
    # On PostgreSQL uuids and decimals are read as their text: psycopg would build UUID and
    # Decimal objects only for the writers to turn them back into the same text (half the
    # fetch time of a wide composite). The writers take either form.
    if vendor == "postgresql" and field_type in (FieldType.UUID, FieldType.DECIMAL):
        return Cast(path, output_field=TextField())
    return path
