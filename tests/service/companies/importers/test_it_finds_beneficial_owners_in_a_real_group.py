"""Beneficial owners over the real Aker Solutions group as import_group_ownership stores it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from service.companies.importers.enheter import enheter_import
from service.companies.importers.group_ownership import group_ownership_import
from service.companies.models import Company
from service.companies.ownership import beneficial_owners, persons_to_screen
from tests.conftest import shared_file
from tests.service.companies.factories import person_make, role_make

pytestmark = pytest.mark.usefixtures("reference_data")


@pytest.fixture
def group():
    enheter_import(path=shared_file("brreg/konsern-enheter.csv"), refresh_analysis=False)
    group_ownership_import(path=shared_file("brreg/konsern-roller.csv"), refresh_analysis=False)
    return {company.org_nr: company for company in Company.objects.all()}


def test_an_owner_of_the_listed_parent_owns_every_unit_down_the_group(group, django_assert_max_num_queries):
    parent, quingdao = group["913748174"], group["920882749"]  # AKER SOLUTIONS ASA, a 60%-owned unit
    role_make(company=parent, role_key="shareholder", person=person_make(full_name="Kari Nordmann"), share_percentage=40)

    with django_assert_max_num_queries(1 + 4):
        [owner] = beneficial_owners(company_uuid=quingdao.uuid)

    # 40% × 100% × 100% × 60%: every link has 25% or more, so she qualifies with 24% in all
    assert owner.effective_share == Decimal("0.24")
    assert [link.company_name for link in owner.chains[0]] == [
        "AKER SOLUTIONS ASA",
        "AKER SOLUTIONS HOLDING AS",
        "AKER SOLUTIONS AS",
        quingdao.name,
    ]
    owned = [company for company in group.values() if company is not parent]
    assert all(beneficial_owners(company_uuid=company.uuid) for company in owned)


def test_a_group_owned_only_by_companies_falls_back_to_the_board(group):
    unit = group["929877950"]
    role_make(company=unit, role_key="board_chair", person=person_make(full_name="Ola Hansen"))

    [chair] = persons_to_screen(company_uuid=unit.uuid, setting_key="enin_calculated_beneficial_owners")

    assert (chair.full_name, chair.entity_monitoring_type_key) == ("Ola Hansen", "alternative_beneficial_owners")
