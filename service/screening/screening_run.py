"""Screening runs: monitored entities searched against an index, hits recorded as cases.

Which lists (rule 5): PEP lists always; sanction lists only for the categories the config
selected (`config_category_keys`). The index searched is the engine's index of every current
list (one per process, shared by all configs, see engine.py) for an ordinary run, or the
small index of a list version's delta for a re-screen (rescreen.py); hits of lists the
config does not screen against are dropped here.

Who: only monitorings that `monitorings_screened` returns (the §3 rule, spelled once in
monitoring_selectors). Entities are read as plain values (one query, no model instances),
so a chunk of thousands costs little beside the searches. Hits go to
`screening_cases.hits_record`, the one place that decides what becomes a case; the
monitorings read are recorded as screened against the index's lists
(`screening_evidence`, one upsert).

A delta run may pass a `Narrowing` (rescreen.py says when it gives the same hits): an entity
is then searched in the delta's whole index only when the narrower index of its entries with
new match facts finds it, or when it is one of those with a case on an entry whose match
facts are its predecessor's. Every hit still comes from the whole index.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from service.screening.engine import LoadedIndex, screening_index
from service.screening.matching import MatchIndex
from service.screening.matching.types import PersonQuery
from service.screening.models import EntityMonitoring, ScreeningConfig, ScreeningListCategory
from service.screening.monitoring_selectors import monitorings_screened
from service.screening.monitoring_services import monitorings_screening_done
from service.screening.screening_cases import ScreenedEntity, hits_record
from service.screening.screening_evidence import monitorings_screened_record

# More than the few a reviewer needs: hits of lists the config does not screen against are
# dropped after the search, and must not push out the ones it does.
SEARCH_LIMIT = 25

# What the engine is asked about a monitored entity, read without model instances.
QUERY_FIELDS = (
    "uuid",
    "entity_key",
    "entity_uuid",
    "company__name",
    "person__full_name",
    "person__birth_date",
    "person__nationality",
    "person__gender",
    "customer_person__full_name",
    "customer_person__birth_date",
    "customer_person__gender__key",
    "customer_person__nationalities",
)


@dataclass
class RunResult:
    screened: int = 0
    hits: int = 0
    cases_created: int = 0
    cases_updated: int = 0

    def summary_line(self) -> str:
        return (
            f"screened {self.screened}, hits {self.hits}, new cases {self.cases_created}, "
            f"cases moved to a changed entry {self.cases_updated}."
        )


@dataclass(frozen=True)
class Narrowing:
    """Who of a delta run's entities need a search in its whole index: those `index` finds
    (None: an index of nothing, which finds nobody) and those in `also`."""

    index: MatchIndex | None
    also: frozenset[uuid.UUID]

    def passes(self, entity_uuid: uuid.UUID, query: PersonQuery) -> bool:
        return entity_uuid in self.also or bool(self.index and self.index.search(query, limit=SEARCH_LIMIT))


def config_category_keys(config: ScreeningConfig) -> set[str]:
    """The categories whose hits a config receives (rule 5)."""
    pep = ScreeningListCategory.objects.filter(list_type=ScreeningListCategory.ListType.PEP).values_list("key", flat=True)
    selected = config.list_categories.values_list("category__key", flat=True)
    return set(pep) | set(selected)


def loaded_category_keys(loaded: LoadedIndex) -> set[str]:
    return {listed.category_key for listed in loaded.entries.values()}


def entity_query(row: dict) -> PersonQuery:
    """The engine's query for one row of `QUERY_FIELDS`."""
    key = row["entity_key"]
    if key == EntityMonitoring.EntityKey.COMPANY:
        return PersonQuery(name=row["company__name"], schema="Organization")
    birth_date = row[f"{key}__birth_date"]
    birth_date = birth_date.isoformat() if birth_date else None
    if key == EntityMonitoring.EntityKey.PERSON:
        nationality = row["person__nationality"]
        return PersonQuery(
            name=row["person__full_name"], birth_date=birth_date,
            nationalities=[nationality] if nationality else [], gender=row["person__gender"] or None,
        )
    gender = row["customer_person__gender__key"]
    return PersonQuery(
        name=row["customer_person__full_name"], birth_date=birth_date,
        nationalities=[code.lower() for code in row["customer_person__nationalities"] or ()],
        gender=gender if gender in ("male", "female") else None,
    )


def entities_screen(
    *, config: ScreeningConfig, monitorings: QuerySet[EntityMonitoring], loaded: LoadedIndex, result: RunResult,
    narrowing: Narrowing | None = None,
) -> None:
    """Search each of `monitorings` (already limited to screened ones) in `loaded` and record
    the hits of the config's categories; with a `narrowing`, only the entities it passes.
    Every kind of run ends here."""
    keys = config_category_keys(config)
    if not keys & loaded_category_keys(loaded):
        return  # nothing in this index the config receives
    hits = []
    rows = list(monitorings.values(*QUERY_FIELDS))
    for row in rows:
        result.screened += 1
        query = entity_query(row)
        if narrowing is not None and not narrowing.passes(row["entity_uuid"], query):
            continue
        matches = [
            m
            for m in loaded.index.search(query, limit=SEARCH_LIMIT)
            if loaded.entries[m.entity_id].category_key in keys
        ]
        if matches:
            result.hits += len(matches)
            hits.append((ScreenedEntity(row["entity_key"], row["entity_uuid"]), matches))
    recorded = hits_record(config_uuid=config.uuid, hits=hits)
    result.cases_created += recorded.created
    result.cases_updated += recorded.updated
    companies = [row["uuid"] for row in rows if row["entity_key"] == EntityMonitoring.EntityKey.COMPANY]
    persons = [row["uuid"] for row in rows if row["entity_key"] != EntityMonitoring.EntityKey.COMPANY]
    monitorings_screened_record(monitoring_uuids=persons, loaded=loaded, category_keys=keys)
    monitorings_screened_record(monitoring_uuids=companies, loaded=loaded, category_keys=keys, companies=True)


def monitorings_screen(*, monitoring_uuids: Iterable[str | uuid.UUID]) -> RunResult | None:
    """Screen these monitorings' entities against every current list (those still screened;
    the others are skipped), and mark the screening they owed as done. None when none of them
    exists any more."""
    started = timezone.now()
    uuids = list(monitoring_uuids)
    config_uuids = set(EntityMonitoring.objects.filter(uuid__in=uuids).values_list("screening_config_id", flat=True))
    if not config_uuids:
        return None
    result = RunResult()
    loaded = None
    for config in ScreeningConfig.objects.filter(uuid__in=config_uuids):
        screened = monitorings_screened(screening_config=config).filter(uuid__in=uuids)
        if screened.exists():
            loaded = loaded or screening_index()
            entities_screen(config=config, monitorings=screened, loaded=loaded, result=result)
    monitorings_screening_done(monitoring_uuids=uuids, started=started)
    return result
