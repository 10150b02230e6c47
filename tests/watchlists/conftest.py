"""Watchlist pages: members of two organisations and register companies with a risk class and flags."""

from decimal import Decimal

import pytest

from portal.models import Member
from service.companies.analysis import analysis_refresh
from tests.portal.conftest import make_member, member, other_member  # noqa: F401  (dashboard members)
from tests.service.companies.factories import accounts_make, company_make


@pytest.fixture
def companies(db):
    """Three register companies: a healthy one, one with negative equity (a flag), one without accounts."""
    healthy = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    for year in (2023, 2024):
        accounts_make(company=healthy, year=year)
    troubled = company_make(name="Fjellvann Bygg AS")
    for year in (2023, 2024):
        accounts_make(company=troubled, year=year, balance={"total_equity": Decimal("-2500000")})
    quiet = company_make(name="Stille Holding AS")
    analysis_refresh(company_uuids=[healthy.uuid, troubled.uuid, quiet.uuid])
    return [healthy, troubled, quiet]


@pytest.fixture
def viewer(db):
    return make_member("Vestkyst Sparebank", "vera", role=Member.Role.VIEWER)
