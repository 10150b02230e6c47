"""Screening cases (spec §2.10, §4.7): the queue, one case with both sides of the match,
reviews, assignment and the case report.

Beside the spec's collection filters (status, related company) the queue uses the service's
extension filters (PEP or sanction, assignee, one entity, one case), its sort order and its
counts per status with their PEP and sanction hits (`screening-case-status-count`, also the
overviews' counts: screening.freshness). Review statuses and match decisions are
named by key here; their uuids come from the service's lookups, read when a review is sent
(they are rows of the service's database, so a process-wide copy could outlive them).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

from portal.service.case_statistics import CaseStatistics
from portal.service.common import Area, CompanyRef, day, moment, path_segment, uuid_or_none
from portal.service.errors import ServiceError, ServiceNotFound
from portal.service.explanation import Explanation
from vakt_format.list_entries import REGISTRATION_KINDS, identifier_text

STATUS_KEYS = ("pending", "ongoing", "complete")
SORT_ORDERS = ("newest_first", "oldest_first")


@dataclass(frozen=True, slots=True)
class Subject:
    """The screened person or company as the organisation knows it."""

    kind: str  # person (register), customer_person or company
    uuid: UUID
    name: str
    birth_date: date | None = None
    nationalities: tuple[str, ...] = ()  # upper-case ISO codes (a register person's nationality, a customer person's)
    gender: str = ""
    org_nr: str = ""
    org_nr_schema: str = ""
    customer_reference: str = ""  # a customer person's: the organisation's own number for the customer ("" when none)


@dataclass(frozen=True, slots=True)
class ListEntry:
    category_key: str
    list_type: str  # pep or sanction
    version_number: int
    source_id: str
    schema: str
    primary_name: str
    names: tuple[tuple[str, str], ...]  # (name, quality)
    birth_dates: tuple[str, ...]  # partial ISO dates as listed: "1970", "1970-05", "1970-05-12"
    nationalities: tuple[str, ...]
    gender: str
    programmes: tuple[str, ...]
    listed_date: str
    source_url: str
    remarks: str
    identifiers: tuple[str, ...] = ()  # in words: "Passport 745120836 (RU)"
    registrations: tuple[str, ...] = ()  # the organisation's registration and tax numbers among them
    addresses: tuple[str, ...] = ()
    positions: tuple[str, ...] = ()  # a PEP's public functions


@dataclass(frozen=True, slots=True)
class Review:
    uuid: UUID
    reviewer_uuid: UUID | None
    reviewer_email: str
    status_key: str
    decision_key: str
    pep_confirmed: bool
    comment: str
    created_at: datetime | None
    completed_at: datetime | None = None  # None on a confirmed_hit: a four-eyes proposal awaiting a second member


@dataclass(frozen=True, slots=True)
class Case:
    uuid: UUID
    status_key: str
    pep: bool
    sanction: bool
    score: float
    created_at: datetime | None
    updated_at: datetime | None
    assignee_uuid: UUID | None
    monitored: bool
    subject: Subject
    related_companies: tuple[CompanyRef, ...]
    list_entry: ListEntry
    explanation: Explanation
    explanation_summary: str
    reviews: tuple[Review, ...]  # newest first
    app_url: str | None

    @property
    def latest_review(self) -> Review | None:
        return self.reviews[0] if self.reviews else None

    @property
    def hit_proposal(self) -> Review | None:
        """The latest review when it is a confirmed hit awaiting a second member (four-eyes review)."""
        latest = self.latest_review
        if latest and latest.status_key == "confirmed_hit" and latest.completed_at is None:
            return latest
        return None

    @property
    def latest_escalation(self) -> Review | None:
        return next((r for r in self.reviews if r.status_key == "escalated"), None)

    @classmethod
    def from_json(cls, data: dict) -> Case:
        case, match = data["screening_case"], data.get("screening_case_match") or {}
        entry = match.get("list_entry") or {}
        aggregate = data.get("screening_state_aggregate") or {}
        return cls(
            uuid=UUID(str(case["uuid"])),
            status_key=case.get("screening_case_status_key") or "",
            pep=bool(case.get("pep_flag")),
            sanction=bool(case.get("sanction_flag")),
            score=float(match.get("score") or 0),
            created_at=moment(case.get("created_timestamp")),
            updated_at=moment(aggregate.get("screening_case_latest_update_timestamp")),
            assignee_uuid=uuid_or_none(case.get("assignee_app_membership_uuid")),
            monitored=bool((data.get("entity_inquiry") or {}).get("monitored_flag")),
            subject=_subject(data),
            related_companies=tuple(CompanyRef.from_json(c) for c in data.get("related_companies") or []),
            list_entry=ListEntry(
                category_key=entry.get("screening_list_category_key") or "",
                list_type=entry.get("screening_list_type_key") or "",
                version_number=int(entry.get("list_version_number") or 0),
                source_id=entry.get("source_id") or "",
                schema=entry.get("schema_key") or "",
                primary_name=entry.get("primary_name") or "",
                names=tuple((n.get("name") or "", n.get("quality") or "") for n in entry.get("names") or []),
                birth_dates=tuple(entry.get("birth_dates") or ()),
                nationalities=tuple(n.upper() for n in entry.get("nationalities") or ()),
                gender=entry.get("gender") or "",
                programmes=tuple(entry.get("programmes") or ()),
                listed_date=entry.get("listed_date") or "",
                source_url=entry.get("source_url") or "",
                remarks=entry.get("remarks") or "",
                identifiers=tuple(_identifier(i) for i in entry.get("identifiers") or ()),
                registrations=tuple(_identifier(i) for i in entry.get("identifiers") or ()
                                    if i.get("kind") in REGISTRATION_KINDS),
                addresses=tuple(entry.get("addresses") or ()),
                positions=tuple(entry.get("positions") or ()),
            ),
            explanation=Explanation.from_json(match.get("explanation") or {}),
            explanation_summary=match.get("explanation_summary") or "",
            reviews=tuple(_review(r) for r in data.get("screening_case_review_composites") or []),
            app_url=case.get("app_url"),
        )


@dataclass(frozen=True, slots=True)
class CasePage:
    cases: tuple[Case, ...]
    count: int
    has_more: bool


@dataclass(frozen=True, slots=True)
class CaseFilters:
    """The queue's filters as the service reads them; None means "any"."""

    status_keys: tuple[str, ...] = ()
    pep: bool | None = None
    sanction: bool | None = None
    related_company_uuid: UUID | None = None
    assignee_uuid: UUID | None = None
    assigned: bool | None = None
    name: str | None = None  # the screened or listed name contains it
    listed_as_case_uuid: UUID | None = None  # the cases on the same listed person or company as this case
    entity_key: str | None = None  # person (behind a company), customer_person or company
    list_key: str | None = None  # the list category the case's entry is on

    def params(self) -> dict:
        return {
            "inquiry_entity_key": self.entity_key,
            "screening_list_category_key": self.list_key,
            "name_contains": self.name,
            "listed_as_case_uuid": self.listed_as_case_uuid,
            "related_company_uuid": self.related_company_uuid,
            "pep_flag": self.pep,
            "sanction_flag": self.sanction,
            "assignee_app_membership_uuid": self.assignee_uuid,
            "assigned_flag": self.assigned,
        }


@dataclass(frozen=True, slots=True)
class StatusCount:
    status_key: str  # pending, ongoing, complete
    count: int
    pep_count: int
    sanction_count: int


@dataclass(frozen=True, slots=True)
class CaseCounts:
    """Cases per status under some filters, with how many are PEP and sanction hits."""

    by_status: tuple[StatusCount, ...]  # pending, ongoing, complete

    def of(self, status_key: str) -> StatusCount:
        return next((c for c in self.by_status if c.status_key == status_key), StatusCount(status_key, 0, 0, 0))

    def per_status(self) -> dict[str, int]:
        """status -> count"""
        return {c.status_key: c.count for c in self.by_status}

    @property
    def open(self) -> int:
        return self.of("pending").count + self.of("ongoing").count

    @property
    def open_pep(self) -> int:
        return self.of("pending").pep_count + self.of("ongoing").pep_count

    @property
    def open_sanction(self) -> int:
        return self.of("pending").sanction_count + self.of("ongoing").sanction_count

    @classmethod
    def from_json(cls, rows: list[dict]) -> CaseCounts:
        by_key = {row["screening_case_status_key"]: row for row in rows}
        return cls(
            tuple(
                StatusCount(
                    status_key=key,
                    count=int(by_key.get(key, {}).get("count") or 0),
                    pep_count=int(by_key.get(key, {}).get("pep_count") or 0),
                    sanction_count=int(by_key.get(key, {}).get("sanction_count") or 0),
                )
                for key in STATUS_KEYS
            )
        )


def _subject(data: dict) -> Subject:
    inquiry = data.get("entity_inquiry") or {}
    entity_uuid = UUID(str(inquiry.get("inquiry_entity_uuid")))
    if person := data.get("monitoring_person"):
        nationality = (person.get("nationality") or "").upper()
        return Subject("person", entity_uuid, person.get("full_name") or "", day(person.get("birth_date")),
                       (nationality,) if nationality else (), person.get("gender") or "")
    if person := data.get("monitoring_customer_person"):
        return Subject("customer_person", entity_uuid, person.get("full_name") or "", day(person.get("birth_date")),
                       tuple(code.upper() for code in person.get("nationalities") or ()), person.get("gender_key") or "",
                       customer_reference=person.get("customer_reference") or "")
    company = data.get("monitoring_company") or {}
    return Subject("company", entity_uuid, company.get("name") or "", org_nr=company.get("org_nr") or "",
                   org_nr_schema=company.get("org_nr_schema") or "")


def _identifier(data: dict) -> str:
    return identifier_text(kind=data.get("kind") or "", value=data.get("value") or "", country=data.get("country"))


def _review(data: dict) -> Review:
    review = data["screening_case_review"]
    return Review(
        uuid=UUID(str(review["uuid"])),
        reviewer_uuid=uuid_or_none(review.get("reviewer_app_membership_uuid")),
        reviewer_email=data.get("screening_case_reviewer_email") or "",
        status_key=(data.get("screening_case_review_status") or {}).get("screening_case_review_status_key") or "",
        decision_key=(data.get("entity_match_decision_type") or {}).get("entity_match_decision_type_key") or "",
        pep_confirmed=bool(review.get("pep_confirmed_flag")),
        comment=review.get("screening_case_review_comment") or "",
        created_at=moment(review.get("created_timestamp")),
        completed_at=moment(review.get("complete_timestamp")),
    )


# A review's body fields, by the names a review form gives them: a refusal of the service names the
# wire field (its `errors[].loc`), and a form shows the reason at its own field, without the API's name.
REVIEW_FIELDS = {
    "screening_case_review_status_uuid": "status",
    "entity_match_decision_type_uuid": "decision",
    "pep_confirmed_flag": "pep_confirmed",
    "screening_case_review_comment": "comment",
}


def review_refusal_field(error: ServiceError) -> str:
    """The review field a refusal of the service is about ("decision", "status" ...), "" when none."""
    for problem in error.errors or ():
        loc = problem.get("loc") or ()
        if loc and loc[-1] in REVIEW_FIELDS:
            return REVIEW_FIELDS[loc[-1]]
    return ""


class CasesArea(Area):
    def _config_path(self, config_uuid: UUID | str, tail: str) -> str:
        return f"v1/screening-config/{path_segment(config_uuid)}/{tail}"

    def _collection(self, config_uuid: UUID | str, params: dict) -> CasePage:
        """One page of the case collection: the queue, one case, the cases of one entity."""
        [data] = self.client.get("analysis", self._config_path(config_uuid, "screening-case-composite-collection"), params=params)
        return CasePage(tuple(Case.from_json(c) for c in data["elements"]), int(data["count"]), bool(data["has_more"]))

    def page(
        self, config_uuid: UUID | str, filters: CaseFilters, *, sort_order: str = "newest_first", limit: int = 50, offset: int = 0
    ) -> CasePage:
        """One page of the queue (spec rule 6: offset = limit x pages skipped)."""
        params = {
            **filters.params(),
            "screening_case_status_identifiers": list(filters.status_keys) or None,
            "sort_order": sort_order,
            "limit": limit,
            "offset": offset,
        }
        return self._collection(config_uuid, params)

    def status_counts(self, config_uuid: UUID | str, filters: CaseFilters) -> CaseCounts:
        """Cases per status (pending, ongoing, complete) under the filters other than the status,
        with their PEP and sanction hits: the queue's tabs, and the overviews' counts (CaseFilters())."""
        rows = self.client.get("analysis", self._config_path(config_uuid, "screening-case-status-count"), params=filters.params())
        return CaseCounts.from_json(rows)

    def statistics(self, config_uuid: UUID | str, *, months: int = 12, entity_key: str | None = None) -> CaseStatistics:
        """The cases month by month (raised, closed, median days to close) and the open ones by age;
        `entity_key` (person, customer_person, company): of that kind of screened entity only."""
        path = self._config_path(config_uuid, "screening-case-statistics")
        params = {"months": months, "inquiry_entity_key": entity_key}
        return CaseStatistics.from_json(self.client.get("analysis", path, params=params))

    def get(self, config_uuid: UUID | str, case_uuid: UUID | str) -> Case:
        """One case; `ServiceNotFound` when it is not a case of this config."""
        page = self._collection(config_uuid, {"screening_case_uuid": case_uuid, "limit": 1})
        if not page.cases:
            raise ServiceNotFound(404, "not_found", f"No screening case {case_uuid}.")
        return page.cases[0]

    def of_entity(self, config_uuid: UUID | str, entity_uuid: UUID | str, *, limit: int = 50) -> CasePage:
        """The cases of one screened person or company, newest first."""
        params = {"inquiry_entity_uuid": entity_uuid, "limit": limit}
        return self._collection(config_uuid, params)

    def of_listed_entity(self, config_uuid: UUID | str, case_uuid: UUID | str, *, limit: int = 50) -> CasePage:
        """The cases on the same listed person or company as this case (itself included), newest first."""
        return self._collection(config_uuid, {"listed_as_case_uuid": case_uuid, "limit": limit})

    def review(
        self,
        config_uuid: UUID | str,
        case_uuid: UUID | str,
        *,
        status_key: str,
        decision_key: str,
        pep_confirmed: bool,
        comment: str = "",
        reviewer_uuid: UUID | str | None = None,
    ) -> Case:
        """Records a review as `reviewer_uuid` (default: the member the client acts for); answers the case after it."""
        body = {
            "screening_case_uuid": str(case_uuid),
            **self._review_body(status_key, decision_key, pep_confirmed, comment, reviewer_uuid),
        }
        return Case.from_json(self.client.post("analysis", self._config_path(config_uuid, "screening-case-review"), json=body))

    def review_many(
        self,
        config_uuid: UUID | str,
        case_uuids,
        *,
        status_key: str,
        decision_key: str,
        pep_confirmed: bool = False,
        comment: str = "",
        reviewer_uuid: UUID | str | None = None,
    ) -> tuple[Case, ...]:
        """The same review of several cases, all or none (the service's batch extension); the cases after it."""
        body = {
            "screening_case_uuids": [str(case_uuid) for case_uuid in case_uuids],
            **self._review_body(status_key, decision_key, pep_confirmed, comment, reviewer_uuid),
        }
        path = self._config_path(config_uuid, "screening-case-review-batch")
        return tuple(Case.from_json(row) for row in self.client.post("analysis", path, json=body))

    def _review_body(self, status_key: str, decision_key: str, pep_confirmed: bool, comment: str, reviewer_uuid) -> dict:
        reviewer_uuid = reviewer_uuid or self.acting_app_membership_uuid
        if not reviewer_uuid:
            raise ValueError("A review names its reviewer: give reviewer_uuid or act for a member.")
        return {
            "pep_confirmed_flag": pep_confirmed,
            "screening_case_review_status_uuid": str(self._lookup("screening-case-review-status", status_key)),
            "reviewer_app_membership_uuid": str(reviewer_uuid),
            "entity_match_decision_type_uuid": str(self._lookup("entity-match-decision-type", decision_key)),
            "screening_case_review_comment": comment,
        }

    def assign(self, config_uuid: UUID | str, case_uuid: UUID | str, assignee_uuid: UUID | str | None) -> Case:
        """Assigns the case to a member, or unassigns it (None)."""
        path = self._config_path(config_uuid, f"screening-case/{path_segment(case_uuid)}")
        body = {"assignee_app_membership_uuid": str(assignee_uuid) if assignee_uuid else None, **self.acting_body()}
        return Case.from_json(self.client.patch("analysis", path, json=body))

    def assign_many(self, config_uuid: UUID | str, case_uuids, assignee_uuid: UUID | str | None) -> tuple[Case, ...]:
        """Several cases to one member, or to nobody (None), all or none; the cases after it."""
        body = {
            "screening_case_uuids": [str(case_uuid) for case_uuid in case_uuids],
            "assignee_app_membership_uuid": str(assignee_uuid) if assignee_uuid else None,
            **self.acting_body(),
        }
        path = self._config_path(config_uuid, "screening-case-assignment-batch")
        return tuple(Case.from_json(row) for row in self.client.post("analysis", path, json=body))

    def report_pdf(self, config_uuid: UUID | str, case_uuid: UUID | str) -> bytes:
        """The case report as PDF bytes, rendered by the service from the case as it stands."""
        path = self._config_path(config_uuid, "screening-case-report")
        [report] = self.client.get("analysis", path, params={"screening_case_uuid": case_uuid})
        return base64.b64decode(report["pdf_base64"])

    def review_status_keys(self) -> tuple[str, ...]:
        return tuple(self._lookups("screening-case-review-status"))

    def match_decision_keys(self) -> tuple[str, ...]:
        return tuple(self._lookups("entity-match-decision-type"))

    def _lookups(self, name: str) -> dict[str, UUID]:
        field = "screening_case_review_status_key" if name == "screening-case-review-status" else "entity_match_decision_type_key"
        return {row[field]: UUID(str(row["uuid"])) for row in self.client.get("analysis", f"v1/{name}")}

    def _lookup(self, name: str, key: str) -> UUID:
        try:
            return self._lookups(name)[key]
        except KeyError:
            raise ValueError(f"Unknown {name} key: {key}") from None
