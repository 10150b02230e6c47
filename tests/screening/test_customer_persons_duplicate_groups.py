"""The Customer persons tab finds, when asked, the customers possibly entered twice (same name and birth date,
not told apart by references), with a link to each record, where an admin merges them; a merge takes the group
away."""

from __future__ import annotations

import html

from service.screening.models import CustomerPerson
from tests.screening.duplicates import twins  # noqa: F401 (fixtures)
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import customer_person_make, customer_person_url, patch

TAB = "/screening/approvals/?view=persons"
FIND = TAB + "&duplicates=1"


def _groups(page: str) -> list[str]:
    return [html.unescape(item.split("</li>")[0]) for item in page.split('data-testid="duplicate-group">')[1:]]


def test_it_lists_each_customer_possibly_entered_twice_with_a_link_to_each_record(org, admin, twins):
    kept, twin, other = twins
    assert patch(org.api, customer_person_url(kept), {"customer_reference": "K-10041"}).status_code == 200

    assert 'data-testid="duplicate-groups"' not in admin.get(TAB).content.decode()  # asked for, not read with every page
    page = admin.get(FIND).content.decode()

    assert "Possibly the same customer entered twice: 1 group</strong>" in page
    [group] = _groups(page)
    assert group.startswith("Kari Nordmann, born 15.10.1986: ")
    assert f'<a href="/screening/customer-persons/{kept}/">K-10041, added ' in group
    assert f'<a href="/screening/customer-persons/{twin}/">no reference, added ' in group
    assert other not in group  # born another day


def test_a_merge_takes_the_group_away(org, admin, twins):
    kept, twin, _ = twins
    assert admin.post(f"/screening/customer-persons/{kept}/duplicates/{twin}/merge/").status_code == 302

    page = admin.get(FIND).content.decode()
    assert 'data-testid="duplicate-groups"' not in page
    assert "No two customer persons have the same name and birth date, or one of them written two ways" in page


def test_another_organisations_customers_are_not_named(other_org, twins):
    assert 'data-testid="duplicate-groups"' not in other_org.admin.client().get(FIND).content.decode()


def test_a_name_written_two_ways_is_listed_with_each_records_name(org, admin, twins):
    kept, twin, other = twins
    # The other Kari, born another day, has a namesake misspelt on her birth date.
    config = CustomerPerson.objects.get(uuid=other).screening_config_id
    misspelt = customer_person_make(org.api, config, full_name="Kari Nordman", birth_date="1990-01-01")["uuid"]

    page = admin.get(FIND).content.decode()

    assert "Possibly the same customer entered twice: 2 groups</strong>" in page
    same, similar = _groups(page)
    assert same.startswith("Kari Nordmann, born 15.10.1986: ") and "written two ways" not in same
    assert similar.startswith('Kari Nordmann, born 01.01.1990 <span class="text-secondary" data-testid="similar-names">(the name written two ways)</span>: ')
    assert f'<a href="/screening/customer-persons/{other}/">Kari Nordmann, no reference, added ' in similar
    assert f'<a href="/screening/customer-persons/{misspelt}/">Kari Nordman, no reference, added ' in similar
