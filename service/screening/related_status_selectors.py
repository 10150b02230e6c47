"""The screening status of a config's related companies (spec §2.10, §4.7): one element per
company named as `related_company` by a monitoring of the config that is not removed.

A page is read in a fixed number of queries, whatever its size: the companies, their
monitorings (with decisions), the cases of the monitored entities (with reviews) and the
companies' flag history. Customer persons monitored without a related company never appear.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import OuterRef, QuerySet, Subquery

from service.auth.models import AppRole
from service.companies.models import Company, CompanyFlag
from service.companies.analysis.selectors import flag_type_visible
from service.pagination import Page
from service.screening.case_selectors import cases_list
from service.screening.models import EntityMonitoring, ScreeningCase, ScreeningConfig
from service.screening.monitoring_selectors import monitorings_list


@dataclass
class RelatedCompanyStatus:
    company: Company
    monitorings: list[EntityMonitoring] = field(default_factory=list)
    cases: list[ScreeningCase] = field(default_factory=list)
    flags: list[CompanyFlag] = field(default_factory=list)


def related_companies(*, config: ScreeningConfig) -> QuerySet[Company]:
    """The config's related companies, by name then uuid."""
    related = EntityMonitoring.objects.filter(
        screening_config=config, removed_flag=False, related_company__isnull=False
    ).values("related_company_id")
    return Company.objects.filter(uuid__in=related).order_by("name", "uuid")


def _flags_visible(companies: list[Company], granted_roles: Iterable[str]) -> dict[uuid.UUID, list[CompanyFlag]]:
    """Every flag of the companies, ended ones too (the history), newest first; types that
    need a role the caller lacks are left out by the companies' one visibility rule."""
    granted = frozenset(granted_roles)
    role = AppRole.objects.filter(key=OuterRef("company_flag_type__required_role_key")).values("uuid")[:1]
    rows = (
        CompanyFlag.objects.filter(company__in=companies)
        .select_related("company_flag_type")
        .annotate(role_uuid=Subquery(role))
        .order_by("-flag_date", "uuid")
    )
    by_company: dict[uuid.UUID, list[CompanyFlag]] = defaultdict(list)
    for flag in rows:
        if flag_type_visible(flag.company_flag_type.required_role_key, granted):
            by_company[flag.company_id].append(flag)
    return by_company


def related_company_status_page(
    *, config: ScreeningConfig, page: Page, granted_roles: Iterable[str], with_flags: bool = True
) -> tuple[int, list[RelatedCompanyStatus]]:
    """The total count and one page of related companies with what is shown about each
    (`with_flags` false: no flag history, for an overview that shows only the aggregate)."""
    queryset = related_companies(config=config)
    count = queryset.count()
    companies = list(queryset[page.offset : page.offset + page.limit])
    statuses = {c.uuid: RelatedCompanyStatus(company=c) for c in companies}
    if not companies:
        return count, []

    monitorings = list(monitorings_list(config=config).filter(related_company__in=companies))
    companies_of_entity: dict[uuid.UUID, set[uuid.UUID]] = defaultdict(set)
    for monitoring in monitorings:
        statuses[monitoring.related_company_id].monitorings.append(monitoring)
        if not monitoring.removed_flag:  # a case belongs to the company while its entity is monitored for it
            companies_of_entity[monitoring.entity_uuid].add(monitoring.related_company_id)

    cases = cases_list(config=config).filter(entity_inquiry__inquiry_entity_uuid__in=list(companies_of_entity))
    for case in cases:
        for company_uuid in sorted(companies_of_entity[case.entity_inquiry.inquiry_entity_uuid]):
            statuses[company_uuid].cases.append(case)

    if not with_flags:
        return count, [statuses[c.uuid] for c in companies]
    for company_uuid, flags in _flags_visible(companies, granted_roles).items():
        statuses[company_uuid].flags = flags
    return count, [statuses[c.uuid] for c in companies]
