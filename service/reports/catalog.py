"""The partner report types every deployment has, ensured after each migrate (and after a
flush, which the transactional tests do): migration 0002 wrote them first."""

from __future__ import annotations

REPORT_TYPES = {
    "company_profile": ("Company profile: register facts, credit risk with its factors, active flags and key figures", ""),
    "credit_report": ("Credit report: the company profile plus payment remarks and collection cases", "credit_check"),
    "ownership_report": ("Ownership report: roles, ownership through holding chains and beneficial owners", ""),
}


def report_types_ensure() -> None:
    from service.reports.models import PartnerReportType

    for key, (description, role) in REPORT_TYPES.items():
        PartnerReportType.objects.get_or_create(key=key, defaults={"description": description, "required_role_key": role})
