"""The evidence of screening: which list versions a monitored entity was last screened against, and when.

What an auditor asks of one customer: "was this person screened against the sanction lists,
which versions, when?". Every run that screens a monitoring (`screening_run.entities_screen`:
when it becomes active, a correction, a list version's delta, a full re-screen) records, on the
monitoring, per list category the config receives in the index searched (rule 5), the version
and the time:

    screened_against = {"un_sc": {"category_name", "version_uuid", "version_number",
                                  "imported_timestamp", "screened_timestamp"}, ...}

A delta run records its one category for every entity of its chunks, searched or not: those it
does not search have no hit in the delta (rescreen.py), so they were screened against that
version as much as the others. Only a category's current version is recorded, so a late run
of a superseded version never makes the evidence older than it is. Each run merges its
categories into what is there (one UPDATE a chunk, however the rows' other keys differ), so a
list a config no longer receives keeps its last entry, dated.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Collection

from django.db import models
from django.db.models import F, Func, Value
from django.utils import timezone

from service.screening.engine import LoadedIndex
from service.screening.models import EntityMonitoring, ScreeningListVersion


class _JsonMerge(Func):
    """A JSON object column with the keys of `value` set and its other keys kept."""

    output_field = models.JSONField()

    def __init__(self, column: str, value: dict):
        super().__init__(F(column), Value(json.dumps(value, sort_keys=True)))

    def _parts(self, compiler, connection):
        column, column_params = compiler.compile(self.source_expressions[0])
        value, value_params = compiler.compile(self.source_expressions[1])
        return column, value, (*column_params, *value_params)

    def as_postgresql(self, compiler, connection, **extra_context):
        column, value, params = self._parts(compiler, connection)
        return f"({column} || ({value})::jsonb)", params

    def as_sqlite(self, compiler, connection, **extra_context):
        column, value, params = self._parts(compiler, connection)
        return f"json_patch({column}, {value})", params


def monitorings_screened_record(
    *, monitoring_uuids: Collection[uuid.UUID], loaded: LoadedIndex, category_keys: Collection[str]
) -> None:
    """These monitorings were screened now against `loaded`, for the categories their config
    receives (`category_keys`)."""
    if not monitoring_uuids:
        return
    versions = (
        ScreeningListVersion.objects.filter(
            uuid__in=loaded.version_uuids, category__key__in=category_keys, category__current_version=F("uuid")
        )
        .select_related("category")
    )
    now = timezone.now().isoformat()
    evidence = {
        version.category.key: {
            "category_name": version.category.name,
            "version_uuid": str(version.uuid),
            "version_number": version.number,
            "imported_timestamp": version.imported_at.isoformat(),
            "screened_timestamp": now,
        }
        for version in versions
    }
    if evidence:
        EntityMonitoring.objects.filter(uuid__in=list(monitoring_uuids)).update(
            screened_against=_JsonMerge("screened_against", evidence)
        )


def screened_against_out(screened_against: dict) -> list[dict]:
    """The evidence as the API gives it: one element per list, by the list's key."""
    return [
        {
            "screening_list_category_key": key,
            "screening_list_category_name": entry["category_name"],
            "list_version_uuid": entry["version_uuid"],
            "list_version_number": entry["version_number"],
            "list_version_imported_timestamp": entry["imported_timestamp"],
            "screened_timestamp": entry["screened_timestamp"],
        }
        for key, entry in sorted(screened_against.items())
    ]
