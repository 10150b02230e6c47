"""Accounts for the real register's companies (import_enheter of ../shared/data/brreg), so the
companies a user looks up first are not empty pages with a "missing accounts" flag.

For every company that the register says has filed (`last_submitted_accounts_year`), files
accounts (AS, ASA, SA, NUF, BRL) and has none yet: 3-6 years ending with the register's year (or,
for a company still running, the newest year filed by today; its last submitted year is moved up
to match), drawn for its industry and its register head count, and a head-count history that ends where the
register's own employment period begins. A company holding shares in others of them (a real
group, konsern-roller.csv) gets a holding's accounts, and the top of the group consolidated
group accounts. No payment remarks or statuses are invented for real companies.

Each company draws from a Random seeded by the seed and its organisation number, so the
figures do not depend on which other companies are in the database.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db import transaction
from django.db.models import Exists, OuterRef

from service.companies import models as m
from service.demo.companies.accounts import LATE_FILERS, CompanyAccounts, filing_date, holding_accounts, operating_accounts
from service.demo.companies.builder import FILING_TYPES, DemoBuilder
from service.demo.companies.events import employment_history_add
from service.demo.companies.industries import HOLDING, industry_of
from service.demo.companies.randomness import DemoRandom
from service.demo.companies.rows import TABLES, DemoRows
from service.companies.importers.bulk import rows_insert

COMPANY_FIELDS = (
    "uuid", "org_nr", "name", "employees", "founded_date", "registration_date", "last_submitted_accounts_year",
    "organization_type_id", "parent_org_nr", "bankrupt_date", "under_liquidation_date", "forced_dissolution_date",
)


def register_years(r: DemoRandom, *, last_year: int, founded: date, today: date, stopped: bool) -> dict[int, date]:
    """3-6 consecutive years (year -> announcement date) ending with the register's last filed year,
    or, for a company still running, with the newest year filed by today: the sample is an older
    snapshot, and a real company has filed since (a late filer's newest year may still be missing)."""
    late = r.chance(LATE_FILERS)
    announced = {}
    if not stopped:
        for year in range(last_year + 1, today.year):
            day = filing_date(r, year, late=late)
            if day > today:
                break
            announced[year] = day
    newest = max(announced, default=last_year)
    first = max(founded.year, newest - r.rng.randint(3, 6) + 1)
    return {year: announced.get(year) or min(filing_date(r, year), today) for year in range(first, newest + 1)}


def register_candidates() -> list[dict]:
    """The register's companies that have filed by its account and have no accounts here, by org number."""
    has_accounts = m.Accounts.objects.filter(company=OuterRef("pk"))
    companies = (
        m.Company.objects.filter(last_submitted_accounts_year__isnull=False, organization_type__code__in=FILING_TYPES)
        .annotate(has_accounts=Exists(has_accounts))
        .filter(has_accounts=False)
        .order_by("org_nr")
        .values(*COMPANY_FIELDS, "nace_code_1__code", "nace_code_1__path")
    )
    return [company for company in companies if company["founded_date"] or company["registration_date"]]


def register_accounts_build(builder: DemoBuilder, *, seed: int, today: date) -> tuple[DemoRows, dict]:
    """The rows that give the register's filing companies their accounts and head-count histories,
    and for the companies whose history now leads into the register's open period, the head count
    it changed from (company uuid -> count)."""
    r = builder.r
    rows = DemoRows()
    changed_from: dict = {}
    newest_year: dict = {}
    companies = {company["uuid"]: company for company in register_candidates()}
    held_by: dict = defaultdict(list)  # holder uuid -> [(share 0-1, held uuid)]
    owned = set()
    for holder, held, share in m.CompanyRole.objects.filter(
        company_role_type__key="shareholder", holder_company__in=list(companies), company__in=list(companies)
    ).values_list("holder_company_id", "company_id", "share_percentage"):
        held_by[holder].append((float(share or 100) / 100, held))
        owned.add(held)
    open_periods = _open_periods(list(companies))
    done: dict = {}

    def build(company_uuid, trail=()) -> CompanyAccounts:
        if company_uuid in done:
            return done[company_uuid]
        company = companies[company_uuid]
        company["founded_date"] = company["founded_date"] or company["registration_date"]
        holdings = [(share, build(held, (*trail, company_uuid))) for share, held in held_by.get(company_uuid, ()) if held not in trail]
        r.rng.seed(f"register-{seed}-{company['org_nr']}")
        stopped = any(company[name] for name in ("bankrupt_date", "under_liquidation_date", "forced_dissolution_date"))
        years = register_years(r, last_year=company["last_submitted_accounts_year"], founded=company["founded_date"], today=today, stopped=stopped)
        industry = industry_of(company["nace_code_1__code"], (company["nace_code_1__path"] or "")[:1])
        if holdings or industry is HOLDING:
            accounts = holding_accounts(r, years=list(years), held=holdings, portfolio=0.0 if holdings else r.lognormal_int(3_000_000, 1.2))
        else:
            accounts = operating_accounts(
                r, industry=industry, years=list(years), employees=company["employees"] or 0,
                troubled=r.chance(0.1), negative_equity=r.chance(0.04), in_group=company_uuid in owned,
            )
            before = len(rows.employment)
            employment_history_add(r, rows, company=company, counts=accounts.employees, today=today, until=open_periods.get(company_uuid))
            if len(rows.employment) > before and company_uuid in open_periods:
                changed_from[company_uuid] = rows.employment[-1]["employee_count"]
        accounts.announced = years
        form = builder.form_of.get(company["organization_type_id"], "")
        builder._file(rows, company, accounts, form=form)
        newest_year[company_uuid] = max(years)
        done[company_uuid] = accounts
        return accounts

    for company_uuid in companies:
        build(company_uuid)
    for top in held_by:
        if top in companies and top not in owned:
            builder._group_accounts(rows, companies[top], _members(top, held_by, done))
    return rows, changed_from, newest_year


def register_accounts_write(builder: DemoBuilder, *, seed: int, today: date) -> DemoRows:
    """Build and write them in one transaction; the rows written."""
    rows, changed_from, newest_year = register_accounts_build(builder, seed=seed, today=today)
    with transaction.atomic():
        for table, model in TABLES.items():
            rows_insert(model=model, rows=getattr(rows, table))
        for company_uuid, count in changed_from.items():
            m.CompanyEmployment.objects.filter(company_id=company_uuid, to_date__isnull=True).update(employee_count_from=count)
        by_year = defaultdict(list)
        for company_uuid, year in newest_year.items():
            by_year[year].append(company_uuid)
        for year, company_uuids in by_year.items():
            m.Company.objects.filter(uuid__in=company_uuids, last_submitted_accounts_year__lt=year).update(last_submitted_accounts_year=year)
    return rows


def _members(top, held_by: dict, done: dict) -> list[CompanyAccounts]:
    """The group's accounts, the parent first, every member once."""
    members, seen, queue = [], set(), [top]
    while queue:
        company_uuid = queue.pop(0)
        if company_uuid in seen or company_uuid not in done:
            continue
        seen.add(company_uuid)
        members.append(done[company_uuid])
        queue.extend(held for _, held in held_by.get(company_uuid, ()))
    return members


def _open_periods(company_uuids: list) -> dict:
    """The start of each company's open employment period (the register's head count today)."""
    starts: dict = {}
    for company_id, from_date in m.CompanyEmployment.objects.filter(company_id__in=company_uuids, to_date__isnull=True).values_list("company_id", "from_date"):
        starts[company_id] = min(from_date, starts.get(company_id, from_date))
    return starts
