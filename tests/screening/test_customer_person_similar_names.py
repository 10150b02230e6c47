"""A customer person's page names the records born the same day whose name is theirs written another way
(a letter missed, another word order, a name added): possibly the same customer, to correct and then merge."""

from __future__ import annotations

import html

from portal.models import Member
from service.screening.models import CustomerPerson
from tests.screening.duplicates import twins  # noqa: F401 (fixtures)
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import customer_person_make, customer_person_url, patch


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _notice(page: str) -> str | None:
    if 'data-testid="similar-names">' not in page:
        return None
    return html.unescape(page.split('data-testid="similar-names">')[1].split("</div>\n</div>")[0])


def _misspelt(org, twins, name="Kari Nordman", **fields) -> str:
    config = CustomerPerson.objects.get(uuid=twins[0]).screening_config_id
    return customer_person_make(org.api, config, full_name=name, birth_date="1986-10-15", **fields)["uuid"]


def test_it_names_a_record_of_the_name_written_another_way_born_the_same_day(org, admin, twins):
    kept, twin, other = twins
    misspelt = _misspelt(org, twins)
    _misspelt(org, twins, name="Siri Hansen")  # born that day too, another name

    notice = _notice(admin.get(_page(kept)).content.decode())

    assert notice is not None
    assert "<strong>Possibly the same customer, the name written another way</strong> (born the same day):" in notice
    assert f'<a href="/screening/customer-persons/{misspelt}/">Kari Nordman</a>, added ' in notice
    assert twin not in notice and other not in notice and "Siri" not in notice  # the namesake is named above it
    assert "correct the misspelt name on its record (<em>Correct details</em>): the two then have one name" in notice
    # The misspelt record's page names both records of the name.
    back = _notice(admin.get(_page(misspelt)).content.decode())
    assert kept in back and twin in back


def test_once_the_name_is_corrected_the_records_are_namesakes_to_merge(org, admin, twins):
    kept, _, _ = twins
    misspelt = _misspelt(org, twins)
    assert patch(org.api, customer_person_url(misspelt), {"full_name": "Kari Nordmann"}).status_code == 200

    page = admin.get(_page(kept)).content.decode()

    assert _notice(page) is None
    assert f'href="/screening/customer-persons/{misspelt}/"' in page.split('data-testid="namesakes">')[1]


def test_two_references_tell_them_apart_and_an_officer_is_told_an_admin_corrects(org, admin, twins):
    kept, twin, _ = twins
    for person, reference in ((kept, "K-1"), (twin, "K-3")):
        assert patch(org.api, customer_person_url(person), {"customer_reference": reference}).status_code == 200
    _misspelt(org, twins, customer_reference="K-2")
    assert _notice(admin.get(_page(kept)).content.decode()) is None

    officer = org.member("otto", Member.Role.OFFICER)
    misspelt = _misspelt(org, twins, name="Kari Nordmanm")  # without a reference: either could be it
    notice = _notice(officer.get(_page(kept)).content.decode())
    assert misspelt in notice and "(an admin corrects it)" in notice
