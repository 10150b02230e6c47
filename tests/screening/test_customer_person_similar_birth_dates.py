"""A customer entered twice with the birth date typed two ways (day and month swapped, a digit another): the
Customer persons tab lists the records with each one's birth date, and each record's page names the other, to
correct and then merge."""

from __future__ import annotations

import html

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.screening.duplicates import twins  # noqa: F401 (fixtures)
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import customer_person_make, customer_person_url, patch

FIND = "/screening/approvals/?view=persons&duplicates=1"


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _notice(page: str) -> str | None:
    if 'data-testid="similar-birth-dates">' not in page:
        return None
    return html.unescape(page.split('data-testid="similar-birth-dates">')[1].split("</div>\n</div>")[0])


def _ingrid(org, twins, birth_date: str, **fields) -> str:
    config = CustomerPerson.objects.get(uuid=twins[0]).screening_config_id
    return customer_person_make(org.api, config, full_name="Ingrid Solberg", birth_date=birth_date, **fields)["uuid"]


def test_the_tab_lists_the_records_with_each_ones_birth_date(org, admin, twins):
    first = _ingrid(org, twins, "1975-04-12", customer_reference="K-7")
    swapped = _ingrid(org, twins, "1975-12-04")  # day and month swapped
    _ingrid(org, twins, "1985-11-30")  # a namesake born years apart: another person

    page = admin.get(FIND).content.decode()

    assert "Possibly the same customer entered twice: 2 groups</strong>" in page  # and the twins
    [ingrid] = [html.unescape(item.split("</li>")[0]) for item in page.split('data-testid="duplicate-group">')[1:]
                if item.startswith("Ingrid")]
    assert ingrid.startswith("Ingrid Solberg, born 12.04.1975 <span")
    assert "(the birth date typed two ways)" in ingrid
    assert f'<a href="/screening/customer-persons/{first}/">born 12.04.1975, K-7, added ' in ingrid
    assert f'<a href="/screening/customer-persons/{swapped}/">born 04.12.1975, no reference, added ' in ingrid
    assert "30.11.1985" not in ingrid


def test_each_records_page_names_the_other_and_says_what_to_do(org, admin, twins):
    first = _ingrid(org, twins, "1975-04-12")
    typo = _ingrid(org, twins, "1975-04-13")  # a digit another

    notice = _notice(admin.get(_page(first)).content.decode())

    assert notice is not None
    assert "<strong>Possibly the same customer, the birth date typed another way</strong>" in notice
    assert f'<a href="/screening/customer-persons/{typo}/">Ingrid Solberg</a>, born 13.04.1975, added ' in notice
    assert "correct the wrong birth date on its record (<em>Correct details</em>)" in notice
    assert first in _notice(admin.get(_page(typo)).content.decode())
    assert _notice(admin.get(_page(twins[0])).content.decode()) is None  # Kari's records are named by the other notice


def test_once_the_birth_date_is_corrected_the_records_are_namesakes_to_merge(org, admin, twins):
    first = _ingrid(org, twins, "1975-04-12")
    typo = _ingrid(org, twins, "1975-12-04")
    assert patch(org.api, customer_person_url(typo), {"birth_date": "1975-04-12"}).status_code == 200

    page = admin.get(_page(first)).content.decode()

    assert _notice(page) is None
    assert f'href="/screening/customer-persons/{typo}/"' in page.split('data-testid="namesakes">')[1]


def test_an_officer_is_told_an_admin_corrects_and_another_organisation_sees_nothing(org, other_org, twins):
    first = _ingrid(org, twins, "1975-04-12")
    typo = _ingrid(org, twins, "1975-12-04")
    officer = org.member("otto", Member.Role.OFFICER)

    notice = _notice(officer.get(_page(first)).content.decode())

    assert typo in notice and "(an admin corrects it)" in notice
    assert "Ingrid" not in other_org.admin.client().get(FIND).content.decode()
