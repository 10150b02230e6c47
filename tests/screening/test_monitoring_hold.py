"""A register person's or company's monitoring page says until when its screening records are
kept, and an admin places a legal hold on them there (POST /screening/monitorings/<uuid>/hold/)
or releases it (.../hold/<hold uuid>/release/)."""

from __future__ import annotations

import html
import re

import pytest
from dateutil.relativedelta import relativedelta
from django.utils import timezone

from portal.models import Member
from portal.service import ServiceUnavailable
from portal.service.holds import HoldsArea
from service.screening.models import EntityMonitoring, ScreeningRecordsHold
from service.screening.tasks import screening_records_retention
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.companies.factories import company_make, person_make
from tests.service.screening.helpers import config_make, config_url, customer_person_make, monitoring_make, patch

REASON = "Økokrim asked for the records of Nordlys AS and its owner."
RETENTION = relativedelta(years=5)


def _page(monitoring_uuid) -> str:
    return f"/screening/monitorings/{monitoring_uuid}/"


def _day(moment) -> str:
    return timezone.localtime(moment).strftime("%d.%m.%Y")


@pytest.fixture
def former(org):
    """Nordlys AS and its owner Kari Nordmann, both monitorings removed six years ago."""
    config = config_make(org.api)
    company, owner = company_make(name="Nordlys AS"), person_make(full_name="Kari Nordmann")
    made = {
        "owner": monitoring_make(org.api, config["uuid"], person=owner.uuid, related_company=company.uuid,
                                 type_key="beneficial_owners", decision={"approved_flag": True}),
        "company": monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company",
                                   decision={"approved_flag": True}),
    }
    for monitoring in made.values():
        response = patch(org.api, config_url(config["uuid"], f"/entity-monitoring/{monitoring['entity_monitoring']['uuid']}"),
                         {"removed_flag": True, "removal_reason": "No longer a customer."})
        assert response.status_code == 200
    return {key: m["entity_monitoring"]["uuid"] for key, m in made.items()}


def test_the_page_says_until_when_the_records_are_kept(admin, former):
    EntityMonitoring.objects.update(removed_timestamp=timezone.now() - relativedelta(years=1))
    until = _day(EntityMonitoring.objects.get(uuid=former["company"]).removed_timestamp + RETENTION)

    company = html.unescape(admin.get(_page(former["company"])).content.decode())
    owner = html.unescape(admin.get(_page(former["owner"])).content.decode())

    assert (f'data-testid="records-retention">Records kept until {until}, 5 years after its last monitoring was '
            "removed. Then the monitorings and the cases of Nordlys AS in this setup are deleted, as the AML acts ask, "
            "unless monitored again before; the register keeps the company.</p>") in company
    assert (f'data-testid="records-retention">Records kept until {until}, 5 years after its monitorings, and those of '
            "the companies it was screened for, were removed.") in owner
    assert 'data-testid="hold-form"' in company
    # Its cases are one click away, before anyone removes it or lets its records go.
    assert ('href="/screening/cases/?q=Nordlys+AS&amp;status=all" data-testid="monitoring-cases">Screening cases of '
            "Nordlys AS</a>") in admin.get(_page(former["company"])).content.decode()


def test_a_hold_on_the_company_keeps_its_owner_until_released(admin, former):
    EntityMonitoring.objects.update(removed_timestamp=timezone.now() - relativedelta(years=6))

    response = admin.post(f"{_page(former['company'])}hold/", {"reason": REASON}, follow=True)

    page = html.unescape(response.content.decode())
    assert response.redirect_chain == [(_page(former["company"]), 302)]
    assert "Nordlys AS's records are held: nothing is deleted until the hold is released." in page
    assert f"<strong>Held past the retention period</strong>: {REASON}" in page
    assert 'data-testid="records-retention"' not in page
    owner = html.unescape(admin.get(_page(former["owner"])).content.decode())
    assert ('data-testid="records-hold">Held past the retention period with the records of Nordlys AS: a hold on a '
            "company keeps the persons screened for it.") in owner
    assert 'data-testid="hold-form"' not in owner
    assert screening_records_retention.apply().get() == 0

    hold = ScreeningRecordsHold.objects.get()
    released = admin.post(f"{_page(former['company'])}hold/{hold.uuid}/release/", {"release_reason": "Case closed."},
                          follow=True)

    page = html.unescape(released.content.decode())
    assert "The hold on Nordlys AS's records is released: their retention period applies again." in page
    ended = _day(EntityMonitoring.objects.get(uuid=former["company"]).removed_timestamp + RETENTION)
    assert (f'data-testid="records-retention">The retention period of its records ended on {ended}, 5 years after its '
            "last monitoring was removed. The monitorings and the cases of Nordlys AS in this setup are deleted by the "
            "next daily pass, as the AML acts ask, unless monitored again before; the register keeps the company.</p>") in page
    assert screening_records_retention.apply().get() == 2
    assert admin.get(_page(former["company"])).status_code == 404


def test_a_blank_reason_is_refused_at_the_field_and_a_removal_still_comes_back_here(org, admin, monkeypatch):
    config = config_make(org.api)
    company = company_make(name="Fjellheim AS")
    monitoring = monitoring_make(org.api, config["uuid"], company=company.uuid, type_key="company",
                                 decision={"approved_flag": True})["entity_monitoring"]["uuid"]
    monkeypatch.setattr(HoldsArea, "place", lambda *a, **k: pytest.fail("nothing should be sent"))

    page = admin.post(f"{_page(monitoring)}hold/", {"reason": ""}).content.decode()

    assert '<details class="mt-2" open data-testid="hold-form">' in page and 'data-testid="field-error-reason">' in page
    assert re.findall(r'name="next" value="([^"]+)"', page) == [_page(monitoring)]  # the remove form's way back


def test_a_retention_read_that_fails_says_nothing_was_sent(admin, former, monkeypatch):
    def down(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(HoldsArea, "retention", down)
    monkeypatch.setattr(HoldsArea, "place", lambda *a, **k: pytest.fail("nothing should be sent"))
    response = admin.post(f"{_page(former['company'])}hold/", {"reason": REASON})
    assert response.status_code == 503
    assert "The hold was not placed. The service could not be reached" in html.unescape(response.content.decode())


def test_an_unreachable_service_is_a_sentence_on_the_form(admin, former, monkeypatch):
    def down(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(HoldsArea, "place", down)
    response = admin.post(f"{_page(former['owner'])}hold/", {"reason": REASON})
    assert response.status_code == 503
    form = re.search(r'data-testid="hold-form">.*?</form>', response.content.decode(), re.S).group(0)
    assert 'data-testid="form-error">The service could not be reached' in form
    assert not ScreeningRecordsHold.objects.exists()


def test_only_admins_hold_and_a_customer_persons_monitoring_holds_on_its_page(org, admin, former):
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        assert client.post(f"{_page(former['company'])}hold/", {"reason": REASON}).status_code == 403
        assert 'data-testid="hold-form"' not in client.get(_page(former["company"])).content.decode()
    assert admin.post(f"{_page(former['company'])}hold/", {"reason": REASON}).status_code == 302
    hold = ScreeningRecordsHold.objects.get()
    officer = org.member("officer", Member.Role.OFFICER)
    page = html.unescape(officer.get(_page(former["company"])).content.decode())
    assert '<strong>Held past the retention period</strong> <span class="text-secondary">(admins read why)</span>' in page
    assert REASON not in page and 'data-testid="hold-release"' not in page
    released = officer.post(f"{_page(former['company'])}hold/{hold.uuid}/release/", {"release_reason": "Case closed."})
    assert released.status_code == 403 and ScreeningRecordsHold.objects.get().in_force
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Per Hansen")["uuid"]
    customer = monitoring_make(org.api, config["uuid"], customer_person=person)["entity_monitoring"]["uuid"]
    page = admin.get(_page(customer)).content.decode()
    assert 'data-testid="hold-form"' not in page and 'data-testid="records-retention"' not in page  # its page says it
    assert admin.post(f"{_page(customer)}hold/", {"reason": REASON}).status_code == 404
    assert ScreeningRecordsHold.objects.count() == 1  # the company's only


def test_another_organisations_monitoring_or_a_strange_hold_is_404(admin, other_org, former):
    theirs_config = config_make(other_org.api)
    theirs = monitoring_make(other_org.api, theirs_config["uuid"], company=company_make(name="Fjord AS").uuid,
                             type_key="company", decision={"approved_flag": True})["entity_monitoring"]["uuid"]
    assert admin.post(f"{_page(theirs)}hold/", {"reason": REASON}).status_code == 404
    assert admin.post(f"{_page(former['company'])}hold/", {"reason": REASON}).status_code == 302
    hold = ScreeningRecordsHold.objects.get()
    assert admin.post(f"{_page(former['owner'])}hold/{hold.uuid}/release/").status_code == 404  # not the owner's hold
    assert ScreeningRecordsHold.objects.get().released_timestamp is None
