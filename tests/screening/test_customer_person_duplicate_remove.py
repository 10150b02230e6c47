"""An admin keeps one of two records of the same customer (same name and birth date) and stops
screening the other from the kept one's page
(POST /screening/customer-persons/<uuid>/duplicates/<other>/remove/): the other's monitoring is
removed with a reason naming the record kept; its cases stay on it. Only a namesake the page names
can be stopped, only by an admin."""

from __future__ import annotations

import html

from portal.models import Member
from portal.service import ServiceUnavailable
from portal.service.screening import ScreeningArea
from service.audit.models import AuditEvent
from service.screening.models import EntityMonitoring
from tests.screening.helpers import never_sent, service_down
from tests.screening.duplicates import twin_knows_more, twins  # noqa: F401 (fixtures)
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make, customer_person_make


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _stop(kept_uuid, other_uuid) -> str:
    return f"{_page(kept_uuid)}duplicates/{other_uuid}/remove/"


def _removed(person_uuid) -> EntityMonitoring | None:
    return EntityMonitoring.objects.filter(customer_person_id=person_uuid, removed_flag=True).first()


def test_it_stops_screening_the_duplicate_naming_the_record_kept(admin, twins):
    kept, twin, _ = twins
    page = admin.get(_page(kept)).content.decode()
    assert f'action="{_stop(kept, twin)}"' in page and "Keep this record: stop screening KARI nordmann, added" in html.unescape(page)

    response = admin.post(_stop(kept, twin), follow=True)

    removal = _removed(twin)
    assert removal.removal_reason == (
        f"A duplicate of the customer person Kari Nordmann, born 15.10.1986 ({kept}), who is screened under that record.")
    assert _removed(kept) is None  # the record kept is screened as before
    assert "is no longer screened: a duplicate of this record. Its cases stay on it." in html.unescape(response.content.decode())
    assert AuditEvent.objects.filter(action_key="entity_monitoring.remove", object_uuid=removal.uuid).exists()
    assert f'action="{_stop(kept, twin)}"' not in response.content.decode()  # removed: no button any more


def test_a_person_who_is_not_a_namesake_of_the_page_is_a_404_and_nothing_is_sent(admin, twins, monkeypatch):
    kept, _, other = twins
    never_sent(monkeypatch, "remove_monitoring")

    assert admin.post(_stop(kept, other)).status_code == 404  # born another day
    assert admin.post(_stop(kept, kept)).status_code == 404  # itself
    assert _removed(other) is None and _removed(kept) is None


def test_another_organisations_person_is_a_404(admin, twins, other_org):
    kept, twin, _ = twins
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Kari Nordmann",
                                  birth_date="1986-10-15")["uuid"]

    assert admin.post(_stop(kept, theirs)).status_code == 404
    assert other_org.admin.client().post(_stop(theirs, twin)).status_code == 404
    assert _removed(twin) is None


def _only_there(page: str) -> str:
    return html.unescape(page.split('data-testid="only-on-duplicate">')[1].split("</div>")[0])


def test_it_names_what_only_the_duplicate_holds_before_it_is_stopped(admin, twin_knows_more):
    kept, twin = twin_knows_more

    page = admin.get(_page(kept)).content.decode()

    only_there = _only_there(page)
    assert only_there.startswith("Only the record of KARI nordmann (K-10231), added ")
    assert only_there.endswith(", has the national id NO 151086*****; the address Bryggen 5, 5003 Bergen, NO; the customer "
                               "reference K-10231. Merging it into this record moves them here and stops its screening, in one step.")
    assert "Storgata" not in only_there  # the record kept has it too
    assert "15108695088" not in page  # the number is the other record's to show, not this page's
    confirm = html.unescape(page.split('data-testid="duplicate-remove"')[1].split('">')[0])
    assert "Its cases stay on it. Only that record has the national id NO 151086*****; the address Bryggen 5, 5003 " \
           "Bergen, NO; the customer reference K-10231: merge it instead to move them here." in confirm


def test_what_only_the_duplicate_holds_leaves_out_national_ids_a_role_does_not_show(org, admin, twin_knows_more):
    kept, _ = twin_knows_more
    organisation = org.admin.organisation
    organisation.api_role_keys = "aml"
    organisation.save()

    only_there = _only_there(admin.get(_page(kept)).content.decode())

    assert "national id" not in only_there and "NO 151086" not in only_there
    assert "has the address Bryggen 5, 5003 Bergen, NO; the customer reference K-10231. Add them here" in only_there


def test_a_duplicate_that_holds_nothing_more_gets_no_advice(admin, twins):
    kept, twin, _ = twins

    page = admin.get(_page(kept)).content.decode()

    assert 'data-testid="only-on-duplicate"' not in page
    confirm = html.unescape(page.split('data-testid="duplicate-remove"')[1].split('">')[0])
    assert confirm.endswith("as its duplicate? Its cases stay on it.")


def test_a_duplicate_the_service_cannot_preview_gets_the_general_advice(admin, twin_knows_more, monkeypatch):
    kept, twin = twin_knows_more
    def unavailable(area, uuid, duplicate_uuid, *, dry_run=False):
        raise ServiceUnavailable(503, "unavailable", "try again")

    monkeypatch.setattr(ScreeningArea, "merge_customer_person", unavailable)

    page = admin.get(_page(kept)).content.decode()

    assert 'data-testid="only-on-duplicate"' not in page
    confirm = html.unescape(page.split('data-testid="duplicate-remove"')[1].split('">')[0])
    assert confirm.endswith("Its cases stay on it. Add a national id or an address only it has to this record first.")


def test_officers_get_no_button_and_a_403(org, twins):
    kept, twin, _ = twins
    officer = org.member("otto", Member.Role.OFFICER)

    assert "duplicate-remove" not in officer.get(_page(kept)).content.decode()
    assert officer.post(_stop(kept, twin)).status_code == 403
    assert _removed(twin) is None


def test_a_duplicate_removed_meanwhile_says_so(admin, twins):
    kept, twin, _ = twins
    admin.post(_stop(kept, twin))

    again = admin.post(_stop(kept, twin), follow=True)

    assert "is not under monitoring: nothing to stop." in html.unescape(again.content.decode())
    assert EntityMonitoring.objects.filter(customer_person_id=twin, removed_flag=True).count() == 1


def test_an_unreachable_service_says_the_duplicate_is_still_screened(admin, twins, monkeypatch):
    kept, twin, _ = twins
    service_down(monkeypatch, "remove_monitoring")

    response = admin.post(_stop(kept, twin))

    assert response.status_code == 503
    assert "is still screened." in html.unescape(response.content.decode())
    assert _removed(twin) is None


def test_a_record_not_screened_itself_cannot_stop_the_other(admin, twins):
    # Kept's monitoring removed (say, as the other's duplicate): stopping the other too would leave the customer unscreened.
    kept, twin, _ = twins
    assert admin.post(_stop(twin, kept)).status_code == 302

    page = admin.get(_page(kept)).content.decode()
    response = admin.post(_stop(kept, twin), follow=True)

    assert "duplicate-remove" not in page
    assert "is not screened under this record: approve its monitoring first" in html.unescape(response.content.decode())
    assert _removed(twin) is None
