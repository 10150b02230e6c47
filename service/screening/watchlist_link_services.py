"""Attaching and detaching watchlists (spec §4.7). Both only write the link; the monitorings
follow in the background (`subscription.companies_sync_on_commit`), after commit.

A watchlist is attached at most once per config: again is a 400 naming `watchlist_uuid`.
Detaching removes the watchlist-derived monitorings of companies no other attached
watchlist holds, with a reason.
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from service.audit.services import Actor, audit_record
from service.errors import bad_field
from service.screening.access import found, not_found
from service.screening.models import ScreeningConfig, ScreeningConfigWatchlist
from service.screening.subscription import companies_sync_on_commit
from service.watchlists.models import Watchlist, WatchlistCompany


def watchlist_of_customer(*, app_customer_uuid: uuid.UUID, watchlist_uuid: uuid.UUID, loc: list) -> Watchlist:
    return found(
        Watchlist.objects.filter(uuid=watchlist_uuid, app_customer_id=app_customer_uuid), "watchlist", watchlist_uuid, loc
    )


def _company_uuids(watchlist_id) -> list[uuid.UUID]:
    return list(WatchlistCompany.objects.filter(watchlist_id=watchlist_id).values_list("company_id", flat=True))


def _audit(config: ScreeningConfig, actor: Actor | None, action: str, watchlist: Watchlist, attached: bool) -> None:
    state = {"watchlist_uuid": watchlist.uuid, "watchlist_name": watchlist.watchlist_name}
    audit_record(
        app_customer_uuid=config.app_customer_id,
        actor=actor,
        action=action,
        object_type="screening_config",
        object_uuid=config.uuid,
        object_label="Screening setup",
        before=None if attached else state,
        after=state if attached else None,
    )


def config_watchlist_attach(
    *, config: ScreeningConfig, watchlist: Watchlist, actor: Actor | None = None
) -> ScreeningConfigWatchlist:
    twice = bad_field(["body", "watchlist_uuid"], "this watchlist is already attached to the screening config", code="already_attached")
    if ScreeningConfigWatchlist.objects.filter(screening_config=config, watchlist=watchlist).exists():
        raise twice
    try:
        with transaction.atomic():
            link = ScreeningConfigWatchlist.objects.create(screening_config=config, watchlist=watchlist)
            _audit(config, actor, "screening_config.watchlist_attach", watchlist, attached=True)
            companies_sync_on_commit(config_uuid=config.uuid, company_uuids=_company_uuids(watchlist.uuid))
    except IntegrityError:
        raise twice from None
    return link


def config_watchlist_detach(*, link: ScreeningConfigWatchlist, actor: Actor | None = None) -> None:
    with transaction.atomic():
        _audit(link.screening_config, actor, "screening_config.watchlist_detach", link.watchlist, attached=False)
        companies = _company_uuids(link.watchlist_id)
        config_uuid = link.screening_config_id
        link.delete()
        companies_sync_on_commit(config_uuid=config_uuid, company_uuids=companies)


def config_watchlists_list(*, config: ScreeningConfig):
    return ScreeningConfigWatchlist.objects.filter(screening_config=config).select_related("watchlist").order_by(
        "watchlist__watchlist_name", "uuid"
    )


def config_watchlist_get(*, config: ScreeningConfig, link_uuid: uuid.UUID) -> ScreeningConfigWatchlist:
    link = config_watchlists_list(config=config).filter(uuid=link_uuid).first()
    if link is None:
        raise not_found("screening config watchlist", link_uuid)
    return link
