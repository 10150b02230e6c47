import pytest

from portal.models import Member
from service.companies.analysis import analysis_refresh
from tests.portal.conftest import make_member, member, other_member  # noqa: F401  (dashboard members for these tests)
from tests.service.companies.factories import accounts_make, company_make


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def company(db):
    company = company_make(name="Havbris Teknologi AS")
    for year in (2023, 2024):
        accounts_make(company=company, year=year)
    analysis_refresh(company_uuids=[company.uuid])
    return company


@pytest.fixture
def viewer(db):
    return make_member("Vestkyst Sparebank", "vera", role=Member.Role.VIEWER)
