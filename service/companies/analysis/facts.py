"""Everything the analysis reads about a batch of companies, loaded in a fixed number of queries.

`facts_load(company_uuids=...)` returns one `CompanyFacts` per company. The rules in
highlights, measures, flags and credit_risk are plain functions of these facts (and
of `today`), so they can be tested and reasoned about without the database.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from django.utils import timezone

from service.companies import models as m

COMPANY_ACCOUNTS = "annual_company_accounts"
GROUP_ACCOUNTS = "annual_corporate_group_accounts"
# Register statuses mirrored by the booleans on Company (the rest live only as CompanyRiskStatus rows).
BOOLEAN_STATUSES = {
    "bankrupt": ("is_bankrupt", "bankrupt_date"),
    "under_liquidation": ("is_under_liquidation", "under_liquidation_date"),
    "forced_dissolution": ("is_under_forced_dissolution", "forced_dissolution_date"),
}


@dataclass
class RiskStatusFact:
    key: str
    from_date: date
    to_date: date | None

    @property
    def active(self) -> bool:
        return self.to_date is None


@dataclass
class RemarkFact:
    amount: object  # Decimal
    registered_date: date
    currency_code: str


@dataclass
class EmploymentFact:
    employee_count: int
    from_date: date
    to_date: date | None


INCOME_COLUMNS = tuple(
    f.name for f in m.AccountsIncomeStatement._meta.concrete_fields if f.name not in ("uuid", "accounts", "currency_code")
)
BALANCE_COLUMNS = tuple(
    f.name for f in m.AccountsBalanceSheet._meta.concrete_fields if f.name not in ("uuid", "accounts", "currency_code")
)
HIGHLIGHT_COLUMNS = tuple(
    f.name for f in m.AccountsHighlights._meta.concrete_fields if f.name not in ("uuid", "accounts")
)
ACCOUNTS_COLUMNS = (
    "uuid",
    "company_id",
    "accounts_type_id",
    "accounting_year",
    "accounting_announcement_date",
    "accounting_to_date",
    "replaced_by_id",
    "audited_flag",
    "update_timestamp",
)


class Part:
    """A statement or highlights row as plain attributes (no model instance: a million of them add up)."""

    def __init__(self, names: tuple[str, ...], values) -> None:
        self.__dict__.update(zip(names, values))


class AccountsFact:
    """The columns of Accounts the rules read, with its statements (None when not filed)."""

    __slots__ = (*ACCOUNTS_COLUMNS, "income_statement", "balance_sheet", "highlights")

    def __init__(self, row: tuple) -> None:
        for name, value in zip(ACCOUNTS_COLUMNS, row):
            setattr(self, name, value)
        self.income_statement = self.balance_sheet = self.highlights = None


@dataclass
class CompanyFacts:
    company: m.Company
    organization_type_key: str | None
    accounts: list[AccountsFact] = field(default_factory=list)
    accounts_type_key: dict[uuid.UUID, str] = field(default_factory=dict)  # accounts uuid -> type key
    notes: dict[uuid.UUID, list[tuple[str, str]]] = field(default_factory=dict)  # accounts uuid -> [(key, text)]
    risk_statuses: list[RiskStatusFact] = field(default_factory=list)
    unsettled_remarks: list[RemarkFact] = field(default_factory=list)
    employment: list[EmploymentFact] = field(default_factory=list)

    @property
    def uuid(self) -> uuid.UUID:
        return self.company.uuid

    def current_accounts(self, type_key: str = COMPANY_ACCOUNTS) -> dict[int, AccountsFact]:
        """The current (not replaced) accounts of one type per year.

        Two current sets for one year should not happen; when it does the one announced
        last (then the one with the later period end, then the higher uuid) wins.
        """
        chosen: dict[int, m.Accounts] = {}
        for accounts in self.accounts:
            if accounts.replaced_by_id is not None or self.accounts_type_key[accounts.uuid] != type_key:
                continue
            other = chosen.get(accounts.accounting_year)
            if other is None or _recency(accounts) > _recency(other):
                chosen[accounts.accounting_year] = accounts
        return chosen

    def latest_accounts(self, type_key: str = COMPANY_ACCOUNTS) -> AccountsFact | None:
        current = self.current_accounts(type_key)
        return current[max(current)] if current else None

    def active_status_keys(self) -> set[str]:
        return {status.key for status in self.risk_statuses if status.active}


def _recency(accounts: AccountsFact) -> tuple:
    return (
        accounts.accounting_announcement_date or date.min,
        accounts.accounting_to_date or date.min,
        str(accounts.uuid),
    )


def related_or_none(obj, name: str):
    """A reverse one-to-one loaded by select_related, or None when the row is absent."""
    try:
        return getattr(obj, name)
    except Exception:  # RelatedObjectDoesNotExist
        return None


def _keys(model) -> dict[uuid.UUID, str]:
    return dict(model.objects.values_list("uuid", "key"))


def facts_load(
    *, company_uuids: Sequence[uuid.UUID], lock: bool = False, contiguous: bool = False
) -> list[CompanyFacts]:
    """The facts of the given companies (unknown uuids are skipped) in ten queries.

    `contiguous`: the uuids are every company between the first and the last (a
    batch of the full refresh), so the queries filter on that range instead of
    binding a thousand values. With `lock`, the company rows are locked (PostgreSQL)
    for the surrounding transaction, so two refreshes of a company never interleave.
    """
    if not company_uuids:
        return []
    ordered = sorted(company_uuids)

    def scope(field_name: str) -> dict:
        if contiguous:
            return {f"{field_name}__gte": ordered[0], f"{field_name}__lte": ordered[-1]}
        return {f"{field_name}__in": ordered}

    companies_qs = m.Company.objects.filter(**scope("uuid")).order_by("uuid")
    if lock:
        # The company rows alone: a joined organisation type would be the one from before a
        # wait for a register write, not the one the locked row now names.
        companies_qs = companies_qs.select_for_update()
    companies = list(companies_qs)
    if not companies:
        return []
    organization_types = _keys(m.OrganizationType)
    facts = {
        company.uuid: CompanyFacts(company=company, organization_type_key=organization_types.get(company.organization_type_id))
        for company in companies
    }
    accounts_types = _keys(m.AccountsType)
    note_types = _keys(m.AccountsAuditorNoteType)
    status_types = _keys(m.CompanyRiskStatusType)

    columns = (
        *ACCOUNTS_COLUMNS,
        "income_statement__uuid",
        *(f"income_statement__{name}" for name in INCOME_COLUMNS),
        "balance_sheet__uuid",
        *(f"balance_sheet__{name}" for name in BALANCE_COLUMNS),
        "highlights__uuid",
        *(f"highlights__{name}" for name in HIGHLIGHT_COLUMNS),
    )
    a = len(ACCOUNTS_COLUMNS)
    i = a + 1 + len(INCOME_COLUMNS)
    b = i + 1 + len(BALANCE_COLUMNS)
    accounts_by_uuid: dict[uuid.UUID, CompanyFacts] = {}
    for row in m.Accounts.objects.filter(**scope("company_id")).values_list(*columns):
        accounts = AccountsFact(row)
        if row[a] is not None:
            accounts.income_statement = Part(INCOME_COLUMNS, row[a + 1 : i])
        if row[i] is not None:
            accounts.balance_sheet = Part(BALANCE_COLUMNS, row[i + 1 : b])
        if row[b] is not None:
            accounts.highlights = Part(HIGHLIGHT_COLUMNS, row[b + 1 :])
        fact = facts.get(accounts.company_id)
        if fact is None:  # created after the companies were read
            continue
        fact.accounts.append(accounts)
        fact.accounts_type_key[accounts.uuid] = accounts_types[accounts.accounts_type_id]
        accounts_by_uuid[accounts.uuid] = fact

    for accounts_id, type_id, text in m.AccountsAuditorNote.objects.filter(
        **scope("accounts__company_id")
    ).values_list("accounts_id", "accounts_auditor_note_type_id", "auditor_note"):
        if accounts_id in accounts_by_uuid:
            accounts_by_uuid[accounts_id].notes.setdefault(accounts_id, []).append((note_types[type_id], text))

    for company_id, type_id, from_date, to_date in m.CompanyRiskStatus.objects.filter(
        **scope("company_id")
    ).values_list("company_id", "company_risk_status_type_id", "from_date", "to_date"):
        if company_id in facts:
            facts[company_id].risk_statuses.append(RiskStatusFact(status_types[type_id], from_date, to_date))

    for company_id, amount, registered, currency in m.PaymentRemark.objects.filter(
        settled_date__isnull=True, **scope("company_id")
    ).values_list("company_id", "amount", "registered_date", "currency_code"):
        if company_id in facts:
            facts[company_id].unsettled_remarks.append(RemarkFact(amount, registered, currency))

    employment: dict[uuid.UUID, list[EmploymentFact]] = defaultdict(list)
    for company_id, count, from_dt, to_dt in m.CompanyEmployment.objects.filter(**scope("company_id")).values_list(
        "company_id", "employee_count", "from_date", "to_date"
    ):
        employment[company_id].append(EmploymentFact(count, _as_date(from_dt), _as_date(to_dt)))
    for company_id, rows in employment.items():
        if company_id in facts:
            facts[company_id].employment = sorted(rows, key=lambda row: row.from_date)

    return [facts[company.uuid] for company in companies]


def _as_date(value) -> date | None:
    if value is None:
        return None
    if hasattr(value, "tzinfo") and value.tzinfo is not None:
        return timezone.localtime(value).date()
    return value.date() if hasattr(value, "date") else value
