"""An admin places a legal hold on a customer person's records on the person's page
(POST /screening/customer-persons/<uuid>/hold/) and releases it
(.../hold/<hold uuid>/release/): while it is in force nothing of the person is deleted."""

from __future__ import annotations

import html
import re
import pytest
from dateutil.relativedelta import relativedelta
from django.utils import timezone

from portal.models import Member
from portal.service.holds import HoldsArea
from portal.service import ServiceBadRequest, ServiceUnavailable
from service.screening.models import CustomerPerson, ScreeningRecordsHold
from service.screening.tasks import screening_records_retention
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.helpers import config_make, customer_person_make

REASON = "Reported to the FIU on 12.03.2026; the police asked for the records."


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _hold(person_uuid) -> str:
    return f"{_page(person_uuid)}hold/"


@pytest.fixture
def former(org):
    """Kari Nordmann, added six years ago and never monitored: due for deletion."""
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - relativedelta(years=6))
    return person


def test_a_held_person_outlives_the_period_until_the_hold_is_released(admin, former):
    response = admin.post(_hold(former), {"reason": REASON}, follow=True)

    page = html.unescape(response.content.decode())
    assert response.redirect_chain == [(_page(former), 302)]
    assert "Kari Nordmann's records are held: nothing is deleted until the hold is released." in page
    box = re.search(r'data-testid="records-hold">(.*?)</form>', page, re.S).group(1)
    assert f"<strong>Held past the retention period</strong>: {REASON}" in box
    assert f"Placed {timezone.localdate().strftime('%d.%m.%Y')} by ingrid@" in box
    assert 'data-testid="person-retention"' not in page and 'data-testid="hold-form"' not in page
    listed = admin.get("/screening/approvals/", {"view": "persons"}).content.decode()
    assert 'data-testid="person-kept-until">held past retention</div>' in listed
    assert screening_records_retention.apply().get() == 0
    assert admin.get(_page(former)).status_code == 200

    hold = ScreeningRecordsHold.objects.get()
    blank = admin.post(f"{_hold(former)}{hold.uuid}/release/", {"release_reason": ""})
    assert 'data-testid="field-error-release_reason">Say why the records need not be kept any longer.' in blank.content.decode()
    assert ScreeningRecordsHold.objects.get().in_force
    released = admin.post(f"{_hold(former)}{hold.uuid}/release/", {"release_reason": "Case closed."}, follow=True)

    page = html.unescape(released.content.decode())
    assert "The hold on Kari Nordmann's records is released: their retention period applies again." in page
    assert ScreeningRecordsHold.objects.get().release_reason == "Case closed."
    ended = timezone.localtime(CustomerPerson.objects.get(uuid=former).create_timestamp + relativedelta(years=5))
    assert (f'data-testid="person-retention">The retention period ended on {ended.strftime("%d.%m.%Y")}, 5 years after '
            "it was added. Kari Nordmann is deleted by the next daily pass, as the AML acts ask, unless put under "
            "monitoring before.</p>") in page
    listed = admin.get("/screening/approvals/", {"view": "persons"}).content.decode()
    assert 'data-testid="person-kept-until">deleted by the next daily pass</div>' in listed
    assert screening_records_retention.apply().get() == 1
    assert admin.get(_page(former)).status_code == 404


def test_a_blank_reason_is_refused_at_the_field_with_nothing_sent(admin, former, monkeypatch):
    monkeypatch.setattr(HoldsArea, "place", lambda *a, **k: pytest.fail("nothing should be sent"))
    response = admin.post(_hold(former), {"reason": "   "})
    page = response.content.decode()
    assert response.status_code == 200
    assert '<details class="mt-2" open data-testid="hold-form">' in page
    assert 'data-testid="field-error-reason">' in page
    assert not ScreeningRecordsHold.objects.exists()


def test_the_services_refusal_lands_at_the_field(admin, former, monkeypatch):
    def refused(*args, **kwargs):
        raise ServiceBadRequest(400, "already_held", "Invalid value for entity_uuid", errors=[
            {"loc": ["body", "entity_uuid"], "msg": "a hold on these records is in force already: release it first"}])

    monkeypatch.setattr(HoldsArea, "place", refused)
    response = admin.post(_hold(former), {"reason": REASON})
    assert ('data-testid="field-error-reason">a hold on these records is in force already: release it first'
            in response.content.decode())


def test_others_see_that_the_records_are_held_not_why(org, admin, former):
    assert admin.post(_hold(former), {"reason": REASON}).status_code == 302
    officer = org.member("officer", Member.Role.OFFICER)
    page = html.unescape(officer.get(_page(former)).content.decode())
    assert "<strong>Held past the retention period</strong> <span class=\"text-secondary\">(admins read why)</span>" in page
    assert REASON not in page and 'data-testid="hold-release"' not in page


def test_only_admins_hold_or_release(org, admin, former):
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        assert client.post(_hold(former), {"reason": REASON}).status_code == 403
        assert 'data-testid="hold-form"' not in client.get(_page(former)).content.decode()
    assert not ScreeningRecordsHold.objects.exists()
    assert admin.post(_hold(former), {"reason": REASON}).status_code == 302
    hold = ScreeningRecordsHold.objects.get()
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"r-{role}", role)
        assert client.post(f"{_hold(former)}{hold.uuid}/release/", {"release_reason": "Case closed."}).status_code == 403
    assert ScreeningRecordsHold.objects.get().in_force


def test_a_hold_of_another_person_or_organisation_is_404(admin, org, other_org, former):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")["uuid"]
    assert admin.post(_hold(theirs), {"reason": REASON}).status_code == 404
    assert admin.post(_hold(former), {"reason": REASON}).status_code == 302
    other = customer_person_make(org.api, config_make(org.api)["uuid"], full_name="Per Hansen")["uuid"]
    hold = ScreeningRecordsHold.objects.get()
    assert admin.post(f"{_hold(other)}{hold.uuid}/release/").status_code == 404  # not that person's hold
    assert ScreeningRecordsHold.objects.get().released_timestamp is None


def test_an_unreachable_service_is_a_sentence_on_the_form(admin, former, monkeypatch):
    def down(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(HoldsArea, "place", down)
    response = admin.post(_hold(former), {"reason": REASON})
    assert response.status_code == 503
    form = re.search(r'data-testid="hold-form">.*?</form>', response.content.decode(), re.S).group(0)
    assert 'data-testid="form-error">The service could not be reached' in form
    assert not ScreeningRecordsHold.objects.exists()
