"""Who may remove companies from a watchlist that screening follows.

A screening config that follows a watchlist screens its companies and their owners; removing
companies from it (one, all, by replacing the list, or by deleting it) stops that screening, as
detaching the watchlist does. In the dashboard only admins set screening up, so only they make
those removals; the service itself asks for `aml`, which every role's calls carry.
"""

from __future__ import annotations

from uuid import UUID

from portal.models import Member
from portal.service import ServiceForbidden

FOLLOWED = "Screening follows this watchlist: removing a company from it stops its screening."
REFUSAL = (
    "Screening follows this watchlist: removing companies from it stops their screening, "
    "so only an admin can remove them, replace the list or delete it."
)


def screened_watchlist_uuids(client) -> set[UUID]:
    """The watchlists one of the organisation's screening configs follows."""
    screening = client.screening
    try:
        return {link.watchlist_uuid for config in screening.configs() for link in screening.attached_watchlists(config.uuid)}
    except ServiceForbidden:
        return set()  # no screening for these calls: the service decides (it asks for aml)


def screening_follows(client, watchlist_uuid: UUID) -> bool:
    """Whether one of the organisation's screening configs follows the watchlist."""
    return watchlist_uuid in screened_watchlist_uuids(client)


def removal_refusal(client, member: Member, watchlist_uuid: UUID) -> str | None:
    """Why the member may not remove companies from the watchlist, or None when they may."""
    if member.role == Member.Role.ADMIN:
        return None
    return REFUSAL if screening_follows(client, watchlist_uuid) else None


def screening_note(client, member: Member, watchlist_uuid: UUID) -> str | None:
    """What the watchlist's pages say about screening: the refusal, or to an admin the warning."""
    if not screening_follows(client, watchlist_uuid):
        return None
    return FOLLOWED if member.role == Member.Role.ADMIN else REFUSAL
