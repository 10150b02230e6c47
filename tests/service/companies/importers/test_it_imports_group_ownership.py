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


def test_an_ownership_the_file_no_longer_lists_is_closed(group_units, tmp_path, stopped_clock):
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


def test_a_closed_ownership_stays_as_history_no_longer_owns_and_a_relisting_opens_a_new_one(
    group_units, tmp_path, stopped_clock
):
    from django.utils import timezone

    from service.companies.models import Company
    from service.companies.ownership import ownership_links_load

    header = "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
    path = tmp_path / "roller.csv"
    owned = Company.objects.get(org_nr="929877950")
    path.write_text(header + "913748174,929877950,HFOR,60\n", encoding="utf-8")
    group_ownership_import(path=path, refresh_analysis=False)
    assert [link.holder_name for link in ownership_links_load(company=owned, as_of=timezone.localdate())] == [
        "AKER SOLUTIONS ASA"
    ]

    path.write_text(header, encoding="utf-8")  # the group's ownership was dissolved
    closing = group_ownership_import(path=path, refresh_analysis=False)

    [closed] = CompanyRole.objects.filter(company=owned, company_role_type__key="shareholder")
    assert closing.closed == 1 and closed.to_date == timezone.localdate()  # end-dated, not deleted
    assert ownership_links_load(company=owned, as_of=timezone.localdate()) == []  # no longer current
    assert closed.share_percentage == Decimal("60")

    path.write_text(header + "913748174,929877950,HFOR,75\n", encoding="utf-8")
    relisted = group_ownership_import(path=path, refresh_analysis=False)

    roles = CompanyRole.objects.filter(company=owned, company_role_type__key="shareholder").order_by("share_percentage")
    assert relisted.created == 1 and relisted.closed == 0
    assert [(role.share_percentage, role.to_date) for role in roles] == [
        (Decimal("60"), timezone.localdate()),  # the history stays
        (Decimal("75"), None),
    ]
    [link] = ownership_links_load(company=owned, as_of=timezone.localdate())
    assert link.share == Decimal("0.75")
