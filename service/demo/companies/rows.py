"""The rows a demo unit (one company, or a corporate group) adds, per table, as plain dicts."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from service.companies import models as m

# attribute -> model, in an order that satisfies foreign keys
TABLES = {
    "companies": m.Company,
    "persons": m.Person,
    "roles": m.CompanyRole,
    "accounts": m.Accounts,
    "income_statements": m.AccountsIncomeStatement,
    "balance_sheets": m.AccountsBalanceSheet,
    "auditor_notes": m.AccountsAuditorNote,
    "risk_statuses": m.CompanyRiskStatus,
    "collection_cases": m.CollectionCase,
    "payment_remarks": m.PaymentRemark,
    "employment": m.CompanyEmployment,
}


@dataclass
class DemoRows:
    companies: list[dict] = field(default_factory=list)
    persons: list[dict] = field(default_factory=list)
    roles: list[dict] = field(default_factory=list)
    accounts: list[dict] = field(default_factory=list)
    income_statements: list[dict] = field(default_factory=list)
    balance_sheets: list[dict] = field(default_factory=list)
    auditor_notes: list[dict] = field(default_factory=list)
    risk_statuses: list[dict] = field(default_factory=list)
    collection_cases: list[dict] = field(default_factory=list)
    payment_remarks: list[dict] = field(default_factory=list)
    employment: list[dict] = field(default_factory=list)

    def extend(self, other: DemoRows) -> None:
        for table in fields(self):
            getattr(self, table.name).extend(getattr(other, table.name))

    def counts(self) -> dict[str, int]:
        return {table.name: len(getattr(self, table.name)) for table in fields(self)}
