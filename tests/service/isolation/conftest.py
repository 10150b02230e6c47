"""Two organisations with every kind of private data, the screening lists they match, and files in a temp folder."""

from __future__ import annotations

import pytest

from tests.service.companies.factories import company_make
from tests.service.isolation.world import world_make
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON, lists  # noqa: F401  (the fixture)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def worlds(db, lists, django_capture_on_commit_callbacks):  # noqa: F811
    """(a, b): organisation A's data is the target, B the caller with a mirror of its own."""
    company = company_make(name="Delt Register AS", org_nr="913748174")
    a = world_make("Alfa Sparebank", tag="Alfa", company=company, listed_person=UN_PERSON, capture=django_capture_on_commit_callbacks)
    b = world_make("Beta Finans", tag="Beta", company=company, listed_person=PEP_PERSON, capture=django_capture_on_commit_callbacks)
    return a, b
