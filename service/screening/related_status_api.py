"""GET the screening status of a config's related companies (spec §2.10, §4.7). Needs `aml`;
another organisation's config is 404."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Query, Router

from service.auth.principal import principal_of
from service.pagination import PageQuery, collection
from service.screening import related_status_schemas as s
from service.screening.config_api import config_of
from service.screening.related_status_selectors import related_company_status_page

router = Router(tags=["Screening cases"])


class RelatedStatusQuery(PageQuery):
    aggregate_only_flag: bool = False  # extension


@router.get(
    "/screening-config/{screening_config_uuid}/screening-related-company-status-composite-collection",
    response=list[s.RelatedCompanyStatusCollection],
    summary="The screening status of the config's related companies",
    description=(
        "One element per company that a monitoring of the config (not removed) names as its related company, "
        "by company name: its monitorings, the cases of the entities monitored for it, its flag history "
        "(role-protected flag types only with the role) and an aggregate. Customer persons without a related "
        "company do not appear. `limit` (default 100, at most 1000) and `offset` as in rule 6. "
        "Extensions: the aggregate also counts active and pending monitorings and open cases (all, PEP, "
        "sanction) and names the latest change of any of them (`latest_update_timestamp`); "
        "`aggregate_only_flag=true` answers each company with its aggregate only (the four composite arrays "
        "empty), for overviews of many companies."
    ),
)
def related_company_status_collection(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[RelatedStatusQuery]):
    config = config_of(request, screening_config_uuid)
    page = query.page()
    aggregate_only = query.aggregate_only_flag
    count, statuses = related_company_status_page(
        config=config, page=page, granted_roles=principal_of(request).granted_roles, with_flags=not aggregate_only
    )
    elements = [s.related_company_status_out(status, aggregate_only=aggregate_only) for status in statuses]
    return collection(elements, count=count, page=page)
