"""An admin puts a customer person under monitoring again on the person's page
(POST /screening/customer-persons/<uuid>/monitor/): after a removal, or when the person was
never monitored; screened at once or left for a decision; never a second monitoring."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from service.screening.models import EntityMonitoring, ScreeningCase
from tests.screening.setup_helpers import admin, org, other_org  # noqa: F401 (fixtures)
from tests.service.screening.cases.conftest import PEP_PERSON, lists  # noqa: F401 (fixture)
from tests.service.screening.cases.steps import customer_person_screened
from tests.service.screening.helpers import config_make, customer_person_make
from tests.screening.helpers import service_down, never_sent


def _page(person_uuid) -> str:
    return f"/screening/customer-persons/{person_uuid}/"


def _monitor(person_uuid) -> str:
    return f"{_page(person_uuid)}monitor/"


def _statuses(person_uuid) -> list[str]:
    rows = EntityMonitoring.objects.filter(customer_person_id=person_uuid).order_by("create_timestamp")
    return ["removed" if m.removed_flag else "kept" for m in rows]


@pytest.fixture
def kari(org):
    config = config_make(org.api)
    return customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]


def test_a_customer_whose_monitoring_was_removed_is_screened_again_at_once(org, admin, lists):
    config = config_make(org.api)
    monitoring = customer_person_screened(org.api, config["uuid"], PEP_PERSON, "1961-09-30")
    person = monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]
    ScreeningCase.objects.all().delete()  # the first screening's case, so that the new one shows
    removed = admin.post("/screening/approvals/remove/", {"monitoring": monitoring["entity_monitoring"]["uuid"],
                                                          "name": PEP_PERSON, "reason": "Left the bank"})
    assert removed.status_code == 302
    gone = admin.get(f"/screening/monitorings/{monitoring['entity_monitoring']['uuid']}/").content.decode()
    assert (f'<a href="{_page(person)}" data-testid="customer-person-link">{PEP_PERSON}\'s page</a>: '
            "national ids and addresses; to screen the person again, put them under monitoring there.") in gone
    page = admin.get(_page(person)).content.decode()
    assert 'data-testid="monitor-form"' in page and ">Monitor again</button>" in page

    response = admin.post(_monitor(person), {"approve": "on", "comment": "Came back as a customer"}, follow=True)

    page = response.content.decode()
    assert response.redirect_chain == [(_page(person), 302)]
    assert f"{PEP_PERSON} is screened from now on." in page
    assert 'data-testid="monitor-form"' not in page  # monitored now: no second one offered
    badges = re.findall(r'data-testid="monitoring-status"[^>]*>([^<]+)<', page) or re.findall(r'class="badge[^"]*"[^>]*>(Screened|Removed)<', page)
    assert badges[:2] == ["Screened", "Removed"]  # newest first
    assert _statuses(person) == ["removed", "kept"]
    new = EntityMonitoring.objects.get(customer_person_id=person, removed_flag=False)
    assert new.monitoring_comment == "Came back as a customer"
    assert ScreeningCase.objects.filter(pep_flag=True).count() == 1  # screened on commit, with the new monitoring


def test_without_approval_the_monitoring_waits_for_a_decision(admin, kari):
    page = admin.get(_page(kari)).content.decode()
    assert ">Put under monitoring</button>" in page  # never monitored

    response = admin.post(_monitor(kari), {"comment": ""}, follow=True)

    assert "Kari Nordmann waits for approval under Pending." in response.content.decode()
    new = EntityMonitoring.objects.get(customer_person_id=kari)
    assert new.monitoring_comment == "Put under monitoring again on the customer person's page."
    assert not new.decisions.exists()


def test_a_person_already_monitored_gets_no_second_monitoring(admin, kari, monkeypatch):
    admin.post(_monitor(kari), {"comment": "first"})

    never_sent(monkeypatch, "monitor_customer_person")
    response = admin.post(_monitor(kari), {"approve": "on", "comment": "second"}, follow=True)
    assert "Kari Nordmann is already under monitoring." in response.content.decode()
    assert _statuses(kari) == ["kept"]


def test_a_too_long_comment_is_refused_at_the_field(admin, kari):
    response = admin.post(_monitor(kari), {"approve": "on", "comment": "x" * 4001})

    assert response.status_code == 200
    assert list(response.context["monitor_form"].errors) == ["comment"]
    assert 'data-testid="field-error-comment"' in response.content.decode()
    assert _statuses(kari) == []


def test_officers_and_viewers_get_403_and_see_no_form(org, kari):
    for role in (Member.Role.OFFICER, Member.Role.VIEWER):
        client = org.member(f"m-{role}", role)
        assert client.post(_monitor(kari), {"approve": "on"}).status_code == 403
        assert 'data-testid="monitor-form"' not in client.get(_page(kari)).content.decode()
    assert _statuses(kari) == []


def test_another_organisations_person_is_404_and_nothing_is_written(admin, other_org):
    theirs = customer_person_make(other_org.api, config_make(other_org.api)["uuid"], full_name="Olav Fjord")["uuid"]
    assert admin.post(_monitor(theirs), {"approve": "on"}).status_code == 404
    assert _statuses(theirs) == []


def test_an_unreachable_service_is_a_sentence_on_the_form(admin, kari, monkeypatch):
    service_down(monkeypatch, "monitor_customer_person")
    response = admin.post(_monitor(kari), {"approve": "on"})
    assert response.status_code == 503
    form = re.search(r'<form[^>]*data-testid="monitor-form".*?</form>', response.content.decode(), re.S).group(0)
    assert 'data-testid="form-error">The service could not be reached' in form
    assert _statuses(kari) == []
