"""Screening case endpoints (spec §2.10, §4.7): the case collection and reviews. Every
endpoint needs `aml`; a case of another config, or of another organisation, is 404."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from service.auth.models import AppMembership
from service.errors import BadRequest, bad_field, field_error
from service.name_search import name_search_parse
from service.openapi import conflict_answer
from service.pagination import PageQuery, collection
from service.screening import case_schemas as s
from service.screening import case_selectors as selectors
from service.screening import case_services as services
from service.screening.access import EXTENSION, aml_principal
from service.screening.config_api import config_of
from service.screening.models import EntityMatchDecisionType, ScreeningCaseReviewStatus, ScreeningListCategory

router = Router(tags=["Screening cases"])


EXT = "Extension: "


# The kinds of screened entity an inquiry (and so a case) is about.
ENTITY_KEYS = ("person", "customer_person", "company")
ENTITY_KEY_HELP = ("the cases of one kind of screened entity: person (the persons behind companies), customer_person "
                   "or company (a company's own name)")


def list_category_key_parse(value: str | None) -> str | None:
    """`screening_list_category_key` of a query (blank: any list), or a 400 naming it."""
    value = (value or "").strip() or None
    if value is not None and not ScreeningListCategory.objects.filter(key=value).exists():
        keys = ", ".join(ScreeningListCategory.objects.order_by("key").values_list("key", flat=True))
        raise bad_field(["query", "screening_list_category_key"], f"unknown list {value}; the lists are {keys}")
    return value


def entity_key_parse(value: str | None) -> str | None:
    """`inquiry_entity_key` of a query, or a 400 naming it."""
    if value is not None and value not in ENTITY_KEYS:
        raise bad_field(["query", "inquiry_entity_key"], f"must be one of {', '.join(ENTITY_KEYS)}")
    return value


class CaseFilterQuery(Schema):
    """The filters shared by the collection and the counts per status."""

    related_company_uuid: uuid.UUID | None = None
    pep_flag: bool | None = Field(None, description=EXT + "true: PEP hits only; false: no PEP hits")
    sanction_flag: bool | None = Field(None, description=EXT + "true: sanction hits only; false: no sanction hits")
    assignee_app_membership_uuid: uuid.UUID | None = Field(None, description=EXT + "cases assigned to this member")
    assigned_flag: bool | None = Field(None, description=EXT + "false: cases assigned to nobody; true: to somebody")
    inquiry_entity_uuid: uuid.UUID | None = Field(
        None, description=EXT + "the cases of one screened person or company (entity_inquiry.inquiry_entity_uuid)"
    )
    screening_case_uuid: uuid.UUID | None = Field(None, description=EXT + "one case (an empty page when not this config's)")
    inquiry_entity_key: str | None = Field(None, description=EXT + ENTITY_KEY_HELP)
    screening_list_category_key: str | None = Field(
        None, description=EXT + "the cases raised on one list's entries (a key of GET /v1/screening-list-category)"
    )
    name_contains: str | None = Field(
        None,
        description=EXT + "cases whose screened person or company, or whose list entry's primary name, contains "
        "this text, in any case, or whose screened customer person's customer reference it is (at most 200 characters; "
        "blank: no search)",
    )
    listed_as_case_uuid: uuid.UUID | None = Field(
        None,
        description=EXT + "the cases on the same listed person or company (its list and source id, across list "
        "versions) as this case: who else of the config's screened hits that entry (an empty page when the case is "
        "not this config's)",
    )

    def filters(self, status_keys: list[str] | None = None) -> selectors.CaseFilters:
        return selectors.CaseFilters(
            status_keys=status_keys,
            related_company_uuid=self.related_company_uuid,
            pep_flag=self.pep_flag,
            sanction_flag=self.sanction_flag,
            assignee_app_membership_uuid=self.assignee_app_membership_uuid,
            assigned_flag=self.assigned_flag,
            inquiry_entity_uuid=self.inquiry_entity_uuid,
            screening_case_uuid=self.screening_case_uuid,
            name_contains=name_search_parse(self.name_contains),
            listed_as_case_uuid=self.listed_as_case_uuid,
            inquiry_entity_key=entity_key_parse(self.inquiry_entity_key),
            list_category_key=list_category_key_parse(self.screening_list_category_key),
        )


class CaseQuery(CaseFilterQuery, PageQuery):
    screening_case_status_identifiers: str | None = None
    sort_order: str | None = Field(None, description=EXT + "newest_first (default) or oldest_first, by created_timestamp")


class StatusCountOut(Schema):
    screening_case_status_key: str = Field(description="pending, ongoing or complete")
    count: int
    pep_count: int = Field(description="Of these, PEP hits")
    sanction_count: int = Field(description="Of these, sanction hits (a case may be both)")


def composites(config, cases: list) -> list[dict]:
    monitorings = selectors.monitorings_of_cases(config=config, cases=cases)
    out = []
    for case in cases:
        of_entity = monitorings.get(case.entity_inquiry.inquiry_entity_uuid, [])
        out.append(
            s.case_composite_out(case, monitorings=of_entity, monitored_flag=selectors.entity_screened(of_entity))
        )
    return out


@router.get(
    "/screening-config/{screening_config_uuid}/screening-case-composite-collection",
    response=list[s.ScreeningCaseCollection],
    summary="The config's screening cases",
    description=(
        "Newest first. `screening_case_status_identifiers`: a comma list of pending (no review), ongoing (latest "
        "review in_review or escalated) and complete (confirmed_hit or false_positive). `related_company_uuid`: "
        "cases of entities monitored for that company. `limit` (default 100, at most 1000) and `offset` as in "
        "rule 6. Extension filters (`pep_flag`, `sanction_flag`, `assignee_app_membership_uuid`, `assigned_flag`, "
        "`inquiry_entity_uuid`, `screening_case_uuid`) and `sort_order` narrow and order the same collection. Each composite carries, as an extension, `screening_case_match`: the list entry and the score "
        "with the engine's explanation."
    ),
)
def case_collection(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[CaseQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    status_keys = selectors.case_status_keys_parse(query.screening_case_status_identifiers)
    ordering = selectors.case_sort_order_parse(query.sort_order)
    count, cases = selectors.cases_page(
        config=config, filters=query.filters(status_keys), ordering=ordering, offset=page.offset, limit=page.limit
    )
    return collection(composites(config, cases), count=count, page=page)


@router.get(
    "/screening-config/{screening_config_uuid}/screening-case-status-count",
    response=list[StatusCountOut],
    summary="Extension: how many of the config's cases have each status",
    description=(
        "One element per status (pending, ongoing, complete, in that order, zeros included) counting the cases that "
        "match the other filters of the case collection (related company, PEP or sanction, assignee, entity), with "
        "how many of them are PEP and sanction hits. One grouped query, for the queue's tabs and for overviews."
    ),
    openapi_extra=EXTENSION,
)
def case_status_count(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[CaseFilterQuery]):
    config = config_of(request, screening_config_uuid)
    return [
        {
            "screening_case_status_key": c.status_key,
            "count": c.count,
            "pep_count": c.pep_count,
            "sanction_count": c.sanction_count,
        }
        for c in selectors.case_status_counts(config=config, filters=query.filters())
    ]


def _lookup(model, value: uuid.UUID, field: str, what: str, errors: list):
    row = model.objects.filter(uuid=value).first()
    if row is None:
        errors.append(field_error(["body", field], f"no {what} {value}"))
    return row


@router.post(
    "/screening-config/{screening_config_uuid}/screening-case-review",
    response={201: s.ScreeningCaseComposite},
    summary="Record a review of a screening case",
    description=(
        "Appends a review; the case status follows the latest review (in_review, escalated: ongoing; "
        "confirmed_hit, false_positive: complete). `reviewer_app_membership_uuid` must be a member of the calling "
        "organisation. Answers the case composite with its reviews. With the config's `four_eyes_review_flag`, "
        "a review only a second member may make is a 409 `four_eyes_required` (docs/screening.md)."
    ),
    openapi_extra=conflict_answer("Four-eyes review: a second member must close the case (four_eyes_required)"),
)
def review_create(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.ReviewIn):
    config = config_of(request, screening_config_uuid)
    case = selectors.case_get(config=config, case_uuid=payload.screening_case_uuid, loc=["body", "screening_case_uuid"])
    services.review_record(case=case, **review_of(request, payload))
    case = selectors.case_get(config=config, case_uuid=case.uuid)
    return Status(201, composites(config, [case])[0])


def review_of(request: HttpRequest, payload: s.ReviewFields) -> dict:
    """A review's status, decision and reviewer looked up (every bad one named in one 400), with its flag,
    comment and API user: the arguments of `review_record` but the case."""
    errors: list = []
    status = _lookup(ScreeningCaseReviewStatus, payload.screening_case_review_status_uuid, "screening_case_review_status_uuid", "review status", errors)
    decision = _lookup(EntityMatchDecisionType, payload.entity_match_decision_type_uuid, "entity_match_decision_type_uuid", "match decision type", errors)
    reviewer = AppMembership.objects.filter(
        uuid=payload.reviewer_app_membership_uuid, app_customer_id=request.auth.app_customer_uuid
    ).first()
    if reviewer is None:
        errors.append(
            field_error(["body", "reviewer_app_membership_uuid"], "not a member of the calling organisation")
        )
    if errors:
        names = ", ".join(e["loc"][-1] for e in errors)
        raise BadRequest(f"Invalid request: check {names}.", code="invalid_request", errors=errors)
    return {
        "status": status, "decision_type": decision, "reviewer": reviewer, "pep_confirmed_flag": payload.pep_confirmed_flag,
        "comment": payload.screening_case_review_comment, "api_user_uuid": request.auth.api_user_uuid,
    }


@router.get(
    "/screening-case-review-status",
    response=list[s.ReviewStatusLookupOut],
    summary="Extension: screening case review statuses",
    openapi_extra=EXTENSION,
)
def review_statuses(request: HttpRequest):
    aml_principal(request)
    return [
        {"uuid": r.uuid, "screening_case_review_status_key": r.key, "description": r.description}
        for r in selectors.review_statuses_list()
    ]


@router.get(
    "/entity-match-decision-type",
    response=list[s.MatchDecisionTypeLookupOut],
    summary="Extension: entity match decision types",
    openapi_extra=EXTENSION,
)
def match_decision_types(request: HttpRequest):
    aml_principal(request)
    return [
        {"uuid": r.uuid, "entity_match_decision_type_key": r.key, "description": r.description}
        for r in selectors.match_decision_types_list()
    ]
