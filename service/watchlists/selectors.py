"""Reads of watchlists, always scoped to the calling organisation: another organisation's
watchlist is 404, exactly like one that does not exist.

Also the check of an add request's body against the register (`company_entries_resolve`),
which reads only: every bad entry is found before anything is written.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, QuerySet

from service.companies.analysis import selectors as company_selectors
from service.companies.analysis.credit_risk import score_columns_for
from service.companies.identifiers import OrgNrInvalid, org_nr_compact
from service.companies.models import Company
from service.errors import BadRequest, NotFound, field_error
from service.watchlists.models import Watchlist, WatchlistCompany

MAX_COMPANIES_PER_REQUEST = 10_000
_LOOKUP_BATCH = 2_000  # org numbers per IN (...): well inside SQLite's and PostgreSQL's parameter limits


def _own(app_customer_uuid: uuid.UUID) -> QuerySet:
    return Watchlist.objects.filter(app_customer_id=app_customer_uuid)


def watchlists_list(*, app_customer_uuid: uuid.UUID) -> list[Watchlist]:
    """The organisation's watchlists by name, each with `company_count`. One query."""
    return list(
        _own(app_customer_uuid).annotate(company_count=Count("memberships")).order_by("watchlist_name", "uuid")
    )


def watchlist_get(*, app_customer_uuid: uuid.UUID, watchlist_uuid: uuid.UUID, with_count: bool = False) -> Watchlist:
    """The watchlist if it belongs to the organisation; 404 otherwise (no existence leak)."""
    queryset = _own(app_customer_uuid)
    if with_count:
        queryset = queryset.annotate(company_count=Count("memberships"))
    watchlist = queryset.filter(uuid=watchlist_uuid).first()
    if watchlist is None:
        raise NotFound(f"No watchlist {watchlist_uuid}.")
    return watchlist


@dataclass(frozen=True)
class WatchlistCompanyRow:
    uuid: uuid.UUID
    watchlist_uuid: uuid.UUID
    added_timestamp: object
    company: dict  # uuid, name, org_nr, org_nr_schema
    risk_score: object  # Decimal | None
    risk_class: str | None
    flag_type_keys: list[str]


def watchlist_companies_list(*, watchlist: Watchlist, granted_roles: Iterable[str]) -> list[WatchlistCompanyRow]:
    """Every company of the watchlist by name, with its credit risk and active flag keys
    (role-protected flag types only with the role; the score and class the roles allow: the
    public ones, without the payment-remark factors, unless credit_check). Two queries
    whatever the size."""
    score_column, class_column, _ = score_columns_for(granted_roles)
    memberships = (
        WatchlistCompany.objects.filter(watchlist=watchlist)
        .order_by("company__name", "company_id")
        .values_list(
            "uuid",
            "added_timestamp",
            "company_id",
            "company__name",
            "company__org_nr",
            "company__org_nr_schema",
            f"company__credit_risk__{score_column}",
            f"company__credit_risk__{class_column}",
        )
    )
    flags = company_selectors.company_flag_type_keys_active(
        companies=Company.objects.filter(watchlist_memberships__watchlist=watchlist), granted_roles=granted_roles
    )
    return [
        WatchlistCompanyRow(
            uuid=row_uuid,
            watchlist_uuid=watchlist.uuid,
            added_timestamp=added,
            company={"uuid": company_uuid, "name": name, "org_nr": org_nr, "org_nr_schema": schema},
            risk_score=score,
            risk_class=risk_class,
            flag_type_keys=flags.get(company_uuid, []),
        )
        for row_uuid, added, company_uuid, name, org_nr, schema, score, risk_class in memberships
    ]


def company_entries_resolve(*, entries: object) -> list[uuid.UUID]:
    """The register's companies named by an add or replace request's body, a JSON array of
    {org_nr, org_nr_schema}, in the body's order without repeats. A 400 listing every bad
    entry (loc ["body", index, field]) when any is malformed, of an unknown schema or not
    in the register; more than MAX_COMPANIES_PER_REQUEST entries is a 400 before any check."""
    if not isinstance(entries, list):
        raise BadRequest(
            "The body must be a JSON array of {org_nr, org_nr_schema}.",
            code="invalid_request",
            errors=[field_error(["body"], "must be an array")],
        )
    if len(entries) > MAX_COMPANIES_PER_REQUEST:
        raise BadRequest(
            f"Too many companies: {len(entries)} in one request, at most {MAX_COMPANIES_PER_REQUEST}. "
            "Split the list into several requests.",
            code="too_many_companies",
            errors=[field_error(["body"], f"at most {MAX_COMPANIES_PER_REQUEST} entries")],
        )
    errors: list[dict] = []
    wanted: list[tuple[int, str, str]] = []  # (index, schema, compact org nr)
    for index, entry in enumerate(entries):
        parsed = _entry_parse(index, entry, errors)
        if parsed is not None:
            wanted.append((index, *parsed))
    found = _companies_by_org_nr({(schema, org_nr) for _, schema, org_nr in wanted})
    company_uuids: list[uuid.UUID] = []
    for index, schema, org_nr in wanted:
        company_uuid = found.get((schema, org_nr))
        if company_uuid is None:
            errors.append(field_error(["body", index, "org_nr"], f"{schema}{org_nr} is not in the register"))
        else:
            company_uuids.append(company_uuid)
    if errors:
        errors.sort(key=lambda error: error["loc"][1] if len(error["loc"]) > 1 else -1)
        raise BadRequest(
            f"{_entries_with_errors(errors)} of {len(entries)} entries are invalid; nothing was changed.",
            code="invalid_request",
            errors=errors,
        )
    return list(dict.fromkeys(company_uuids))


def _entry_parse(index: int, entry: object, errors: list[dict]) -> tuple[str, str] | None:
    """(schema, compact org nr) of one entry, or None after appending its errors."""
    if not isinstance(entry, dict):
        errors.append(field_error(["body", index], "must be an object {org_nr, org_nr_schema}"))
        return None
    org_nr, schema = entry.get("org_nr"), entry.get("org_nr_schema")
    bad = len(errors)
    if not isinstance(schema, str) or not schema.strip():
        errors.append(field_error(["body", index, "org_nr_schema"], "required: a country schema such as NO"))
    if not isinstance(org_nr, str) or not org_nr.strip():
        errors.append(field_error(["body", index, "org_nr"], "required: the organisation number as a string"))
    if len(errors) > bad:
        return None
    schema = schema.strip().upper()
    try:
        return schema, org_nr_compact(org_nr=org_nr, org_nr_schema=schema)
    except OrgNrInvalid as exc:
        errors.append(field_error(["body", index, exc.field], exc.msg))
        return None


def _companies_by_org_nr(wanted: set[tuple[str, str]]) -> dict[tuple[str, str], uuid.UUID]:
    by_schema: dict[str, list[str]] = {}
    for schema, org_nr in wanted:
        by_schema.setdefault(schema, []).append(org_nr)
    found = {}
    for schema, org_nrs in by_schema.items():
        for start in range(0, len(org_nrs), _LOOKUP_BATCH):
            rows = Company.objects.filter(
                org_nr_schema=schema, org_nr__in=org_nrs[start : start + _LOOKUP_BATCH]
            ).values_list("org_nr", "uuid")
            found.update({(schema, org_nr): company_uuid for org_nr, company_uuid in rows})
    return found


def _entries_with_errors(errors: Sequence[dict]) -> int:
    return len({tuple(error["loc"][:2]) for error in errors})
