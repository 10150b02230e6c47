"""Screening runs: a config's screened entities against the current lists, hits as cases.

Which lists (rule 5): PEP lists always; sanction lists only for the categories the config
selected. The engine's index covers every current list (one index per process, shared by all
configs, see engine.py); hits of lists the config does not screen against are dropped here.

Who: only monitorings that `monitorings_screened` returns (the §3 rule, spelled once in
monitoring_selectors). A hit becomes an entity inquiry (one per config + entity) and a case
per listed entity; both are inserted with ON CONFLICT DO NOTHING against their UNIQUE
constraints, so a repeated or concurrent run makes no second case.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from service.screening.engine import LoadedIndex, screening_index
from service.screening.matching.types import PersonQuery
from service.screening.models import (
    EntityInquiry,
    EntityMonitoring,
    ScreeningCase,
    ScreeningConfig,
    ScreeningListCategory,
    ScreeningListEntry,
)
from service.screening.monitoring_selectors import monitorings_screened

# More than the few a reviewer needs: hits of lists the config does not screen against are
# dropped after the search, and must not push out the ones it does.
SEARCH_LIMIT = 25


@dataclass
class RunResult:
    screened: int = 0
    hits: int = 0
    cases_created: int = 0

    def summary_line(self) -> str:
        return f"screened {self.screened}, hits {self.hits}, new cases {self.cases_created}."


def config_category_keys(config: ScreeningConfig) -> set[str]:
    """The categories whose hits a config receives (rule 5)."""
    pep = ScreeningListCategory.objects.filter(list_type=ScreeningListCategory.ListType.PEP).values_list("key", flat=True)
    selected = config.list_categories.values_list("category__key", flat=True)
    return set(pep) | set(selected)


def entity_query(monitoring: EntityMonitoring) -> PersonQuery:
    """What the engine is asked about the monitored entity."""
    if monitoring.company_id is not None:
        return PersonQuery(name=monitoring.company.name, schema="Organization")
    person = monitoring.person or monitoring.customer_person
    birth_date = person.birth_date.isoformat() if person.birth_date else None
    if monitoring.person_id is not None:
        nationalities = [person.nationality] if person.nationality else []
        gender = person.gender or None
    else:
        nationalities = []
        gender = person.gender.key if person.gender and person.gender.key in ("male", "female") else None
    return PersonQuery(name=person.full_name, birth_date=birth_date, nationalities=nationalities, gender=gender)


def _inquiry(config: ScreeningConfig, monitoring: EntityMonitoring) -> EntityInquiry:
    fields = {"person_id": monitoring.person_id, "customer_person_id": monitoring.customer_person_id, "company_id": monitoring.company_id}
    EntityInquiry.objects.bulk_create(
        [
            EntityInquiry(
                screening_config=config,
                inquiry_entity_key=monitoring.entity_key,
                inquiry_entity_uuid=monitoring.entity_uuid,
                **fields,
            )
        ],
        ignore_conflicts=True,
    )
    return EntityInquiry.objects.get(
        screening_config=config, inquiry_entity_key=monitoring.entity_key, inquiry_entity_uuid=monitoring.entity_uuid
    )


def _screen_one(config: ScreeningConfig, monitoring: EntityMonitoring, loaded: LoadedIndex, keys: set[str], result: RunResult) -> None:
    result.screened += 1
    matches = [
        m
        for m in loaded.index.search(entity_query(monitoring), limit=SEARCH_LIMIT)
        if loaded.entries[m.entity_id].category_key in keys
    ]
    if not matches:
        return
    result.hits += len(matches)
    entries = ScreeningListEntry.objects.select_related("version__category").in_bulk([m.entity_id for m in matches])
    with transaction.atomic():
        inquiry = _inquiry(config, monitoring)
        rows = []
        for match in matches:
            entry = entries[uuid.UUID(match.entity_id)]
            list_type = entry.version.category.list_type
            rows.append(
                ScreeningCase(
                    screening_config=config,
                    entity_inquiry=inquiry,
                    list_category=entry.version.category,
                    list_source_id=entry.source_id,
                    list_entry=entry,
                    list_content_hash=entry.content_hash,
                    pep_flag=list_type == ScreeningListCategory.ListType.PEP,
                    sanction_flag=list_type == ScreeningListCategory.ListType.SANCTION,
                    score=round(match.score, 4),
                    explanation=match.explanation.as_dict(),
                    explanation_summary=match.explanation.summary(),
                )
            )
        ScreeningCase.objects.bulk_create(rows, ignore_conflicts=True)
        result.cases_created += ScreeningCase.objects.filter(uuid__in=[r.uuid for r in rows]).count()


def monitorings_screen(*, monitoring_uuids: Iterable[str | uuid.UUID]) -> RunResult | None:
    """Screen these monitorings' entities (those still screened; the others are skipped).
    None when none of them exists any more."""
    monitorings = list(
        EntityMonitoring.objects.filter(uuid__in=list(monitoring_uuids)).select_related("screening_config")
    )
    if not monitorings:
        return None
    result = RunResult()
    by_config: dict[uuid.UUID, list[uuid.UUID]] = {}
    configs = {}
    for monitoring in monitorings:
        by_config.setdefault(monitoring.screening_config_id, []).append(monitoring.uuid)
        configs[monitoring.screening_config_id] = monitoring.screening_config
    loaded = None
    for config_uuid, uuids in by_config.items():
        config = configs[config_uuid]
        screened = (
            monitorings_screened(screening_config=config)
            .filter(uuid__in=uuids)
            .select_related("person", "customer_person__gender", "company")
        )
        keys = config_category_keys(config)
        for monitoring in screened:
            loaded = loaded or screening_index()
            _screen_one(config, monitoring, loaded, keys, result)
    return result
