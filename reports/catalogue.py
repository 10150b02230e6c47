"""The report types a member may order from the dashboard, and their names."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache

from portal.access import client_for_member
from portal.models import Member
from portal.roles import member_api_role_keys
from portal.service import ServiceError

logger = logging.getLogger(__name__)
CREDIT_ROLE = "credit_check"
CONTENT_ROLES_CACHE = "reports:content-roles:v1"
CONTENT_ROLES_SECONDS = 300


@dataclass(frozen=True)
class ReportKind:
    key: str
    label: str
    needs_role: str | None = None


REPORT_KINDS = (
    ReportKind("company_profile", "Company profile"),
    ReportKind("ownership_report", "Ownership report"),
    ReportKind("credit_report", "Credit report", needs_role=CREDIT_ROLE),
)
LABELS = {kind.key: kind.label for kind in REPORT_KINDS}


def orderable_kinds(member: Member) -> list[ReportKind]:
    """What the member may order: a credit report only when the roles sent for them include credit_check."""
    roles = set(member_api_role_keys(member))
    return [kind for kind in REPORT_KINDS if kind.needs_role is None or kind.needs_role in roles]


def content_roles_by_type(member: Member) -> dict[str, frozenset[str]]:
    """Report type -> the API roles that change what it shows, as the service's report types say (its one
    rule: a company profile's score counts payment remarks with credit_check, an ownership report shows
    the same to everyone). Read for a few minutes at a time; {} when the service does not answer, and a
    type missing from it counts as depending on every role (reports.selectors hides such rows)."""
    known = cache.get(CONTENT_ROLES_CACHE)
    if known is None:
        try:
            types = client_for_member(member).reports.types()
        except ServiceError:
            logger.warning("The report types could not be read; reports made with a role stay hidden from members without it.")
            return {}
        known = {t.key: t.content_role_keys for t in types if t.content_role_keys is not None}
        cache.set(CONTENT_ROLES_CACHE, known, CONTENT_ROLES_SECONDS)
    return known


def content_role_keys(member: Member, report_type) -> list[str]:
    """The roles sent for the member that change what a report of this type (portal.service ReportType)
    ordered now shows; when the service does not say, every role sent (shown only to members with them all)."""
    roles = set(member_api_role_keys(member))
    return sorted(roles if report_type.content_role_keys is None else roles & report_type.content_role_keys)


def label_of(key: str) -> str:
    return LABELS.get(key, key.replace("_", " ").capitalize())
