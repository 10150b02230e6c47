"""Demo units: a single company, a corporate group (owners -> holding AS -> operating companies),
or a longer chain (owners -> holding -> sub-holding -> operating), with everything around them.

Ownership is what makes beneficial owners: persons own the top company (a split that
usually leaves someone at 25% or more) and companies own the ones below, so the
persons own the operating companies indirectly.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from decimal import Decimal

from service.demo.companies.accounts import (
    AUDIT_EXEMPT_REVENUE,
    CompanyAccounts,
    accounts_years,
    figures_changed,
    group_figures,
    holding_accounts,
    operating_accounts,
)
from service.demo.companies.events import collection_add, employment_add, employment_history_add, statuses_add
from service.demo.companies.industries import HOLDING, industry_of, is_holding
from service.demo.companies.people import management_add, owners_add, person_add, role_add
from service.demo.companies.randomness import DemoRandom
from service.demo.companies.references import DemoReferences
from service.demo.companies.rows import DemoRows

UNIT_KINDS = {"single": 82, "group": 14, "chain": 4}
FILING_TYPES = {"AS", "ASA", "SA", "NUF", "BRL"}  # forms that file annual accounts
OWNED_BY_PERSONS = {"AS", "ASA", "ENK", "DA", "ANS"}
HOLDING_NACE = "64.201"
AUDITOR_NOTES = {"unqualified_opinion": 95, "emphasis_of_matter": 3, "qualified_opinion": 2}


class DemoBuilder:
    def __init__(self, r: DemoRandom, refs: DemoReferences, *, today: date) -> None:
        self.r = r
        self.refs = refs
        self.today = today
        self.form_of = {pk: code for code, pk in refs.organization_types.items()}
        self.holding_nace = next(
            (item for items in refs.nace.values() for item in items if item[1] == HOLDING_NACE), None
        )

    def unit(self, org_numbers: Iterator[str], *, room: int) -> DemoRows:
        """One unit of at most `room` companies, its org numbers drawn from `org_numbers`."""
        rows = DemoRows()
        self.industry_of = {}
        kind = self.r.weighted(UNIT_KINDS) if room >= 3 else "single"
        if kind == "single":
            company = self._company(rows, next(org_numbers), self.r.weighted(self.refs.organization_type_weights))
            self._people(rows, company)
            self._accounts(rows, company)
            return rows
        top = self._company(rows, next(org_numbers), "ASA" if self.r.chance(0.05) else "AS", holding=True)
        owners_of_top = owners_add(self.r, rows, company=top, role_types=self.refs.types["role"], today=self.today)
        management_add(self.r, rows, company=top, role_types=self.refs.types["role"], today=self.today, chair=owners_of_top[0], board_size=self.r.rng.randint(0, 2))
        parents = [top]
        if kind == "chain":
            middle = self._company(rows, next(org_numbers), "AS", holding=True)
            self._owned(rows, middle, parent=top, share=Decimal(100), chair=owners_of_top[0])
            parents.append(middle)
        # The group files together: the members' years are the parent's (from their founding, until a stop).
        group_years = accounts_years(self.r, today=self.today, founded=top["founded_date"], stopped=_stopped(top))
        held: list[tuple[float, CompanyAccounts]] = []
        for _ in range(min(self.r.rng.randint(1, 4), room - len(parents))):
            subsidiary = self._company(rows, next(org_numbers), "AS")
            share = Decimal(100) if self.r.chance(0.7) else Decimal(self.r.rng.randint(51, 90))
            self._owned(rows, subsidiary, parent=parents[-1], share=share, chair=owners_of_top[0])
            held.append((float(share) / 100, self._accounts(rows, subsidiary, years=_years_of(subsidiary, group_years))))
        members = [accounts for _, accounts in held]
        for parent in reversed(parents):  # the sub-holding first: its dividends are the top's income
            accounts = self._holding_accounts(rows, parent, years=_years_of(parent, group_years), held=held)
            members.insert(0, accounts)
            held = [(1.0, accounts)]
        self._group_accounts(rows, top, members)
        return rows

    # --- companies ----------------------------------------------------------------------------

    def _company(self, rows: DemoRows, org_nr: str, form: str, *, holding: bool = False) -> dict:
        r, refs = self.r, self.refs
        if holding and self.holding_nace:
            section, nace = "K", self.holding_nace
        else:
            section = r.weighted(refs.section_weights)
            nace = r.pick(refs.nace[section])
        holding = holding or is_holding(nace[1])
        self.industry_of[org_nr] = industry_of(nace[1], section)
        municipality, municipality_code, municipality_name = r.rng.choices(refs.municipalities, weights=refs.municipality_weights)[0]
        postal = r.pick(refs.postal_codes[municipality]) if municipality in refs.postal_codes else None
        founded = self.today - timedelta(days=int(min(45 * 365, 365 + r.rng.expovariate(1 / (9 * 365)))))
        company = {
            "uuid": r.uuid(),
            "org_nr_schema": "NO",
            "org_nr": org_nr,
            "name": r.company_name("" if form in ("ENK", "FLI", "STI", "BRL") else form, "K" if holding else section),
            "organization_type_id": refs.organization_types.get(form),
            "nace_code_1_id": nace[0],
            "nace_code_2_id": None,
            "nace_code_3_id": None,
            "business_address": r.street_address(),
            "business_postal_code_id": postal[0] if postal else None,
            "business_municipality_id": municipality,
            "business_country_id": refs.norway,
            "postal_address": f"Postboks {r.rng.randint(1, 9999)}" if r.chance(0.2) else "",
            "postal_postal_code_id": None,
            "postal_municipality_id": None,
            "postal_country_id": None,
            "website": f"www.{org_nr}.example.no" if r.chance(0.2) else "",
            "employees": 0 if holding else self._employees(form),
            "registration_date": founded + timedelta(days=r.rng.randint(0, 60)),
            "founded_date": founded,
            "last_submitted_accounts_year": None,
            "parent_org_nr": "",
            "is_bankrupt": False,
            "bankrupt_date": None,
            "is_under_liquidation": False,
            "under_liquidation_date": None,
            "is_under_forced_dissolution": False,
            "forced_dissolution_date": None,
            "create_timestamp": r.now,
            "update_timestamp": r.now,
        }
        rows.companies.append(company)
        statuses_add(r, rows, company=company, risk_types=refs.types["risk_status"], today=self.today)
        return company

    def _employees(self, form: str) -> int:
        r = self.r
        if form == "ASA":
            return max(20, r.lognormal_int(400, 1.2))
        if form in ("AS", "SA", "NUF"):
            return 0 if r.chance(0.35) else max(1, r.lognormal_int(6, 1.3))
        if form in ("ENK", "DA", "ANS"):
            return 0 if r.chance(0.7) else r.rng.randint(1, 4)
        return 0 if r.chance(0.8) else r.rng.randint(1, 10)

    # --- people ---------------------------------------------------------------------------------

    def _people(self, rows: DemoRows, company: dict) -> None:
        r, role_types = self.r, self.refs.types["role"]
        form = self.form_of.get(company["organization_type_id"], "")
        owners = owners_add(r, rows, company=company, role_types=role_types, today=self.today) if form in OWNED_BY_PERSONS else []
        if form == "ENK":
            return  # the proprietor owns and runs it; no board
        board = r.rng.randint(3, 6) if form == "ASA" else r.rng.randint(0, 3)
        management_add(r, rows, company=company, role_types=role_types, today=self.today, chair=owners[0] if owners else None, board_size=board)

    def _owned(self, rows: DemoRows, company: dict, *, parent: dict, share: Decimal, chair: uuid.UUID) -> None:
        r, role_types = self.r, self.refs.types["role"]
        company["parent_org_nr"] = parent["org_nr"]
        role_add(r, rows, company=company["uuid"], role_type=role_types["shareholder"], from_date=company["founded_date"], holder_company=parent["uuid"], share=share)
        if share < 100:
            minority = person_add(r, rows, today=self.today)
            role_add(r, rows, company=company["uuid"], role_type=role_types["shareholder"], from_date=company["founded_date"], person=minority, share=100 - share)
        management_add(r, rows, company=company, role_types=role_types, today=self.today, chair=chair, board_size=r.rng.randint(0, 2))

    # --- accounts -------------------------------------------------------------------------------

    def _accounts(self, rows: DemoRows, company: dict, *, years: dict[int, date] | None = None) -> CompanyAccounts:
        """An operating company's accounts (for the forms that file), head-count history and debts."""
        r = self.r
        form = self.form_of.get(company["organization_type_id"], "")
        stopped = _stopped(company)
        if years is None:
            years = accounts_years(r, today=self.today, founded=company["founded_date"], stopped=stopped) if form in FILING_TYPES else {}
        if not years:
            employment_add(r, rows, company=company, today=self.today)
            collection_add(r, rows, company=company, today=self.today)
            return CompanyAccounts()
        industry = self.industry_of[company["org_nr"]]
        if industry is HOLDING:  # a holding company outside any group here: shares in others
            return self._holding_accounts(rows, company, years=years, held=[], portfolio=r.lognormal_int(3_000_000, 1.2))
        negative = r.chance(0.06) or (stopped is not None and r.chance(0.4))
        troubled = negative or stopped is not None or r.chance(0.1)
        accounts = operating_accounts(
            r, industry=industry, years=list(years), employees=company["employees"] or 0,
            troubled=troubled, negative_equity=negative, in_group=bool(company["parent_org_nr"]),
        )
        accounts.announced = dict(years)
        employment_history_add(r, rows, company=company, counts=accounts.employees, today=self.today)
        newest = accounts.figures[max(accounts.figures)]
        collection_add(r, rows, company=company, today=self.today, share=0.15 if troubled else 0.03, revenue=float(newest.income["total_operating_income"]))
        self._file(rows, company, accounts, form=form)
        return accounts

    def _holding_accounts(self, rows: DemoRows, company: dict, *, years: dict[int, date], held: list[tuple[float, CompanyAccounts]], portfolio: float = 0.0) -> CompanyAccounts:
        if not years:
            return CompanyAccounts()
        accounts = holding_accounts(self.r, years=list(years), held=held, portfolio=portfolio)
        accounts.announced = dict(years)
        self._file(rows, company, accounts, form=self.form_of.get(company["organization_type_id"], ""))
        return accounts

    def _file(self, rows: DemoRows, company: dict, accounts: CompanyAccounts, *, form: str) -> None:
        """The sets filed: one per year, sometimes one replaced by a corrected set (then current)."""
        r = self.r
        newest = accounts.figures[max(accounts.figures)]
        revenue = float(newest.income["total_operating_income"])
        small = revenue < AUDIT_EXEMPT_REVENUE and (company["employees"] or 0) < 10 and not accounts.intra_investments
        audited = not (small and form == "AS" and r.chance(0.4))
        replaced_year = r.pick(list(accounts.figures)) if r.chance(0.05) else None
        for year, figures in accounts.figures.items():
            announced = accounts.announced[year]
            if year == replaced_year:
                corrected = figures_changed(r, figures, significant=not audited and r.chance(0.5))
                newer = self._accounts_set(rows, company, year, corrected, announced + timedelta(days=r.rng.randint(40, 120)), audited=audited)
                self._accounts_set(rows, company, year, figures, announced, audited=audited, replaced_by=newer)
                accounts.figures[year] = corrected
            else:
                self._accounts_set(rows, company, year, figures, announced, audited=audited)
        company["last_submitted_accounts_year"] = max(accounts.figures)

    def _group_accounts(self, rows: DemoRows, parent: dict, members: list[CompanyAccounts]) -> None:
        """Consolidated accounts of the parent for the years every member has filed."""
        if any(not member.figures for member in members):
            return
        for year in sorted(set.intersection(*(set(member.figures) for member in members))):
            announced = members[0].announced[year] + timedelta(days=self.r.rng.randint(0, 20))
            self._accounts_set(rows, parent, year, group_figures(members, year), announced, audited=True, group=True)

    def _accounts_set(self, rows: DemoRows, company: dict, year: int, figures: Figures, announced: date, *, audited: bool, group: bool = False, replaced_by: uuid.UUID | None = None) -> uuid.UUID:
        r, types = self.r, self.refs.types
        accounts = r.uuid()
        rows.accounts.append(
            {
                "uuid": accounts,
                "company_id": company["uuid"],
                "accounts_type_id": types["accounts"]["annual_corporate_group_accounts" if group else "annual_company_accounts"],
                "accounting_year": year,
                "accounting_announcement_date": min(announced, self.today),
                "accounting_schema": "NO-GAAP",
                "accounting_from_date": date(year, 1, 1),
                "accounting_to_date": date(year, 12, 31),
                "corporate_group_accounts_flag": group,
                "estimated_accounting_period_flag": False,
                "currency_code": "NOK",
                "audited_flag": audited,
                "replaced_by_id": replaced_by,
                "update_timestamp": r.now,
            }
        )
        rows.income_statements.append({"uuid": r.uuid(), "accounts_id": accounts, "currency_code": "NOK", **figures.income})
        rows.balance_sheets.append({"uuid": r.uuid(), "accounts_id": accounts, "currency_code": "NOK", **figures.balance})
        if audited:
            negative = figures.balance["total_equity"] is not None and figures.balance["total_equity"] < 0
            note = "going_concern" if negative and r.chance(0.5) else r.weighted(AUDITOR_NOTES)
            rows.auditor_notes.append(
                {"uuid": r.uuid(), "accounts_id": accounts, "accounts_auditor_note_type_id": types["auditor_note"][note], "auditor_note": AUDITOR_NOTE_TEXT[note]}
            )
        return accounts


def _stopped(company: dict) -> date | None:
    """The day a bankrupt, liquidated or dissolved company stopped filing accounts."""
    days = [company[name] for name in ("bankrupt_date", "under_liquidation_date", "forced_dissolution_date") if company[name]]
    return min(days) if days else None


def _years_of(company: dict, years: dict[int, date]) -> dict[int, date]:
    """A group member's share of the group's filing years: from its founding, until it stopped."""
    stopped = _stopped(company)
    return {year: day for year, day in years.items() if year >= company["founded_date"].year and (stopped is None or day < stopped)}


AUDITOR_NOTE_TEXT = {
    "unqualified_opinion": "In our opinion the financial statements give a true and fair view.",
    "emphasis_of_matter": "Without qualifying our opinion, we draw attention to the note on revenue recognition.",
    "qualified_opinion": "Except for the valuation of inventory, the financial statements give a true and fair view.",
    "going_concern": "A material uncertainty exists that may cast significant doubt on the ability to continue as a going concern.",
}
