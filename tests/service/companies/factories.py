"""Small factories for company register data in tests (shared: keep them general).

    company = company_make(name="Fjord AS")                 # a valid, unique NO org nr
    accounts = accounts_make(company=company, year=2024, income={...}, balance={...})
    person_make(full_name="Kari Nordmann"), role_make(company=company, role_key="ceo", person=...)

Keys default to the Norwegian shapes (`NO-AS`, `NO-62.010`, `NO-0301`). Statement
values default to a plain healthy company; pass a dict to override single fields
or `None` to leave a statement out.
"""

from __future__ import annotations

import itertools
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone
from stdnum.no import orgnr

from service.companies import models as m
from service.companies import services

_serial = itertools.count(1)


def org_nr_make() -> str:
    """A fresh valid 9-digit Norwegian organisation number (mod-11 check digit)."""
    while True:
        base = f"9{next(_serial):07d}"
        for digit in "0123456789":
            if orgnr.is_valid(base + digit):
                return base + digit


def organization_type_make(code: str = "AS", country: str = "NO", name: str | None = None) -> m.OrganizationType:
    organization_type, _ = m.OrganizationType.objects.get_or_create(
        key=f"{country}-{code}", defaults={"code": code, "name": name or f"{code} company"}
    )
    return organization_type


def nace_code_make(code: str = "62.010", *, name: str | None = None, country: str = "NO") -> m.NaceCode:
    """A NACE code with its parents up to the section (J for 62.x, else A)."""
    section = "J" if code.startswith("62") else "A"
    digits = code.replace(".", "")
    chain = [section, digits[:2], f"{digits[:2]}.{digits[2:3]}", f"{digits[:2]}.{digits[2:4]}", code]
    wanted = chain[: _level_of(code)]
    parent = None
    for level, part in enumerate(wanted, start=1):
        path = ".".join([section] + ([digits[:2], *digits[2:level]] if level > 1 else []))
        parent, _ = m.NaceCode.objects.get_or_create(
            key=f"{country}-{part}",
            defaults={
                "code": part,
                "level": level,
                "path": path,
                "name": name if part == code and name else f"NACE {part}",
                "parent": parent,
            },
        )
    return parent


def _level_of(code: str) -> int:
    if code.isalpha():
        return 1
    digits = code.replace(".", "")
    return {2: 2, 3: 3, 4: 4, 5: 5}[len(digits)]


def geo_make(
    *, postal_code: str = "0150", municipality_code: str = "0301", subdivision_code: str = "03", country: str = "NO"
) -> m.GeoPostalCode:
    """A postal code inside a municipality inside a county inside a country."""
    geo_country, _ = m.GeoCountry.objects.get_or_create(key=country, defaults={"name": "Norway"})
    subdivision, _ = m.GeoSubdivision.objects.get_or_create(
        key=f"{country}-{subdivision_code}",
        defaults={"country": geo_country, "code": subdivision_code, "name": f"County {subdivision_code}"},
    )
    municipality, _ = m.GeoMunicipality.objects.get_or_create(
        key=f"{country}-{municipality_code}",
        defaults={"subdivision": subdivision, "code": municipality_code, "name": f"Municipality {municipality_code}"},
    )
    postal, _ = m.GeoPostalCode.objects.get_or_create(
        key=f"{country}-{postal_code}",
        defaults={"country": geo_country, "municipality": municipality, "code": postal_code, "place_name": "OSLO"},
    )
    return postal


def company_make(
    *,
    name: str | None = None,
    org_nr: str | None = None,
    organization_type: str | None = "AS",
    nace_codes: tuple[str, ...] = ("62.010",),
    registration_date: date | None = date(2010, 3, 1),
    with_address: bool = True,
    **fields,
) -> m.Company:
    org_nr = org_nr or org_nr_make()
    nace = [nace_code_make(code) for code in nace_codes]
    if with_address:
        postal = geo_make()
        fields.setdefault("business_address", "Storgata 1")
        fields.setdefault("business_postal_code", postal)
        fields.setdefault("business_municipality", postal.municipality)
        fields.setdefault("business_country", postal.country)
    return m.Company.objects.create(
        org_nr=org_nr,
        name=name or f"Company {org_nr} AS",
        organization_type=organization_type_make(organization_type) if organization_type else None,
        nace_code_1=nace[0] if len(nace) > 0 else None,
        nace_code_2=nace[1] if len(nace) > 1 else None,
        nace_code_3=nace[2] if len(nace) > 2 else None,
        registration_date=registration_date,
        **fields,
    )


HEALTHY_INCOME = {
    "total_sales": Decimal("9000000"),
    "other_operating_income": Decimal("1000000"),
    "total_operating_income": Decimal("10000000"),
    "total_operating_costs": Decimal("9000000"),
    "operating_result": Decimal("1000000"),
    "financial_income": Decimal("20000"),
    "financial_costs": Decimal("100000"),
    "result_before_tax": Decimal("920000"),
    "tax": Decimal("200000"),
    "annual_result": Decimal("720000"),
}
HEALTHY_BALANCE = {
    "total_fixed_assets": Decimal("4000000"),
    "total_current_assets": Decimal("4000000"),
    "total_assets": Decimal("8000000"),
    "total_equity": Decimal("3200000"),
    "long_term_liabilities": Decimal("2800000"),
    "short_term_liabilities": Decimal("2000000"),
    "total_liabilities": Decimal("4800000"),
    "total_equity_and_liabilities": Decimal("8000000"),
}
_DEFAULT = object()


def accounts_make(
    *,
    company: m.Company,
    year: int,
    type_key: str = "annual_company_accounts",
    income: dict | None | object = _DEFAULT,
    balance: dict | None | object = _DEFAULT,
    notes: tuple[tuple[str, str], ...] = (),
    replaces: m.Accounts | None = None,
    audited: bool = True,
    announcement_date: date | None | object = _DEFAULT,
) -> m.Accounts:
    """Accounts through the service (so replacements and notes are wired as in production).

    `income`/`balance`: overrides on the healthy defaults, or None for no statement.
    The analysis is not run here (tests call analysis_refresh themselves).
    """
    income_values = None if income is None else {**HEALTHY_INCOME, **({} if income is _DEFAULT else income)}
    balance_values = None if balance is None else {**HEALTHY_BALANCE, **({} if balance is _DEFAULT else balance)}
    return services.accounts_create(
        company=company,
        accounting_year=year,
        accounts_type_key=type_key,
        income_statement=income_values,
        balance_sheet=balance_values,
        auditor_notes=notes,
        replaces=replaces,
        audited=audited,
        announcement_date=date(year + 1, 6, 15) if announcement_date is _DEFAULT else announcement_date,
    )


def person_make(*, full_name: str = "Kari Nordmann", national_id: str = "", **fields) -> m.Person:
    first, _, last = full_name.rpartition(" ")
    return m.Person.objects.create(
        full_name=full_name,
        first_name=fields.pop("first_name", first),
        last_name=fields.pop("last_name", last),
        national_identification_number=national_id,
        national_identification_schema="NO" if national_id else "",
        **fields,
    )


def role_make(
    *,
    company: m.Company,
    role_key: str = "board_member",
    person: m.Person | None = None,
    holder_company: m.Company | None = None,
    **fields,
) -> m.CompanyRole:
    if person is None and holder_company is None:
        person = person_make()
    return m.CompanyRole.objects.create(
        company=company,
        company_role_type=m.CompanyRoleType.objects.get(key=role_key),
        holder_person=person,
        holder_company=holder_company,
        **fields,
    )


def employment_make(*, company: m.Company, count: int, start: date, end: date | None = None, **fields):
    def moment(day):
        return timezone.make_aware(datetime(day.year, day.month, day.day)) if day else None

    return m.CompanyEmployment.objects.create(
        company=company, employee_count=count, from_date=moment(start), to_date=moment(end), **fields
    )


def payment_remark_make(*, company: m.Company, amount=Decimal("25000"), registered=date(2025, 1, 10), **fields):
    return services.payment_remark_create(company=company, amount=Decimal(amount), registered_date=registered, **fields)


def collection_case_make(*, company: m.Company, amount=Decimal("25000"), opened=date(2024, 11, 1), **fields):
    fields.setdefault("creditor_name", "Inkasso Norge AS")
    return services.collection_case_create(debtor_company=company, amount=Decimal(amount), opened_date=opened, **fields)
