"""The report types a member may order from the dashboard, and their names."""

from __future__ import annotations

from dataclasses import dataclass

from portal.models import Member
from portal.roles import member_api_role_keys

CREDIT_ROLE = "credit_check"
# The API roles that change what a report shows (the service keeps them on the order and gives the
# file only to a caller granted them): a report made with one is for members whose calls carry it.
CONTENT_ROLES = frozenset({CREDIT_ROLE})


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


def content_role_keys(member: Member) -> list[str]:
    """The roles among those sent for the member that change what a report ordered now shows."""
    return sorted(CONTENT_ROLES & set(member_api_role_keys(member)))


def label_of(key: str) -> str:
    return LABELS.get(key, key.replace("_", " ").capitalize())
