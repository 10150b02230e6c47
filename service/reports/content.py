"""What a report says: the company's data gathered through the companies app's own selectors.

Nothing here recomputes the analysis: the risk score, its factors and the flags are
read as the API serves them, with the roles the caller held when ordering. Without
`credit_check` a report shows no payment remarks, no remark factors and no remark flag,
and its score and class are the public ones, computed without the remark factors.
The PDF producer (producers/pdf.py) only lays this out.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from service.companies import models as cm
from service.companies import ownership
from service.companies.analysis import selectors as analysis
from service.companies.register import selectors as register
from service.companies.register.schemas.collection_cases import payment_remark_out
from service.companies.register.schemas.company import company_out
from vakt_format import norwegian

KEY_FIGURE_YEARS = 5
MAX_CHAIN_DEPTH = 6
ROLE_ORDER = ("board_chair", "ceo", "board_member", "deputy_board_member", "signature_right", "procuration",
              "shareholder", "auditor")


@dataclass(frozen=True)
class YearFigures:
    year: int
    total_operating_income: Decimal | None
    operating_result: Decimal | None
    annual_result: Decimal | None
    total_assets: Decimal | None
    total_equity: Decimal | None
    equity_ratio: Decimal | None
    return_on_assets: Decimal | None
    operating_margin: Decimal | None


@dataclass(frozen=True)
class OwnershipLink:
    """A shareholder of a company in the chain above the reported one."""

    depth: int  # 1: owns the reported company directly
    holder_name: str
    holder_kind: str  # person | company
    holder_org_nr: str
    owned_name: str
    share: Decimal | None  # fraction 0..1 of `owned`
    effective_share: Decimal | None  # product along the chain down to the reported company


@dataclass(frozen=True)
class BeneficialOwnerRow:
    full_name: str
    effective_share: Decimal | None
    chains: list[str]


@dataclass(frozen=True)
class BeneficialOwners:
    heading: str
    note: str
    owners: list[BeneficialOwnerRow]


@dataclass
class ReportContent:
    report_uuid: uuid.UUID
    report_type_key: str
    ordered_by: str
    ordered_at: datetime
    company: dict  # schemas.company_out
    with_credit_check: bool
    credit_risk: dict | None = None  # {risk_score, risk_class, model_version, computed_at, factors: [...]}
    flags: list[dict] = field(default_factory=list)  # {key, description, flag_date, context}
    key_figures: list[YearFigures] = field(default_factory=list)  # oldest year first
    payment_remarks: list[dict] | None = None
    collection_cases: list[dict] | None = None
    roles: list[dict] = field(default_factory=list)  # {role, description, holder, share, from_date}
    ownership: list[OwnershipLink] = field(default_factory=list)
    beneficial_owners: BeneficialOwners | None = None


def report_content_gather(
    *, company: cm.Company, report_type_key: str, granted_roles: frozenset[str], ordered_by: str,
    ordered_at: datetime, report_uuid: uuid.UUID,
) -> ReportContent:
    identifier = str(company.uuid)
    with_credit = "credit_check" in granted_roles
    content = ReportContent(
        report_uuid=report_uuid,
        report_type_key=report_type_key,
        ordered_by=ordered_by,
        ordered_at=ordered_at,
        company=company_out(register.company_detail_get(identifier=identifier)),
        with_credit_check=with_credit,
    )
    if report_type_key in ("company_profile", "credit_report"):
        view = analysis.company_credit_risk_get(identifier=identifier, granted_roles=granted_roles)
        content.credit_risk = _credit_risk(view)
        content.flags = _flags(identifier, granted_roles)
        content.key_figures = _key_figures(identifier)
        if report_type_key == "credit_report" and with_credit:
            content.payment_remarks = [payment_remark_out(remark) for remark in view.payment_remarks or ()]
            _, cases = register.collection_cases_list(debtor_identifier=identifier)
            content.collection_cases = [_case(case) for case in cases]
    if report_type_key == "ownership_report":
        # One day and one reading of the links for the whole report, so a report produced
        # across midnight cannot disagree with itself.
        as_of = timezone.localdate()
        links = ownership.ownership_links_load(company=company, as_of=as_of)
        content.roles = _roles(company, as_of)
        content.ownership = ownership_chains(company, links)
        content.beneficial_owners = _beneficial_owners_for(company, links)
    return content


def _credit_risk(view) -> dict | None:
    """The score and factors the ordering caller may see (the selector leaves out the rest and
    gives the score computed without them)."""
    risk = view.credit_risk
    if risk is None:
        return None
    factors = [{"key": key, **factor} for key, factor in view.factors.items()]
    return {
        "risk_score": risk.risk_score,
        "risk_class": risk.risk_class,
        "model_version": risk.model_version,
        "computed_at": risk.computed_at,
        "factors": factors,
    }


def _flags(identifier: str, granted_roles: frozenset[str]) -> list[dict]:
    _, flags = analysis.company_flags_active(identifier=identifier, granted_roles=granted_roles)
    return [
        {"key": active.flag_type.key, "description": active.flag_type.description,
         "flag_date": active.flag.flag_date, "context": active.flag.flag_context or {}}
        for active in flags
        if not active.flag_type.app_hidden_flag
    ]


def _key_figures(identifier: str) -> list[YearFigures]:
    accounts_type = register.accounts_type_resolve(identifier="annual_company_accounts")
    _, sets = register.company_accounts_list(identifier=identifier, accounting_years=None, accounts_type=accounts_type)
    current = {}
    for accounts_set in sets:  # newest year first; the current set of a year is the one not replaced
        year = accounts_set.accounts.accounting_year
        if accounts_set.accounts.replaced_by_id is None and year not in current:
            current[year] = accounts_set
    return [_year_figures(year, current[year]) for year in sorted(current)[-KEY_FIGURE_YEARS:]]


def _year_figures(year: int, accounts_set: register.AccountsSet) -> YearFigures:
    def value(part, name: str):
        return None if part is None else getattr(part, name)

    income, balance, highlights = accounts_set.income_statement, accounts_set.balance_sheet, accounts_set.highlights
    return YearFigures(
        year=year,
        total_operating_income=value(income, "total_operating_income"),
        operating_result=value(income, "operating_result"),
        annual_result=value(income, "annual_result"),
        total_assets=value(balance, "total_assets"),
        total_equity=value(balance, "total_equity"),
        equity_ratio=value(highlights, "equity_ratio"),
        return_on_assets=value(highlights, "return_on_assets"),
        operating_margin=value(highlights, "operating_margin"),
    )


def _case(case: cm.CollectionCase) -> dict:
    return {
        "creditor_name": case.creditor_name,
        "case_reference": case.case_reference,
        "amount": case.amount,
        "currency_code": case.currency_code,
        "opened_date": case.opened_date,
        "closed_date": case.closed_date,
        "status": case.status,
    }


def _roles(company: cm.Company, as_of: date) -> list[dict]:
    _, roles = register.company_roles_list(identifier=str(company.uuid))
    out = []
    for role in sorted(roles, key=lambda r: (ROLE_ORDER.index(r.company_role_type.key) if r.company_role_type.key in ROLE_ORDER else 99, -(r.share_percentage or 0))):
        if not role.current_on(as_of):
            continue
        holder = role.holder_person or role.holder_company
        out.append(
            {
                "role": role.company_role_type.key,
                "description": role.company_role_type.description,
                "holder": holder.full_name if role.holder_person else holder.name,
                "holder_org_nr": "" if role.holder_person else holder.org_nr,
                "share": _fraction(role.share_percentage),
                "from_date": role.from_date,
            }
        )
    return out


def _fraction(percentage) -> Decimal | None:
    return None if percentage is None else Decimal(percentage) / 100


def ownership_chains(company: cm.Company, links: list[ownership.OwnershipLink]) -> list[OwnershipLink]:
    """The shareholders above the company, depth first, each with its share along the chain.

    A presentation of the links `service.companies.ownership` loads (the one reading of the
    register's current shareholder roles); cycles cut, depth capped."""
    owners_of: dict[uuid.UUID, list[ownership.OwnershipLink]] = defaultdict(list)
    for link in links:
        owners_of[link.company_uuid].append(link)
    holder_companies = {link.holder_uuid for link in links if link.holder_kind == "company"}
    org_nrs = dict(cm.Company.objects.filter(uuid__in=holder_companies).values_list("uuid", "org_nr"))
    rows: list[OwnershipLink] = []

    def walk(owned: uuid.UUID, depth: int, carried: Decimal, seen: frozenset) -> None:
        if depth > MAX_CHAIN_DEPTH:
            return
        for link in sorted(owners_of.get(owned, ()), key=lambda l: (-l.share, str(l.holder_uuid))):
            effective = carried * link.share
            org_nr = org_nrs.get(link.holder_uuid, "")
            rows.append(
                OwnershipLink(depth, link.holder_name, link.holder_kind, org_nr, link.company_name, link.share, effective)
            )
            if link.holder_kind == "company" and link.holder_uuid not in seen:
                walk(link.holder_uuid, depth + 1, effective, seen | {link.holder_uuid})

    walk(company.uuid, 1, Decimal(1), frozenset({company.uuid}))
    return rows


def _beneficial_owners_for(company: cm.Company, links: list[ownership.OwnershipLink]) -> BeneficialOwners:
    owners = ownership.beneficial_owners_in_graph(links, company.uuid)
    return BeneficialOwners(
        heading="Beneficial owners",
        note=(
            "Natural persons owning at least 25 % through every link of a chain, with their share "
            "summed over every chain."
        ),
        owners=[
            BeneficialOwnerRow(owner.full_name, owner.effective_share, [_chain_text(chain) for chain in owner.chains])
            for owner in owners
        ],
    )


def _chain_text(chain: ownership.OwnershipChain) -> str:
    """A chain as the officer reads it: "Kari Nordmann > Holding AS (62,0 %) > Target AS (50,0 %)"."""
    parts = [chain[0].holder_name] if chain else []
    parts += [f"{link.company_name} ({norwegian.percent(link.share)})" for link in chain]
    return " > ".join(parts)
