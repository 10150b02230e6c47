"""Hits become cases: the one place that decides, for every kind of run, whether a hit makes a
new case, moves an open one to the newest list entry, or changes nothing.

The identity of a case is the entity inquiry (config + entity) and the listed entity (list
category + `source_id`, the same across list versions). Its cases form a chain, newest last:

- no case yet: a new one (the first of the chain);
- the newest case is **open** (pending, ongoing) and the entry changed (content hash): the
  case is moved to the newest entry, its hash, score and explanation, so reviewers look at
  the entry as listed now; its reviews stay;
- the newest case is **complete with a false_positive** latest review and the entry's
  content hash differs from the case's: a new case linking it (`previous_case`);
- otherwise nothing: a false positive of an unchanged entry stays closed, a confirmed hit is
  never raised again, an open case of an unchanged entry stays as it is.

An entry is only taken into account when it is at least as new as the case's entry (by
list version), so a late run of an older version's delta never moves a case backwards.

Race safety: new cases are inserted with ON CONFLICT DO NOTHING against one partial UNIQUE
(the first case per inquiry and listed entity) and the one-to-one `previous_case` (one
successor per case), so concurrent runs that both decide "new case" make one. Moving an
open case is one UPDATE that applies only while the case is still open.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from service.screening.matching.types import Match
from service.screening.models import EntityInquiry, ScreeningCase, ScreeningListCategory, ScreeningListEntry

OPEN_STATUSES = (ScreeningCase.Status.PENDING, ScreeningCase.Status.ONGOING)
FALSE_POSITIVE = "false_positive"


@dataclass(frozen=True)
class ScreenedEntity:
    """The monitored entity a run searched for: what an entity inquiry needs."""

    entity_key: str  # person | customer_person | company
    entity_uuid: uuid.UUID

    def inquiry_fields(self) -> dict:
        return {f"{self.entity_key}_id": self.entity_uuid}


@dataclass
class HitsRecorded:
    created: int = 0
    updated: int = 0


def _inquiries(config_uuid: uuid.UUID, entities: list[ScreenedEntity]) -> dict[ScreenedEntity, EntityInquiry]:
    """The config's inquiry of each entity, made where missing (insert-ignore: one per config + entity)."""
    EntityInquiry.objects.bulk_create(
        [
            EntityInquiry(
                screening_config_id=config_uuid,
                inquiry_entity_key=entity.entity_key,
                inquiry_entity_uuid=entity.entity_uuid,
                **entity.inquiry_fields(),
            )
            for entity in entities
        ],
        ignore_conflicts=True,
    )
    wanted = set(entities)
    found = EntityInquiry.objects.filter(
        screening_config_id=config_uuid, inquiry_entity_uuid__in=[e.entity_uuid for e in entities]
    )
    return {
        entity: inquiry
        for inquiry in found
        if (entity := ScreenedEntity(inquiry.inquiry_entity_key, inquiry.inquiry_entity_uuid)) in wanted
    }


def _newest_cases(inquiries: list[EntityInquiry]) -> dict[tuple[uuid.UUID, uuid.UUID, str], ScreeningCase]:
    """(inquiry, category, source_id) -> the newest case of its chain (the one nobody names as previous)."""
    cases = list(
        ScreeningCase.objects.filter(entity_inquiry__in=inquiries).select_related(
            "latest_review__screening_case_review_status", "list_entry__version"
        )
    )
    superseded = {c.previous_case_id for c in cases if c.previous_case_id}
    return {(c.entity_inquiry_id, c.list_category_id, c.list_source_id): c for c in cases if c.uuid not in superseded}


def _case_values(entry: ScreeningListEntry, match: Match) -> dict:
    return {
        "list_entry": entry,
        "list_content_hash": entry.content_hash,
        "score": round(match.score, 4),
        "explanation": match.explanation.as_dict(),
        "explanation_summary": match.explanation.summary(),
    }


def _false_positive(case: ScreeningCase) -> bool:
    review = case.latest_review
    return (
        case.case_status_key == ScreeningCase.Status.COMPLETE
        and review is not None
        and review.screening_case_review_status.key == FALSE_POSITIVE
    )


def hits_record(*, config_uuid: uuid.UUID, hits: list[tuple[ScreenedEntity, list[Match]]]) -> HitsRecorded:
    """Record a run's hits for the screened entities of one config (a chunk's worth at once:
    a few statements, whatever the number of hits). Match entity ids are list entry uuids."""
    recorded = HitsRecorded()
    hits = [(entity, matches) for entity, matches in hits if matches]
    if not hits:
        return recorded
    entries = ScreeningListEntry.objects.select_related("version__category").in_bulk(
        [m.entity_id for _, matches in hits for m in matches]
    )
    with transaction.atomic():
        inquiries = _inquiries(config_uuid, [entity for entity, _ in hits])
        newest = _newest_cases(list(inquiries.values()))
        rows = []
        for entity, matches in hits:
            inquiry = inquiries[entity]
            for match in matches:
                entry = entries[uuid.UUID(match.entity_id)]
                case = newest.get((inquiry.uuid, entry.version.category_id, entry.source_id))
                if case is None:
                    rows.append(_new_case(config_uuid, inquiry, entry, match, previous=None))
                elif case.list_content_hash == entry.content_hash or entry.version.number < case.list_entry.version.number:
                    continue
                elif case.case_status_key in OPEN_STATUSES:
                    recorded.updated += ScreeningCase.objects.filter(pk=case.pk, case_status_key__in=OPEN_STATUSES).update(
                        update_timestamp=timezone.now(), **_case_values(entry, match)
                    )
                elif _false_positive(case):
                    rows.append(_new_case(config_uuid, inquiry, entry, match, previous=case))
        if rows:
            ScreeningCase.objects.bulk_create(rows, ignore_conflicts=True)
            recorded.created = ScreeningCase.objects.filter(uuid__in=[r.uuid for r in rows]).count()
    return recorded


def _new_case(config_uuid, inquiry, entry: ScreeningListEntry, match: Match, previous: ScreeningCase | None) -> ScreeningCase:
    list_type = entry.version.category.list_type
    return ScreeningCase(
        screening_config_id=config_uuid,
        entity_inquiry=inquiry,
        list_category=entry.version.category,
        list_source_id=entry.source_id,
        previous_case=previous,
        pep_flag=list_type == ScreeningListCategory.ListType.PEP,
        sanction_flag=list_type == ScreeningListCategory.ListType.SANCTION,
        **_case_values(entry, match),
    )
