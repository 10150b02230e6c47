"""Keeps CompanyRiskStatus rows in step with the register booleans on Company.

For bankrupt, under_liquidation and forced_dissolution the booleans on Company
(`is_bankrupt`, ...) are the register's current truth: importers set them from the
register, and `services.company_risk_status_set` sets them together with the rows.
The rows are the history (spec: company_risk_status_history). A boolean that is set
without an active row opens one (from the status date on Company, else today); an
active row whose boolean is cleared is closed today. `liquidated` and `deleted` have no
boolean and are left alone.
"""

from __future__ import annotations

from datetime import date

from service.companies import models as m
from service.companies.analysis.facts import BOOLEAN_STATUSES, CompanyFacts, RiskStatusFact


def risk_statuses_reconcile(*, batch: list[CompanyFacts], today: date) -> int:
    type_uuid = dict(m.CompanyRiskStatusType.objects.filter(key__in=BOOLEAN_STATUSES).values_list("key", "uuid"))
    created: list[m.CompanyRiskStatus] = []
    to_close: list[tuple] = []
    for facts in batch:
        company = facts.company
        for key, (flag_field, date_field) in BOOLEAN_STATUSES.items():
            is_set = getattr(company, flag_field)
            active = [status for status in facts.risk_statuses if status.key == key and status.active]
            if is_set and not active:
                start = getattr(company, date_field) or today
                created.append(
                    m.CompanyRiskStatus(company_id=company.uuid, company_risk_status_type_id=type_uuid[key], from_date=start)
                )
                facts.risk_statuses.append(RiskStatusFact(key, start, None))
            elif not is_set and active:
                to_close.append((company.uuid, type_uuid[key]))
                for status in active:
                    status.to_date = max(today, status.from_date)
    if created:
        m.CompanyRiskStatus.objects.bulk_create(created, batch_size=1000)
    for company_id, type_id in to_close:  # rare: a lifted status
        for status in m.CompanyRiskStatus.objects.filter(
            company_id=company_id, company_risk_status_type_id=type_id, to_date__isnull=True
        ):
            status.to_date = max(today, status.from_date)
            status.save(update_fields=["to_date"])
    return len(created) + len(to_close)
