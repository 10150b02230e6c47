"""import_group_ownership on the real Aker Solutions group: parent companies become shareholders."""

from __future__ import annotations

import csv
from decimal import Decimal

import pytest

from service.companies.importers.enheter import enheter_import
from service.companies.importers.group_ownership import group_ownership_import
from service.companies.models import CompanyRole
from tests.conftest import shared_file

pytestmark = pytest.mark.usefixtures("reference_data")


@pytest.fixture
def group_units():
    enheter_import(path=shared_file("brreg/konsern-enheter.csv"), refresh_analysis=False)


def _roles() -> set[tuple[str, str, Decimal]]:
    return {
        (role.holder_company.org_nr, role.company.org_nr, role.share_percentage)
        for role in CompanyRole.objects.select_related("company", "holder_company").filter(
            company_role_type__key="shareholder"
        )
    }


def test_each_parent_company_holds_its_share_of_each_unit(group_units):
    path = shared_file("brreg/konsern-roller.csv")
    with path.open(encoding="utf-8", newline="") as stream:
        expected = {
            (r["influencing_tax_ident"], r["influenced_tax_ident"], Decimal(r["percentage"]))
            for r in csv.DictReader(stream)
            if r["rel_type_code"] == "HFOR"
        }

    result = group_ownership_import(path=path, refresh_analysis=False)

    assert result.rows_read == len(expected) == result.created
    assert _roles() == expected
    assert ("929877950", "920882749", Decimal("60")) in _roles()
    holding = CompanyRole.objects.get(company__org_nr="913192192", company_role_type__key="shareholder")
    assert (holding.holder_company.name, holding.holder_person) == ("AKER SOLUTIONS ASA", None)


def test_a_second_import_changes_nothing(group_units):
    path = shared_file("brreg/konsern-roller.csv")
    first = group_ownership_import(path=path, refresh_analysis=False)

    second = group_ownership_import(path=path, refresh_analysis=False)

    assert (second.created, second.updated, second.unchanged) == (0, 0, first.rows_read)
    assert CompanyRole.objects.count() == first.created


def test_unknown_companies_and_other_relations_are_rejected_by_line(group_units, tmp_path):
    path = tmp_path / "roller.csv"
    path.write_text(
        "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
        "913748174,913192192,HFOR,100\n"
        "913748174,913192192,KOMP,100\n"
        "913748174,123456789,HFOR,100\n"
        "913748174,974760673,HFOR,50\n"
        "913748174,929877950,HFOR,150\n",
        encoding="utf-8",
    )

    result = group_ownership_import(path=path, refresh_analysis=False)

    assert result.created == 1
    assert [(row.line, row.reason) for row in result.rejected] == [
        (3, "rel_type_code 'KOMP' is not supported (only HFOR, the parent company)"),
        (4, "influenced_tax_ident '123456789' is not a valid organisation number (The number's checksum or check digit is invalid.)"),
        (6, "percentage must be above 0 and at most 100, got '150'"),
        (5, "company 974760673 is not in the register (import its Enhetsregisteret row first)"),
    ]


def test_an_ownership_the_file_no_longer_lists_is_closed(group_units, tmp_path):
    from datetime import date

    from django.utils import timezone

    from service.companies.models import Company, CompanyRoleType

    header = "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
    path = tmp_path / "roller.csv"
    path.write_text(header + "913748174,913192192,HFOR,100\n913748174,929877950,HFOR,60\n", encoding="utf-8")
    group_ownership_import(path=path, refresh_analysis=False)
    # An ownership with its own period (demo data, JSON lines) is not this file's to close.
    dated = CompanyRole.objects.create(
        company=Company.objects.get(org_nr="920882749"),
        company_role_type=CompanyRoleType.objects.get(key="shareholder"),
        holder_company=Company.objects.get(org_nr="913748174"),
        share_percentage=Decimal("40"),
        from_date=date(2020, 1, 1),
    )
    path.write_text(header + "913748174,913192192,HFOR,100\n", encoding="utf-8")

    result = group_ownership_import(path=path, refresh_analysis=False)

    assert (result.unchanged, result.closed) == (1, 1)
    assert result.summary().endswith(", closed 1 no longer listed")
    gone = CompanyRole.objects.get(company__org_nr="929877950", holder_company__org_nr="913748174")
    assert gone.to_date == timezone.localdate()
    kept = CompanyRole.objects.get(company__org_nr="913192192", holder_company__org_nr="913748174")
    assert kept.to_date is None
    dated.refresh_from_db()
    assert dated.to_date is None

    again = group_ownership_import(path=path, refresh_analysis=False)
    assert (again.unchanged, again.closed) == (1, 0)
