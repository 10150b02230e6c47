"""Watchlist endpoints: spec §4.5 (a watchlist's companies) and the extension endpoints
DESIGN.md names (create, list, rename, delete). Another organisation's watchlist is 404
in every operation.

Every write takes the extension query parameter `app_membership_uuid` (the member who makes
the change, an active member of the organisation), recorded in the audit log with the API user.

The add body is read here rather than by ninja so that every check, from the JSON's shape
to the register lookup, reports in one list with the locations ["body", <index>, <field>].
"""

from __future__ import annotations

import uuid

import orjson
from django.http import HttpRequest
from ninja import Router, Status

from service.audit.services import Actor, actor_of
from service.auth.principal import principal_of
from service.auth.selectors import acting_membership_get
from service.json_response import json_response  # orjson with ninja's formats, no second pydantic pass
from service.companies.register.selectors import company_by_identifier
from service.errors import BadRequest, field_error
from service.watchlists import schemas as s
from service.watchlists import selectors, services

router = Router(tags=["Watchlists"])

EXTENSION = {"x-vakt-extension": True}
REMOVAL_NEEDS_AML = (
    "On a watchlist a screening config follows, removing companies stops their screening, so it needs "
    "`aml` (403 `role_missing` otherwise), as detaching the watchlist does."
)


def _actor(request: HttpRequest) -> Actor:
    """The audit actor of a write: the API user, and the active member named by the extension query
    parameter `app_membership_uuid` (the dashboard names its user; the add body is a bare list)."""
    raw = request.GET.get("app_membership_uuid")
    loc = ["query", "app_membership_uuid"]
    membership_uuid = None
    if raw:
        try:
            membership_uuid = uuid.UUID(raw)
        except ValueError:
            raise BadRequest("Invalid value for app_membership_uuid: must be a uuid", code="invalid_parameter", errors=[field_error(loc, "must be a uuid")]) from None
    membership = acting_membership_get(
        app_customer_uuid=principal_of(request).app_customer_uuid, membership_uuid=membership_uuid, loc=loc
    )
    return actor_of(request, membership)


def _watchlist(request: HttpRequest, watchlist_uuid: uuid.UUID, *, with_count: bool = False):
    return selectors.watchlist_get(
        app_customer_uuid=principal_of(request).app_customer_uuid, watchlist_uuid=watchlist_uuid, with_count=with_count
    )


def _removable_watchlist(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _watchlist(request, watchlist_uuid)
    services.watchlist_removal_allow(watchlist=watchlist, granted_roles=principal_of(request).granted_roles)
    return watchlist


@router.get(
    "/app-customer/{app_customer_uuid}/watchlist",
    response=list[s.WatchlistOut],
    summary="Extension: the organisation's watchlists",
    description="Sorted by name, each with its company count.",
    openapi_extra=EXTENSION,
)
def watchlist_list(request: HttpRequest, app_customer_uuid: uuid.UUID):
    customer = principal_of(request).own_app_customer(app_customer_uuid)
    return [s.watchlist_out(w) for w in selectors.watchlists_list(app_customer_uuid=customer)]


@router.post(
    "/app-customer/{app_customer_uuid}/watchlist",
    response={201: s.WatchlistOut},
    summary="Extension: create a watchlist",
    openapi_extra=EXTENSION,
)
def watchlist_create(request: HttpRequest, app_customer_uuid: uuid.UUID, payload: s.WatchlistIn):
    customer = principal_of(request).own_app_customer(app_customer_uuid)
    watchlist = services.watchlist_create(app_customer_uuid=customer, watchlist_name=payload.watchlist_name, actor=_actor(request))
    return Status(201, s.watchlist_out(watchlist))


@router.get(
    "/watchlist/{watchlist_uuid}",
    response=s.WatchlistOut,
    summary="Extension: one watchlist",
    openapi_extra=EXTENSION,
)
def watchlist_detail(request: HttpRequest, watchlist_uuid: uuid.UUID):
    return s.watchlist_out(_watchlist(request, watchlist_uuid, with_count=True))


@router.patch(
    "/watchlist/{watchlist_uuid}",
    response=s.WatchlistOut,
    summary="Extension: rename a watchlist",
    openapi_extra=EXTENSION,
)
def watchlist_rename(request: HttpRequest, watchlist_uuid: uuid.UUID, payload: s.WatchlistIn):
    watchlist = _watchlist(request, watchlist_uuid, with_count=True)
    return s.watchlist_out(services.watchlist_rename(watchlist=watchlist, watchlist_name=payload.watchlist_name, actor=_actor(request)))


@router.delete(
    "/watchlist/{watchlist_uuid}",
    response={204: None},
    summary="Extension: delete a watchlist",
    description=(
        "Deletes the watchlist and its memberships (not the companies). Irreversible. " + REMOVAL_NEEDS_AML
    ),
    openapi_extra=EXTENSION,
)
def watchlist_delete(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _removable_watchlist(request, watchlist_uuid)
    services.watchlist_delete(watchlist=watchlist, actor=_actor(request))
    return Status(204, None)


@router.get(
    "/watchlist/{watchlist_uuid}/company",
    response=list[s.WatchlistCompanyOut],
    summary="List the companies in a watchlist",
    description=(
        "Every company by name, with its credit risk class and score and its active flag keys. Flag types "
        "that need a role (payment_remarks: `credit_check`) are listed only when the role is granted; without "
        "`credit_check` the score and class are computed without the payment-remark factors."
    ),
)
def watchlist_companies(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _watchlist(request, watchlist_uuid)
    rows = selectors.watchlist_companies_list(watchlist=watchlist, granted_roles=principal_of(request).granted_roles)
    # Written directly: validating 10,000 composites again with pydantic took ~1 s (the
    # test holds the answer against the declared schema).
    return json_response([s.watchlist_company_out(row) for row in rows])


COMPANIES_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "array",
                    "maxItems": selectors.MAX_COMPANIES_PER_REQUEST,
                    "items": s.WatchlistCompanyIn.model_json_schema(),
                }
            }
        },
    }
}


def _entries(request: HttpRequest) -> object:
    """The add or replace body as JSON; its shape is checked with the entries (selectors)."""
    try:
        return orjson.loads(request.body)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(f"The body is not valid JSON: {exc}", code="invalid_request", errors=[field_error(["body"], "invalid JSON")]) from None


@router.post(
    "/watchlist/{watchlist_uuid}/company",
    response=s.AddCompaniesOut,
    summary="Add companies to a watchlist",
    description=s.ADD_BODY_DOC + " Companies already on the watchlist are ignored (idempotent).",
    openapi_extra=COMPANIES_BODY,
)
def watchlist_companies_add(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _watchlist(request, watchlist_uuid)
    result = services.watchlist_add_companies(watchlist=watchlist, entries=_entries(request), actor=_actor(request))
    return {"added_count": result.added_count, "ignored_count": result.ignored_count, "company_count": result.company_count}


@router.put(
    "/watchlist/{watchlist_uuid}/company",
    response=s.ReplaceCompaniesOut,
    summary="Extension: replace a watchlist's companies",
    description=(
        "Makes the watchlist hold exactly the companies of the body, in one transaction: the companies not "
        "named are removed, the new ones added, those named and already there kept. The body is the add's: "
        + s.ADD_BODY_DOC
        + " An empty array empties the watchlist. When it removes companies from a watchlist a screening "
        "config follows, it needs `aml` (403 `role_missing` otherwise, nothing changed), as the removals do; "
        "a replace that only adds needs no role. Screening hears of every company added and removed at once."
    ),
    openapi_extra={**COMPANIES_BODY, **EXTENSION},
)
def watchlist_companies_replace(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _watchlist(request, watchlist_uuid)
    result = services.watchlist_replace_companies(
        watchlist=watchlist,
        entries=_entries(request),
        granted_roles=principal_of(request).granted_roles,
        actor=_actor(request),
    )
    return {
        "added_count": result.added_count,
        "removed_count": result.removed_count,
        "kept_count": result.kept_count,
        "company_count": result.company_count,
    }


@router.delete(
    "/watchlist/{watchlist_uuid}/company",
    response=s.RemovedOut,
    summary="Remove all companies from a watchlist",
    description=(
        "Irreversible. To replace a watchlist's content in one step: PUT the new list (extension). " + REMOVAL_NEEDS_AML
    ),
)
def watchlist_companies_remove(request: HttpRequest, watchlist_uuid: uuid.UUID):
    watchlist = _removable_watchlist(request, watchlist_uuid)
    return {"removed_count": services.watchlist_remove_companies(watchlist=watchlist, actor=_actor(request))}


@router.delete(
    "/watchlist/{watchlist_uuid}/company/{company_identifier}",
    response={204: None},
    summary="Extension: remove one company from a watchlist",
    description=(
        "`company_identifier`: a company uuid or a schema-prefixed org nr (NO913748174). 404 when not on the "
        "watchlist. " + REMOVAL_NEEDS_AML
    ),
    openapi_extra=EXTENSION,
)
def watchlist_company_remove(request: HttpRequest, watchlist_uuid: uuid.UUID, company_identifier: str):
    watchlist = _removable_watchlist(request, watchlist_uuid)
    company = company_by_identifier(identifier=company_identifier)
    services.watchlist_remove_company(watchlist=watchlist, company_uuid=company.uuid, actor=_actor(request))
    return Status(204, None)
