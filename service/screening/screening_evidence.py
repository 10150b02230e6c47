"""The evidence of screening: which list versions a monitored entity was last screened against, and when.

What an auditor asks of one customer: "was this person screened against the sanction lists,
which versions, when?". Every run that screens a monitoring (`screening_run.entities_screen`:
when it becomes active, a correction, a list version's delta, a full re-screen) records, on the
monitoring (`MonitoringEvidence`, a narrow table of its own), per list category the config
receives in the index searched (rule 5; for a company, the sanction lists alone: a PEP list
names persons only), the version and the time:

    screened_against = {"un_sc": {"category_name", "version_uuid", "version_number",
                                  "imported_timestamp", "screened_timestamp"}, ...}

A delta run records its one category for every entity of its chunks, searched or not: those it
does not search have no hit in the delta (rescreen.py), so they were screened against that
version as much as the others. Only a category's current version is recorded, so a late run
of a superseded version never makes the evidence older than it is. Each run merges its
categories into what is there (one upsert a chunk, however the rows' other lists differ), so a
list a config no longer receives keeps its last entry, dated.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Collection

from django.db import connection
from django.db.models import F
from django.utils import timezone

from service.screening.engine import LoadedIndex
from service.screening.models import EntityMonitoring, MonitoringEvidence, ScreeningListCategory, ScreeningListVersion


# One statement for a chunk's monitorings: each gets a row, or its row gets the new lists' keys
# (the others kept), whatever its lists were before.
_UPSERT = {
    "postgresql": (
        "INSERT INTO {table} (monitoring_id, screened_against) SELECT m, %s::jsonb FROM unnest(%s::uuid[]) AS m "
        "ON CONFLICT (monitoring_id) DO UPDATE SET screened_against = {table}.screened_against || EXCLUDED.screened_against"
    ),
    "sqlite": (
        "INSERT INTO {table} (monitoring_id, screened_against) SELECT value, %s FROM json_each(%s) WHERE true "
        "ON CONFLICT (monitoring_id) DO UPDATE SET screened_against = json_patch({table}.screened_against, excluded.screened_against)"
    ),
}


def monitorings_screened_record(
    *, monitoring_uuids: Collection[uuid.UUID], loaded: LoadedIndex, category_keys: Collection[str],
    companies: bool = False,
) -> None:
    """These monitorings were screened now against `loaded`, for the categories their config
    receives (`category_keys`). Companies are searched only among listed organisations, which
    a PEP list has none of, so their evidence names the sanction lists alone."""
    if not monitoring_uuids:
        return
    versions = ScreeningListVersion.objects.filter(
        uuid__in=loaded.version_uuids, category__key__in=category_keys, category__current_version=F("uuid")
    ).select_related("category")
    if companies:
        versions = versions.exclude(category__list_type=ScreeningListCategory.ListType.PEP)
    now = timezone.now().isoformat()
    evidence = {version.category.key: version_evidence(version, screened_timestamp=now) for version in versions}
    if not evidence:
        return
    if connection.vendor == "postgresql":
        uuids = [str(u) for u in monitoring_uuids]
    else:  # SQLite keeps a uuid as 32 hex digits, and reads the list as JSON
        uuids = json.dumps([uuid.UUID(str(u)).hex for u in monitoring_uuids])
    with connection.cursor() as cursor:
        cursor.execute(_UPSERT[connection.vendor].format(table=MonitoringEvidence._meta.db_table),
                       [json.dumps(evidence, sort_keys=True), uuids])


def monitoring_screened_against(monitoring: EntityMonitoring) -> dict:
    """The monitoring's evidence ({} before its first screening); read with the monitoring when the
    selector joined it (`select_related("evidence")`)."""
    try:
        return monitoring.evidence.screened_against
    except MonitoringEvidence.DoesNotExist:
        return {}


def version_evidence(version: ScreeningListVersion, *, screened_timestamp: str) -> dict:
    """What the evidence keeps of one list version screened against (`category` read with it)."""
    return {
        "category_name": version.category.name,
        "version_uuid": str(version.uuid),
        "version_number": version.number,
        "imported_timestamp": version.imported_at.isoformat(),
        "screened_timestamp": screened_timestamp,
    }


def evidence_out(key: str, entry: dict) -> dict:
    """One list's evidence (`version_evidence`) as the API gives it (`ScreenedAgainstOut`)."""
    return {
        "screening_list_category_key": key,
        "screening_list_category_name": entry["category_name"],
        "list_version_uuid": entry["version_uuid"],
        "list_version_number": entry["version_number"],
        "list_version_imported_timestamp": entry["imported_timestamp"],
        "screened_timestamp": entry["screened_timestamp"],
    }


def screened_against_out(screened_against: dict) -> list[dict]:
    """The evidence as the API gives it: one element per list, by the list's key."""
    return [evidence_out(key, entry) for key, entry in sorted(screened_against.items())]
