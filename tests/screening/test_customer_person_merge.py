"""An admin merges a second record of one customer into the record kept, from the kept one's page
(POST /screening/customer-persons/<uuid>/duplicates/<other>/merge/): the page says what the merge
would move (the service's dry run), the merge moves it and stops the other's screening, and the
merged record's page says where it went. Two people get neither a merge nor a stop."""

from __future__ import annotations

import html

from portal.models import Member
from service.screening.models import CustomerPerson, EntityMonitoring
from tests.screening.duplicates import twin_knows_more, twins  # noqa: F401 (fixtures)
from tests.screening.helpers import never_sent
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make, customer_person_make, customer_person_url, patch


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _merge(kept_uuid, other_uuid) -> str:
    return f"{_page(kept_uuid)}duplicates/{other_uuid}/merge/"


def _text(response) -> str:
    return html.unescape(response.content.decode())


def _merged_into(person_uuid):
    return CustomerPerson.objects.get(uuid=person_uuid).merged_into_id


def test_it_merges_the_duplicate_moving_what_only_it_holds(admin, twin_knows_more):
    kept, twin = twin_knows_more
    page = _text(admin.get(_page(kept)))
    assert f'action="{_merge(kept, twin)}"' in page
    assert "Merge into this record: KARI nordmann (K-10231), added" in page
    confirm = page.split('data-testid="duplicate-merge"')[1].split('">')[0]
    assert ("Moved here: the national id NO 151086*****; the address Bryggen 5, 5003 Bergen, NO; the customer reference "
            "K-10231. Its screening stops and it is marked merged. Its cases stay on it.") in confirm

    response = admin.post(_merge(kept, twin), follow=True)

    said = _text(response)
    assert "is merged into this record and no longer screened. Moved here: the national id NO 151086*****; the address " \
           "Bryggen 5, 5003 Bergen, NO; the customer reference K-10231. Its cases stay on it." in said
    assert str(_merged_into(twin)) == kept
    stored = CustomerPerson.objects.get(uuid=kept)
    assert stored.customer_reference == "K-10231"
    assert stored.national_identifications.count() == 1 and stored.locations.count() == 2
    assert EntityMonitoring.objects.get(customer_person_id=twin).removed_flag
    assert 'data-testid="namesakes"' not in response.content.decode()  # settled: no warning any more
    merged_here = said.split('data-testid="merged-here">')[1].split("</p>")[0]
    assert merged_here.startswith(f'Merged into this record: <a href="/screening/customer-persons/{twin}/">KARI nordmann, added ')


def test_the_merged_record_says_where_it_went_and_takes_no_more_details(admin, twins):
    kept, twin, _ = twins
    admin.post(_merge(kept, twin))

    page = admin.get(_page(twin)).content.decode()

    banner = html.unescape(page.split('data-testid="merged-into">')[1].split("</div>")[0]).strip()
    assert banner.startswith("<strong>Merged into another record</strong> on ")
    assert f'href="/screening/customer-persons/{kept}/"' in banner
    assert "This record is no longer screened and takes no more details; its cases stay here." in banner
    for form in ("person-forms", "monitor-form", "duplicate-merge", "duplicate-remove", 'data-testid="namesakes"'):
        assert form not in page


def test_two_people_get_the_reason_and_neither_a_merge_nor_a_stop(org, admin, twins):
    kept, twin, _ = twins
    for person, reference in ((kept, "K-1"), (twin, "K-2")):
        assert patch(org.api, customer_person_url(person), {"customer_reference": reference}).status_code == 200

    page = _text(admin.get(_page(kept)))

    apart = page.split('data-testid="two-people">')[1].split("</p>")[0]
    assert apart.startswith("Same name and birth date, not the same customer: <a href=")
    assert ">KARI nordmann (K-2)</a>, added " in apart  # the reference tells two records of one name apart
    assert apart.endswith("has another customer reference (K-2) than this record (K-1): two customers, not one.")
    assert 'data-testid="namesakes"' not in page  # not "possibly the same customer"
    assert "duplicate-merge" not in page and "duplicate-remove" not in page


def test_an_admin_without_the_national_id_role_may_only_stop_screening_it(org, admin, twin_knows_more, monkeypatch):
    kept, twin = twin_knows_more
    organisation = org.admin.organisation
    organisation.api_role_keys = "aml"
    organisation.save()

    page = _text(admin.get(_page(kept)))

    assert "duplicate-merge" not in page and "duplicate-remove" in page
    only_there = page.split('data-testid="only-on-duplicate">')[1].split("</div>")[0]
    assert "national id" not in only_there  # the dry run says nothing of them without the role
    assert "has the address Bryggen 5, 5003 Bergen, NO; the customer reference K-10231. Add them here" in only_there
    assert "Merging moves them in one step; it needs the API role person_national_identification" in page
    never_sent(monkeypatch, "merge_customer_person")
    assert admin.post(_merge(kept, twin)).status_code == 403
    assert _merged_into(twin) is None


def test_officers_get_no_button_and_a_403(org, twins):
    kept, twin, _ = twins
    officer = org.member("otto", Member.Role.OFFICER)

    assert "duplicate-merge" not in officer.get(_page(kept)).content.decode()
    assert officer.post(_merge(kept, twin)).status_code == 403
    assert _merged_into(twin) is None


def test_a_person_who_is_not_a_namesake_of_the_page_is_a_404_and_nothing_is_sent(admin, twins, other_org, monkeypatch):
    kept, _, other = twins
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Kari Nordmann",
                                  birth_date="1986-10-15")["uuid"]
    never_sent(monkeypatch, "merge_customer_person")

    assert admin.post(_merge(kept, other)).status_code == 404  # born another day
    assert admin.post(_merge(kept, theirs)).status_code == 404  # another organisation's
    assert admin.post(_merge(kept, kept)).status_code == 404  # itself
    assert CustomerPerson.objects.filter(merged_into__isnull=False).count() == 0


def test_a_refusal_meanwhile_says_why_and_merges_nothing(org, admin, twins):
    kept, twin, _ = twins
    page = admin.get(_page(kept)).content.decode()
    assert _merge(kept, twin) in page
    for person, reference in ((kept, "K-1"), (twin, "K-2")):  # the page was read before the references were given
        assert patch(org.api, customer_person_url(person), {"customer_reference": reference}).status_code == 200

    response = admin.post(_merge(kept, twin), follow=True)

    said = _text(response)
    assert "KARI nordmann (K-2), added" in said and "was not merged." in said
    assert "two customers, not one" in said
    assert _merged_into(twin) is None


def test_the_customer_persons_list_says_which_record_was_merged(admin, twins):
    kept, twin, _ = twins
    admin.post(_merge(kept, twin))

    page = admin.get("/screening/approvals/?view=persons").content.decode()

    merged = page.split('data-testid="person-merged">')
    assert len(merged) == 2  # the duplicate only
    assert merged[1].startswith(f'<a href="/screening/customer-persons/{kept}/">merged into another record</a>')
