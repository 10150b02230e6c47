"""One pass over the filtered companies: each one's value for the measure and year, as arrays.

The database filters and joins; the rows come back as two numpy arrays, never
as one Python object per company on PostgreSQL:

- PostgreSQL packs the whole column into two bytea aggregates (`float8send`,
  `uuid_send`) in the same statement, read with `np.frombuffer`;
- other databases (SQLite in development and tests) fetch the rows and convert
  them to arrays in one go.

Both run the SQL the ORM writes for the same queryset, so the filters are one
definition.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import numpy as np
import psycopg
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import FilteredRelation, FloatField, Q, QuerySet
from django.db.models.functions import Cast


@dataclass(frozen=True)
class MeasureColumns:
    """Row i is one company of the filtered set."""

    values: np.ndarray  # float64; NaN where the company has no value for the year
    company_keys: np.ndarray  # (n, 2) uint64: the company uuid as big-endian halves, for ties

    def company_uuid(self, index: int) -> uuid.UUID:
        high, low = (int(half) for half in self.company_keys[index])
        return uuid.UUID(int=(high << 64) | low)


def measure_columns_fetch(*, companies: QuerySet, measure_type_uuid: uuid.UUID, measure_year: int) -> MeasureColumns:
    """The value of every company in `companies`; a company without a row counts as no value."""
    rows = companies.annotate(
        yearly=FilteredRelation(
            "measures",
            condition=Q(measures__company_measure_type_id=measure_type_uuid, measures__measure_year=measure_year),
        )
    ).values_list(Cast("yearly__measure_value", FloatField()), "uuid")
    try:
        sql, params = rows.query.sql_with_params()
    except EmptyResultSet:  # e.g. an empty `__in` list: nothing can match
        return MeasureColumns(values=np.empty(0), company_keys=np.empty((0, 2), dtype=np.uint64))
    if connection.vendor == "postgresql":
        return _postgresql_fetch(sql=sql, params=params)
    return _generic_fetch(sql=sql, params=params)


def _postgresql_fetch(*, sql: str, params: tuple) -> MeasureColumns:
    packed = (
        "SELECT string_agg(float8send(coalesce(value, 'NaN'::float8)), ''::bytea), "
        "string_agg(uuid_send(company_uuid), ''::bytea) "
        f"FROM ({sql}) AS filtered (value, company_uuid)"
    )
    connection.ensure_connection()
    # Django's own cursors bind client-side, which rules out binary results; a plain
    # psycopg cursor on the same connection (same transaction) returns the bytes as they are.
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(packed, params, binary=True)
        values_bytes, uuid_bytes = cursor.fetchone()
    values = np.frombuffer(values_bytes or b"", dtype=">f8").astype(np.float64)
    company_keys = np.frombuffer(uuid_bytes or b"", dtype=">u8").astype(np.uint64).reshape(-1, 2)
    return MeasureColumns(values=values, company_keys=company_keys)


def _generic_fetch(*, sql: str, params: tuple) -> MeasureColumns:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    values = np.array([row[0] for row in rows], dtype=np.float64)  # None becomes NaN
    raw_uuids = b"".join(_uuid_bytes(row[1]) for row in rows)
    company_keys = np.frombuffer(raw_uuids, dtype=">u8").astype(np.uint64).reshape(-1, 2)
    return MeasureColumns(values=values, company_keys=company_keys)


def _uuid_bytes(value) -> bytes:
    """SQLite keeps a uuid as 32 hex digits; other drivers may hand back a UUID."""
    return value.bytes if isinstance(value, uuid.UUID) else bytes.fromhex(value.replace("-", ""))
