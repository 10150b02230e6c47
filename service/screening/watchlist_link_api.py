"""Watchlists attached to a screening config (spec §4.7). Every endpoint needs `aml`."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from service.screening import watchlist_link_services as services
from service.screening.config_api import acting, config_of

router = Router(tags=["Screening setup"])


class WatchlistLinkIn(Schema):
    watchlist_uuid: uuid.UUID
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class WatchlistLinkOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    watchlist_uuid: uuid.UUID
    watchlist_name: str = Field(description="Extension: the watchlist's name")
    create_timestamp: datetime


def link_out(link) -> dict:
    return {
        "uuid": link.uuid,
        "screening_config_uuid": link.screening_config_id,
        "watchlist_uuid": link.watchlist_id,
        "watchlist_name": link.watchlist.watchlist_name,
        "create_timestamp": link.create_timestamp,
    }


@router.post(
    "/screening-config/{screening_config_uuid}/screening-config-watchlist",
    response={201: WatchlistLinkOut},
    summary="Attach a watchlist",
    description=(
        "Its companies, and the persons the config's suggestion setting names for them, get monitorings in the "
        "background: active with `auto_approve_monitoring_flag`, otherwise pending. A watchlist of another "
        "organisation is 404; attaching the same watchlist twice is a 400 naming `watchlist_uuid`."
    ),
)
def watchlist_attach(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: WatchlistLinkIn):
    config = config_of(request, screening_config_uuid)
    watchlist = services.watchlist_of_customer(
        app_customer_uuid=config.app_customer_id, watchlist_uuid=payload.watchlist_uuid, loc=["body", "watchlist_uuid"]
    )
    actor = acting(request, payload.app_membership_uuid)
    return Status(201, link_out(services.config_watchlist_attach(config=config, watchlist=watchlist, actor=actor)))


@router.get(
    "/screening-config/{screening_config_uuid}/screening-config-watchlist",
    response=list[WatchlistLinkOut],
    summary="The attached watchlists",
)
def watchlist_links(request: HttpRequest, screening_config_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    return [link_out(link) for link in services.config_watchlists_list(config=config)]


@router.delete(
    "/screening-config/{screening_config_uuid}/screening-config-watchlist/{screening_config_watchlist_uuid}",
    response={204: None},
    summary="Detach a watchlist",
    description=(
        "The monitorings that came from it (for companies no other attached watchlist holds) are removed in the "
        "background, with the reason. Extension query parameter `app_membership_uuid`: the member who makes the "
        "change, for the audit log."
    ),
)
def watchlist_detach(
    request: HttpRequest,
    screening_config_uuid: uuid.UUID,
    screening_config_watchlist_uuid: uuid.UUID,
    app_membership_uuid: uuid.UUID | None = None,
):
    config = config_of(request, screening_config_uuid)
    link = services.config_watchlist_get(config=config, link_uuid=screening_config_watchlist_uuid)
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    services.config_watchlist_detach(link=link, actor=actor)
    return Status(204, None)
