"""With the setup's four-eyes review, an admin asks to release a legal hold on a customer person's
page (POST .../hold/<uuid>/release/) and another admin confirms it there, or keeps the hold
(.../hold/<uuid>/keep/); the asker may withdraw the request. The monitoring page's forms are
the same partial and the same senders (`screening/holds.py`)."""

from __future__ import annotations

import html
import re

import pytest
from dateutil.relativedelta import relativedelta
from django.utils import timezone

from portal.models import Member
from service.screening.models import CustomerPerson, ScreeningConfig, ScreeningRecordsHold
from service.screening.tasks import screening_records_retention
from tests.screening.setup_helpers import admin, org  # noqa: F401 (fixtures)
from tests.service.companies.factories import company_make
from tests.service.screening.helpers import config_make, customer_person_make, monitoring_make

REASON = "Our case 2026-114: the police asked for the records."


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def held(org, admin):
    """Kari Nordmann, past her period and held by ingrid (the admin), under four-eyes review."""
    config = config_make(org.api)
    ScreeningConfig.objects.filter(uuid=config["uuid"]).update(four_eyes_review_flag=True)
    person = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - relativedelta(years=6))
    assert admin.post(f"{_page(person)}hold/", {"reason": REASON}).status_code == 302
    return {"person": person, "hold": ScreeningRecordsHold.objects.get().uuid}


def _release(client, held, reason="Case 2026-114 closed.", step=""):
    return client.post(f"{_page(held['person'])}hold/{held['hold']}/release/", {"release_reason": reason, "step": step},
                       follow=True)


def _keep(client, held, reason="The police have not closed it."):
    return client.post(f"{_page(held['person'])}hold/{held['hold']}/keep/", {"keep_reason": reason}, follow=True)


def test_one_admin_asks_and_another_confirms(org, admin, held):
    page = _text(admin.get(_page(held["person"])))
    assert ">Ask to release the hold</button>" in page
    assert "Four-eyes review: another admin confirms the release before anything is deleted." in page

    asked = _text(_release(admin, held))

    assert ("The release of Kari Nordmann's records is asked for: it takes effect when another admin confirms it "
            "(four-eyes review). Until then nothing is deleted.") in asked
    box = re.search(r'data-testid="release-requested">(.*?)</div>', asked, re.S).group(1)
    assert "<strong>Release asked for</strong> by ingrid@" in box and ": Case 2026-114 closed." in box
    assert "Another admin must confirm it (four-eyes review); you can withdraw it." in asked
    assert ">Withdraw the request</button>" in asked and ">Confirm the release</button>" not in asked
    assert ScreeningRecordsHold.objects.get().in_force
    assert screening_records_retention.apply().get() == 0

    anna = org.member("anna", Member.Role.ADMIN, acting=True)
    theirs = _text(anna.get(_page(held["person"])))
    assert "It takes effect when another admin confirms it (four-eyes review)." in theirs
    assert ">Confirm the release</button>" in theirs and ">Keep the hold</button>" in theirs
    tab = _text(anna.get("/screening/approvals/", {"view": "holds"}))
    assert 'data-testid="hold-release-requested">release asked for by ingrid@' in tab

    confirmed = _text(_release(anna, held, "Checked with the police: closed."))

    assert "The hold on Kari Nordmann's records is released: their retention period applies again." in confirmed
    hold = ScreeningRecordsHold.objects.get()
    assert not hold.in_force and hold.release_reason == "Checked with the police: closed."
    assert screening_records_retention.apply().get() == 1


def test_another_admin_keeps_the_hold_and_the_asker_can_withdraw(org, admin, held):
    _release(admin, held)
    anna = org.member("anna", Member.Role.ADMIN, acting=True)

    blank = anna.post(f"{_page(held['person'])}hold/{held['hold']}/keep/", {"keep_reason": " "})
    assert 'data-testid="field-error-keep_reason">Say why the records are still needed.' in blank.content.decode()
    kept = _text(_keep(anna, held))

    assert "The hold on Kari Nordmann's records stays: no release waits any longer." in kept
    assert 'data-testid="release-requested"' not in kept and ">Ask to release the hold</button>" in kept
    assert ScreeningRecordsHold.objects.get().release_requested_timestamp is None

    _release(admin, held)
    withdrawn = _text(_keep(admin, held, "Asked too early."))
    assert "no release waits any longer" in withdrawn and ScreeningRecordsHold.objects.get().in_force


def test_the_asker_confirming_is_refused_on_the_form(org, admin, held):
    _release(admin, held)

    again = admin.post(f"{_page(held['person'])}hold/{held['hold']}/release/", {"release_reason": "Closed, I said."})

    assert again.status_code == 302  # from a page read before the request: back, with the service's word
    page = _text(admin.get(_page(held["person"])))
    assert "so another admin must confirm it. You can withdraw the request by keeping the hold." in page
    assert 'data-testid="hold-release"' not in page  # the asker is offered the withdrawal only
    assert ScreeningRecordsHold.objects.get().in_force


def test_officers_see_the_request_without_its_reason_and_cannot_keep(org, admin, held):
    _release(admin, held)
    officer = org.member("officer", Member.Role.OFFICER)

    page = _text(officer.get(_page(held["person"])))

    assert "<strong>Release asked for</strong> by ingrid@" in page and "Case 2026-114 closed." not in page
    assert 'data-testid="hold-keep"' not in page and 'data-testid="hold-release"' not in page
    assert officer.post(f"{_page(held['person'])}hold/{held['hold']}/keep/", {"keep_reason": "No."}).status_code == 403
    assert ScreeningRecordsHold.objects.get().release_requested_timestamp is not None


def test_on_a_monitoring_page_the_same_forms_ask_confirm_and_keep(org, admin):
    config = config_make(org.api)
    ScreeningConfig.objects.filter(uuid=config["uuid"]).update(four_eyes_review_flag=True)
    company = company_make(name="Nordlys AS")
    monitoring = monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company",
                                 decision={"approved_flag": True})["entity_monitoring"]["uuid"]
    page = f"/screening/monitorings/{monitoring}/"
    assert admin.post(f"{page}hold/", {"reason": REASON}).status_code == 302
    hold = ScreeningRecordsHold.objects.get().uuid

    asked = _text(admin.post(f"{page}hold/{hold}/release/", {"release_reason": "Dispute settled."}, follow=True))
    assert "The release of Nordlys AS's records is asked for" in asked and ">Withdraw the request</button>" in asked
    anna = org.member("anna", Member.Role.ADMIN, acting=True)
    kept = _text(anna.post(f"{page}hold/{hold}/keep/", {"keep_reason": "Not settled yet."}, follow=True))
    assert "The hold on Nordlys AS's records stays" in kept
    again = _text(anna.post(f"{page}hold/{hold}/keep/", {"keep_reason": "Again."}, follow=True))  # a page read before
    assert "The release of Nordlys AS's records was withdrawn or turned down meanwhile: the hold stays in force." in again
    assert ScreeningRecordsHold.objects.get().in_force


def test_a_page_read_before_another_admin_acted_does_not_do_the_other_step(org, admin, held):
    """Anna's page offered "Ask to release"; ingrid asked meanwhile: anna's ask is not taken as a
    confirmation of ingrid's request (which would release the hold with nobody having checked it)."""
    anna = org.member("anna", Member.Role.ADMIN, acting=True)
    assert ">Ask to release the hold</button>" in _text(anna.get(_page(held["person"])))
    _release(admin, held, step="ask")

    stale = _text(_release(anna, held, "Closed.", step="ask"))

    assert ("Another admin asked for the release of Kari Nordmann's records meanwhile: confirm it or keep the hold "
            "below.") in stale
    assert ">Confirm the release</button>" in stale  # the page read again offers what is possible now
    hold = ScreeningRecordsHold.objects.get()
    assert (hold.in_force, hold.release_requested_by.email, hold.release_request_reason) == (
        True, "ingrid@example.com", "Case 2026-114 closed.")

    # Ingrid withdraws; anna's page still offers "Confirm the release": it does not ask instead.
    _keep(admin, held, "Asked too early.")
    withdrawn = _text(_release(anna, held, "Closed.", step="confirm"))
    assert "The release of Kari Nordmann's records was withdrawn or turned down meanwhile" in withdrawn
    assert ScreeningRecordsHold.objects.get().release_requested_timestamp is None


def test_with_four_eyes_switched_off_a_request_is_not_shown_and_one_admin_releases(org, admin, held):
    _release(admin, held, step="ask")
    ScreeningConfig.objects.update(four_eyes_review_flag=False)  # a request the switch-off did not see

    page = _text(admin.get(_page(held["person"])))

    assert 'data-testid="release-requested"' not in page and "another admin" not in page
    assert ">Release the hold</button>" in page
    released = _text(_release(admin, held, step="release"))
    assert "The hold on Kari Nordmann's records is released" in released
