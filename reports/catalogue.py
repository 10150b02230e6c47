"""The report types a member may order from the dashboard, and their names."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache

from portal.access import client_for_member
from portal.models import Member
from portal.roles import member_api_role_keys
from portal.service import ServiceError
from portal.service.reports import ReportType

logger = logging.getLogger(__name__)
TYPES_CACHE = "reports:types:v2"
TYPES_SECONDS = 300


@dataclass(frozen=True)
class ReportKind:
    key: str
    label: str


REPORT_KINDS = (
    ReportKind("company_profile", "Company profile"),
    ReportKind("ownership_report", "Ownership report"),
    ReportKind("credit_report", "Credit report"),
)
LABELS = {kind.key: kind.label for kind in REPORT_KINDS}


def report_types(member: Member) -> dict[str, ReportType]:
    """The service's report types by key, with its rules: the role ordering one needs, and the roles
    that change what it shows (a company profile's score counts payment remarks with credit_check,
    an ownership report shows the same to everyone). Read for a few minutes at a time; {} when the
    service does not answer."""
    known = cache.get(TYPES_CACHE)
    if known is None:
        try:
            known = {t.key: t for t in client_for_member(member).reports.types()}
        except ServiceError:
            logger.warning("The report types could not be read; reports made with a role stay hidden from members without it.")
            return {}
        cache.set(TYPES_CACHE, known, TYPES_SECONDS)
    return known


def orderable_kinds(member: Member) -> list[ReportKind]:
    """What the member may order: the types whose required role (the service's) is among the roles sent
    for them. While the service does not answer, every kind is offered: ordering then fails with its
    answer, and nothing is shown that could not be asked for."""
    types = report_types(member)
    if not types:
        return list(REPORT_KINDS)
    roles = set(member_api_role_keys(member))
    return [kind for kind in REPORT_KINDS if kind.key in types and types[kind.key].required_role_key in roles | {""}]


def content_roles_by_type(member: Member) -> dict[str, frozenset[str]]:
    """Report type -> the API roles that change what it shows, as the service's report types say; {} when
    the service does not answer, and a type missing from it counts as depending on every role
    (reports.selectors hides such rows)."""
    return {key: t.content_role_keys for key, t in report_types(member).items() if t.content_role_keys is not None}


def content_role_keys(member: Member, report_type) -> list[str]:
    """The roles sent for the member that change what a report of this type (portal.service ReportType)
    ordered now shows; when the service does not say, every role sent (shown only to members with them all)."""
    roles = set(member_api_role_keys(member))
    return sorted(roles if report_type.content_role_keys is None else roles & report_type.content_role_keys)


def label_of(key: str) -> str:
    return LABELS.get(key, key.replace("_", " ").capitalize())
