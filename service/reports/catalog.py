"""The partner report types every deployment has, ensured after each migrate (and after a
flush, which the transactional tests do): migration 0002 wrote them first.

CONTENT_ROLES is the one rule of which roles change what a type shows: an order keeps the
content roles its caller held (PartnerReportOrder.granted_role_keys), and a report's file is
given only to callers holding those of them its type depends on (services.file_roles_require).
The report type collection publishes it (`content_role_keys`), so the dashboard follows it too.
"""

from __future__ import annotations

REPORT_TYPES = {
    "company_profile": ("Company profile: register facts, credit risk with its factors, active flags and key figures", ""),
    "credit_report": ("Credit report: the company profile plus payment remarks and collection cases", "credit_check"),
    "ownership_report": ("Ownership report: roles, ownership through holding chains and beneficial owners", ""),
}
# Type -> the roles that change what it shows (content.py): with credit_check a company profile's
# score, factors and flags count payment remarks, and a credit report lists them; an ownership
# report shows roles and holdings only, the same to every caller.
CONTENT_ROLES = {
    "company_profile": frozenset({"credit_check"}),
    "credit_report": frozenset({"credit_check"}),
    "ownership_report": frozenset(),
}
ALL_CONTENT_ROLES = frozenset().union(*CONTENT_ROLES.values())


def content_roles_of(report_type_key: str) -> frozenset[str]:
    """The roles that change what a report of this type shows; an unknown type: every content role."""
    return CONTENT_ROLES.get(report_type_key, ALL_CONTENT_ROLES)


def report_types_ensure() -> None:
    from service.reports.models import PartnerReportType

    from service.key_rows import key_rows_ensure

    # Rows already present are left as they are.
    key_rows_ensure(PartnerReportType, {
        key: {"description": description, "required_role_key": role} for key, (description, role) in REPORT_TYPES.items()
    }, update=False)
