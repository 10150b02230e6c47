"""GET /v1/screening-list-category: the catalog's categories with type and current version."""

from __future__ import annotations

from service.screening.list_import import screening_list_import
from service.screening.models import ScreeningListCategory
from tests.conftest import shared_file
from tests.service.screening.helpers import AML

URL = "/analysis/v1/screening-list-category"


def test_it_lists_the_four_catalog_categories_with_their_type(api):
    categories = {c["screening_list_category_key"]: c for c in api.get(URL, roles=AML).json()}
    assert set(categories) >= {"un_security_council", "us_ofac_sdn", "eu_financial_sanctions", "pep"}
    assert categories["pep"]["screening_list_type_key"] == "pep"
    assert categories["un_security_council"]["screening_list_type_key"] == "sanction"
    assert categories["un_security_council"]["screening_list_category_name"] == "UN Security Council Consolidated List"
    assert categories["un_security_council"]["entry_count"] == 0
    assert categories["un_security_council"]["latest_version_timestamp"] is None


def test_it_shows_the_current_version_of_an_imported_list(api):
    category = ScreeningListCategory.objects.get(key="un_security_council")
    result = screening_list_import(category=category, path=shared_file("sanctions/un/UN_consolidated.xml"))
    un = next(c for c in api.get(URL, roles=AML).json() if c["screening_list_category_key"] == "un_security_council")
    assert un["latest_version_number"] == 1
    assert un["entry_count"] == result.version.entry_count > 500
    assert un["latest_version_timestamp"] is not None


def test_it_needs_the_aml_role(api):
    assert api.get(URL).status_code == 403
