"""service.key_rows: the catalogue rows kept as the code lists them, after every migrate."""

from __future__ import annotations

from service.companies.catalog import ROLE_TYPES, catalog_ensure
from service.companies.models import CompanyRoleType
from service.key_rows import key_rows_ensure
from service.reports.catalog import report_types_ensure
from service.reports.models import PartnerReportType


def test_it_puts_back_a_missing_row_and_a_changed_description_and_keeps_the_uuids(db):
    kept = CompanyRoleType.objects.get(key="ceo")
    CompanyRoleType.objects.filter(key="ceo").update(description="changed by hand")
    CompanyRoleType.objects.filter(key="board_chair").delete()

    catalog_ensure()

    assert dict(CompanyRoleType.objects.values_list("key", "description")) == ROLE_TYPES
    assert CompanyRoleType.objects.get(key="ceo").uuid == kept.uuid


def test_it_leaves_a_row_the_code_no_longer_lists(db):
    CompanyRoleType.objects.create(key="retired_role", description="A role no longer imported")

    key_rows_ensure(CompanyRoleType, {"ceo": {"description": ROLE_TYPES["ceo"]}})

    assert CompanyRoleType.objects.filter(key="retired_role").exists()


def test_report_types_present_are_left_as_they_are(db):
    PartnerReportType.objects.filter(key="company_profile").update(description="as an operator set it")
    PartnerReportType.objects.filter(key="ownership_report").delete()

    report_types_ensure()

    assert PartnerReportType.objects.get(key="company_profile").description == "as an operator set it"
    assert PartnerReportType.objects.filter(key="ownership_report").exists()
