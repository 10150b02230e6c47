"""The screening state the dashboard keeps in the cache (case counts, related-company states),
and forgetting it when a member acts.

Keys live under a per-organisation generation number: `forget` moves the organisation to a
new generation, so every key of the old one misses at once, without knowing the keys. Every
dashboard write that changes screening state (a review, a decision, an assignment, a config
change) calls `forget` after the service accepted it, so no page shows a state older than
its reader's own action.

Reading (`case_counts`, `related_companies`): the cached value if present, else fetched from
the service and cached. The periodic task (screening.tasks) and the "Refresh now" button
fetch with `refresh=True`. The key is taken *before* the fetch, so a fetch that overlaps a
`forget` lands in the old generation and is never read: a member's own action always wins.

Whose roles: the values are the organisation's, the same for every member who reads them,
so they are always fetched with the organisation's background client sending `aml` only
(when its API user holds it; without it the service answers 403). Never with a member's
own roles: a value fetched with `credit_check` must not reach a viewer. What is cached
(counts and states) holds no fact behind another role.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from portal.access import client_for_organisation
from portal.service import DashboardClient
from portal.service.cases import CaseCounts, CaseFilters
from portal.service.related import RelatedCompanyState
from portal.service.screening import WatchlistLink

GENERATION_TIMEOUT_SECONDS = 30 * 24 * 3600
SCREENING_ROLE = "aml"
# Names of the cached values; the suffix changes when their shape does, so an old value is a miss.
CASE_COUNTS = "case-counts:v2"
RELATED_COMPANIES = "related-companies:v3"
# Customer persons awaiting approval counted up to this; beyond it the count reads "1,000+".
PENDING_PERSONS_COUNTED = 1000


def _generation_key(organisation_uuid: UUID | str) -> str:
    return f"screening-state:{organisation_uuid}:generation"


def cache_key(*, organisation_uuid: UUID | str, name: str) -> str:
    """The key of one cached value (`name`) of the organisation's current generation."""
    generation = cache.get(_generation_key(organisation_uuid))
    if generation is None:
        generation = time.time_ns()
        cache.add(_generation_key(organisation_uuid), generation, GENERATION_TIMEOUT_SECONDS)
        generation = cache.get(_generation_key(organisation_uuid), generation)
    return f"screening-state:{organisation_uuid}:{generation}:{name}"


def forget(*, organisation_uuid: UUID | str) -> None:
    """Drop every cached screening value of the organisation (a new generation)."""
    cache.set(_generation_key(organisation_uuid), time.time_ns(), GENERATION_TIMEOUT_SECONDS)


# --- the cached values -------------------------------------------------------------------


@dataclass(frozen=True)
class CaseCountsState:
    """The organisation's case counts; `config_uuid` None before screening is set up."""

    config_uuid: UUID | None
    counts: CaseCounts | None
    refreshed_at: datetime


@dataclass(frozen=True)
class RelatedCompaniesState:
    """The organisation's watchlisted companies with their screening state, by name, and how many
    customer persons (who belong to no company) wait for an approval: together, who waits."""

    config_uuid: UUID | None
    watchlists: tuple[WatchlistLink, ...]
    companies: tuple[RelatedCompanyState, ...]
    refreshed_at: datetime
    pending_customer_persons: int = 0
    pending_customer_persons_more: bool = False


def screening_client(organisation) -> DashboardClient:
    """The organisation's background client with the screening role (see the module's docstring)."""
    return client_for_organisation(organisation, role_keys=[SCREENING_ROLE])


def _timeout() -> int:
    # Outlives two periodic refreshes, so with a worker running a page never waits for the service.
    return 2 * settings.VAKT_SCREENING_REFRESH_SECONDS


def _fetch_case_counts(client: DashboardClient) -> CaseCountsState:
    config = client.screening.current_config()
    counts = client.cases.status_counts(config.uuid, CaseFilters()) if config else None
    return CaseCountsState(config_uuid=config.uuid if config else None, counts=counts, refreshed_at=timezone.now())


def _fetch_related(client: DashboardClient) -> RelatedCompaniesState:
    config = client.screening.current_config()
    if config is None:
        return RelatedCompaniesState(config_uuid=None, watchlists=(), companies=(), refreshed_at=timezone.now())
    watchlists, companies, persons = client.gather(
        lambda: client.screening.attached_watchlists(config.uuid),
        lambda: client.related.states(config.uuid),
        lambda: client.screening.monitorings(
            config.uuid, status_key="pending", customer_persons_only=True, limit=PENDING_PERSONS_COUNTED
        ),
    )
    return RelatedCompaniesState(
        config_uuid=config.uuid, watchlists=tuple(watchlists), companies=tuple(companies), refreshed_at=timezone.now(),
        pending_customer_persons=len(persons.rows), pending_customer_persons_more=persons.has_more,
    )


def _read(organisation, name: str, fetch, *, refresh: bool, client: DashboardClient | None):
    key = cache_key(organisation_uuid=organisation.app_customer_uuid, name=name)  # before the fetch: see above
    if not refresh:
        value = cache.get(key)
        if value is not None:
            return value
    value = fetch(client or screening_client(organisation))
    cache.set(key, value, _timeout())
    return value


def case_counts(*, organisation, refresh: bool = False, client: DashboardClient | None = None) -> CaseCountsState:
    """The organisation's case counts: cached, else (or with `refresh`) from the service, then cached."""
    return _read(organisation, CASE_COUNTS, _fetch_case_counts, refresh=refresh, client=client)


def related_companies(
    *, organisation, refresh: bool = False, client: DashboardClient | None = None
) -> RelatedCompaniesState:
    """The organisation's related-company states: cached, else (or with `refresh`) from the service."""
    return _read(organisation, RELATED_COMPANIES, _fetch_related, refresh=refresh, client=client)


def refresh_all(*, organisation) -> tuple[CaseCountsState, RelatedCompaniesState]:
    """Both values fetched now and cached (the task, the "Refresh now" button)."""
    client = screening_client(organisation)
    return (
        case_counts(organisation=organisation, refresh=True, client=client),
        related_companies(organisation=organisation, refresh=True, client=client),
    )
