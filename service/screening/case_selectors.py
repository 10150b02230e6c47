"""Reads of screening cases, scoped to a config of the calling organisation.

The case status (pending, ongoing, complete) is stored on the case beside `latest_review`,
written in the review's transaction, so the status filter is one indexed column.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from service.errors import NotFound, bad_field, field_error
from service.screening.access import not_found
from service.screening.models import (
    EntityMatchDecisionType,
    EntityMonitoring,
    ScreeningCase,
    ScreeningCaseReview,
    ScreeningCaseReviewStatus,
    ScreeningConfig,
)
from service.screening.monitoring_selectors import monitoring_status_key

CASE_STATUS_KEYS = tuple(ScreeningCase.Status.values)


def case_status_keys_parse(raw: str | None) -> list[str] | None:
    """`pending,ongoing` -> the keys; an unknown key is a 400 naming the parameter."""
    if raw is None or not raw.strip():
        return None
    keys = [k.strip() for k in raw.split(",") if k.strip()]
    unknown = [k for k in keys if k not in CASE_STATUS_KEYS]
    if unknown:
        raise bad_field(
            ["query", "screening_case_status_identifiers"],
            f"unknown status {', '.join(unknown)}; use {', '.join(CASE_STATUS_KEYS)}",
        )
    return keys


def _with_relations(queryset: QuerySet[ScreeningCase]) -> QuerySet[ScreeningCase]:
    reviews = ScreeningCaseReview.objects.select_related(
        "screening_case_review_status", "entity_match_decision_type", "reviewer_app_membership"
    ).order_by("-created_timestamp", "-uuid")
    return queryset.select_related(
        "entity_inquiry__person",
        "entity_inquiry__customer_person__gender",
        "entity_inquiry__company",
        "list_entry__version__category",
        "assignee_app_membership",
    ).prefetch_related(Prefetch("reviews", queryset=reviews))


CASE_SORT_ORDERS = {"newest_first": ("-created_timestamp", "-uuid"), "oldest_first": ("created_timestamp", "uuid")}


@dataclass(frozen=True)
class CaseFilters:
    """The collection's filters. Beside the spec's status and related company, the extensions the
    dashboard's queue and case page need: PEP or sanction, the assignee, one entity, one case."""

    status_keys: list[str] | None = None
    related_company_uuid: uuid.UUID | None = None
    pep_flag: bool | None = None
    sanction_flag: bool | None = None
    assignee_app_membership_uuid: uuid.UUID | None = None
    assigned_flag: bool | None = None
    inquiry_entity_uuid: uuid.UUID | None = None
    screening_case_uuid: uuid.UUID | None = None
    name_contains: str | None = None
    listed_as_case_uuid: uuid.UUID | None = None
    inquiry_entity_key: str | None = None  # person, customer_person or company
    list_category_key: str | None = None  # the list the case's entry is on



def case_sort_order_parse(raw: str | None) -> tuple[str, ...]:
    """`newest_first` (the default) or `oldest_first`; anything else is a 400 naming `sort_order`."""
    key = (raw or "newest_first").strip() or "newest_first"
    if key not in CASE_SORT_ORDERS:
        raise bad_field(["query", "sort_order"], f"unknown order {key}; use {', '.join(CASE_SORT_ORDERS)}")
    return CASE_SORT_ORDERS[key]


def cases_filtered(*, config: ScreeningConfig, filters: CaseFilters, with_status: bool = True) -> QuerySet[ScreeningCase]:
    """The config's cases matching `filters`, unordered and without relations (`with_status`
    False leaves the status filter out: the counts per status)."""
    queryset = ScreeningCase.objects.filter(screening_config=config)
    if with_status and filters.status_keys:
        queryset = queryset.filter(case_status_key__in=filters.status_keys)
    if filters.related_company_uuid is not None:
        entities = EntityMonitoring.objects.filter(
            screening_config=config, related_company_id=filters.related_company_uuid, removed_flag=False
        ).values("entity_uuid")
        queryset = queryset.filter(entity_inquiry__inquiry_entity_uuid__in=entities)
    if filters.pep_flag is not None:
        queryset = queryset.filter(pep_flag=filters.pep_flag)
    if filters.sanction_flag is not None:
        queryset = queryset.filter(sanction_flag=filters.sanction_flag)
    if filters.assignee_app_membership_uuid is not None:
        queryset = queryset.filter(assignee_app_membership_id=filters.assignee_app_membership_uuid)
    if filters.assigned_flag is not None:
        queryset = queryset.filter(assignee_app_membership__isnull=not filters.assigned_flag)
    if filters.inquiry_entity_uuid is not None:
        queryset = queryset.filter(entity_inquiry__inquiry_entity_uuid=filters.inquiry_entity_uuid)
    if filters.screening_case_uuid is not None:
        queryset = queryset.filter(uuid=filters.screening_case_uuid)
    if filters.inquiry_entity_key is not None:
        queryset = queryset.filter(entity_inquiry__inquiry_entity_key=filters.inquiry_entity_key)
    if filters.list_category_key is not None:
        queryset = queryset.filter(list_category__key=filters.list_category_key)
    if filters.name_contains:
        queryset = queryset.filter(_name_q(filters.name_contains))
    if filters.listed_as_case_uuid is not None:
        # The listed person or company is the list and its source id, the same across list versions.
        listed = (
            ScreeningCase.objects.filter(screening_config=config, uuid=filters.listed_as_case_uuid)
            .values("list_category_id", "list_source_id").first()
        )
        queryset = queryset.filter(**listed) if listed else queryset.none()
    return queryset


def _name_q(text: str) -> Q:
    """The screened person's or company's name, or the listed entry's, contains `text` (any case), or
    `text` is the screened customer person's customer reference (any case)."""
    return (
        Q(entity_inquiry__person__full_name__icontains=text)
        | Q(entity_inquiry__customer_person__full_name__icontains=text)
        | Q(entity_inquiry__customer_person__customer_reference__iexact=text)
        | Q(entity_inquiry__company__name__icontains=text)
        | Q(list_entry__primary_name__icontains=text)
    )


def cases_list(
    *, config: ScreeningConfig, filters: CaseFilters | None = None, ordering: tuple[str, ...] = CASE_SORT_ORDERS["newest_first"]
) -> QuerySet[ScreeningCase]:
    """The config's cases, newest first unless `ordering` says otherwise."""
    queryset = cases_filtered(config=config, filters=filters or CaseFilters())
    return _with_relations(queryset).order_by(*ordering)


def cases_page(
    *, config: ScreeningConfig, filters: CaseFilters, ordering: tuple[str, ...], offset: int, limit: int
) -> tuple[int, list[ScreeningCase]]:
    """The number of matching cases and one page of them, with their relations.

    In two steps: the page's uuids from the filtered cases alone (the indexes decide), then
    those rows with their relations. One query with the ten joins of the relations leaves the
    planner guessing (past join_collapse_limit) and reads every matching row before the limit."""
    filtered = cases_filtered(config=config, filters=filters)
    count = filtered.count()
    uuids = list(filtered.order_by(*ordering).values_list("uuid", flat=True)[offset : offset + limit])
    rows = {case.uuid: case for case in _with_relations(ScreeningCase.objects.filter(uuid__in=uuids))}
    return count, [rows[u] for u in uuids if u in rows]


@dataclass(frozen=True)
class StatusCount:
    status_key: str
    count: int
    pep_count: int
    sanction_count: int


def case_status_counts(*, config: ScreeningConfig, filters: CaseFilters) -> list[StatusCount]:
    """How many cases of each status (pending, ongoing, complete, zeros included, in that order)
    match the filters other than the status, and how many of them are PEP and sanction hits.

    One grouped query; count(*), not count(uuid): the index on config, status and both flags
    answers it alone."""
    rows = (
        cases_filtered(config=config, filters=filters, with_status=False)
        .order_by()
        .values("case_status_key", "pep_flag", "sanction_flag")
        .annotate(count=Count("*"))
    )
    totals = {key: [0, 0, 0] for key in CASE_STATUS_KEYS}
    for row in rows:
        total, n = totals[row["case_status_key"]], row["count"]
        total[0] += n
        total[1] += n if row["pep_flag"] else 0
        total[2] += n if row["sanction_flag"] else 0
    return [StatusCount(key, *numbers) for key, numbers in totals.items()]


def case_get(*, config: ScreeningConfig, case_uuid: uuid.UUID, loc: list | None = None) -> ScreeningCase:
    case = _with_relations(ScreeningCase.objects.filter(screening_config=config, uuid=case_uuid)).first()
    if case is None:
        raise not_found("screening case", case_uuid, loc)
    return case


def cases_get(*, config: ScreeningConfig, case_uuids: list[uuid.UUID], loc: list) -> list[ScreeningCase]:
    """The config's cases in the order asked, in one query; a uuid that is not one of them (another
    config's or organisation's too) is a 404 naming its place in the list."""
    found = {case.uuid: case for case in _with_relations(ScreeningCase.objects.filter(screening_config=config, uuid__in=case_uuids))}
    missing = [(index, value) for index, value in enumerate(case_uuids) if value not in found]
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        errors = [field_error([*loc, index], f"no screening case {value}") for index, value in missing]
        raise NotFound(f"No screening case {missing[0][1]}{more}.", errors=errors)
    return [found[value] for value in case_uuids]


def monitorings_of_cases(*, config: ScreeningConfig, cases: list[ScreeningCase]) -> dict[uuid.UUID, list[EntityMonitoring]]:
    """The config's monitorings that are not removed, by entity, for a page of cases (one query):
    the related companies and `monitored_flag` of each case's inquiry."""
    entity_uuids = {c.entity_inquiry.inquiry_entity_uuid for c in cases}
    by_entity: dict[uuid.UUID, list[EntityMonitoring]] = defaultdict(list)
    rows = (
        EntityMonitoring.objects.filter(screening_config=config, removed_flag=False, entity_uuid__in=entity_uuids)
        .select_related("related_company", "latest_decision", "entity_monitoring_type")
        .order_by("create_timestamp", "uuid")
    )
    for monitoring in rows:
        by_entity[monitoring.entity_uuid].append(monitoring)
    return by_entity


def entity_screened(monitorings: list[EntityMonitoring]) -> bool:
    """The §3 rule (`monitoring_status_key`, the same rule on rows already read)."""
    return any(monitoring_status_key(m) == "active" for m in monitorings)


def review_statuses_list() -> QuerySet[ScreeningCaseReviewStatus]:
    return ScreeningCaseReviewStatus.objects.order_by("key")


def match_decision_types_list() -> QuerySet[EntityMatchDecisionType]:
    return EntityMatchDecisionType.objects.order_by("key")
