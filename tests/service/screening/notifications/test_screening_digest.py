"""The daily digest: each member of a subscribed organisation gets new cases and pending
monitorings with links to the dashboard, at most once a day, and only their own."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from service.screening.models import ScreeningDigest
from service.screening.notification_tasks import screening_digests_send_all
from service.screening.notifications import config_digest_send
from tests.racing import at_once
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import cases, customer_person_screened, member_of
from tests.service.screening.helpers import customer_person_make, monitoring_make
from tests.service.screening.notifications.conftest import subscribed_config

BASE = "https://vakt.example"


def _pending_monitoring(caller, config_uuid, name: str = "Kari Nordmann") -> dict:
    person = customer_person_make(caller, config_uuid, full_name=name, birth_date=None, gender_uuid=None)
    return monitoring_make(caller, config_uuid, customer_person=person["uuid"])


@pytest.fixture
def screened(api, lists):
    """A subscribed config with two members, a sanction case, a PEP case and a pending monitoring."""
    config = subscribed_config(api, "un_security_council")
    member_of(api, "aml@nordbank.no")
    member_of(api, "compliance@nordbank.no")
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")
    customer_person_screened(api, config["uuid"], PEP_PERSON, "1961-09-30")
    _pending_monitoring(api, config["uuid"])
    return config


def test_it_sends_each_member_the_new_cases_and_pending_monitorings_with_links(api, screened, mailoutbox):
    raised = {c["screening_case"]["uuid"]: c for c in cases(api, screened["uuid"])["elements"]}
    assert len(raised) == 2

    assert screening_digests_send_all.apply().result == 1

    assert sorted(m.to[0] for m in mailoutbox) == ["aml@nordbank.no", "compliance@nordbank.no"]
    assert all(len(m.to) == 1 for m in mailoutbox)  # nobody sees the other members' addresses
    mail = mailoutbox[0]
    assert mail.subject == "Vakt screening, Nordbank ASA: 2 new cases, 1 monitoring to decide"
    assert "New sanction cases: 1" in mail.body and "New PEP cases: 1" in mail.body
    assert UN_PERSON in mail.body and PEP_PERSON in mail.body
    for case_uuid in raised:
        assert f"{BASE}/screening/cases/{case_uuid}/" in mail.body
    assert "Monitorings waiting for a decision: 1 (1 new since the last digest)." in mail.body
    assert f"{BASE}/screening/approvals/" in mail.body
    [(html, mimetype)] = mail.alternatives
    assert mimetype == "text/html"
    for case_uuid in raised:
        assert f'<a href="{BASE}/screening/cases/{case_uuid}/">' in html
    assert f'href="{BASE}/screening/approvals/"' in html


def test_a_second_run_the_same_day_sends_nothing(api, screened, mailoutbox, stopped_clock):
    config_digest_send(config_uuid=screened["uuid"])
    customer_person_screened(api, screened["uuid"], "Ivan Sergeyevich Dragunov Jr", None)  # news, but today is done

    assert config_digest_send(config_uuid=screened["uuid"]) == 0
    screening_digests_send_all.apply()

    assert len(mailoutbox) == 2  # the first run's, one per member
    assert ScreeningDigest.objects.count() == 1


def test_the_next_days_digest_has_only_what_came_after_the_last_one(api, screened, mailoutbox):
    config_digest_send(config_uuid=screened["uuid"])
    mailoutbox.clear()
    # The same time on the next day in Oslo: 24 hours on is still the same day there when the
    # clocks go back (00:00 to 01:00 on the last Sunday of October).
    tomorrow = timezone.localtime() + dt.timedelta(days=1)

    assert config_digest_send(config_uuid=screened["uuid"], now=tomorrow) == 0  # nothing new: no mail

    _pending_monitoring(api, screened["uuid"], "Ola Nordmann")
    sent = config_digest_send(config_uuid=screened["uuid"], now=tomorrow + dt.timedelta(minutes=1))
    assert sent == 2
    body = mailoutbox[0].body
    assert "New sanction cases" not in body and UN_PERSON not in body
    assert "Monitorings waiting for a decision: 2 (1 new since the last digest)." in body


def test_no_flag_no_mail(api, lists, mailoutbox):
    config = subscribed_config(api, "un_security_council", subscribed=False)
    member_of(api)
    customer_person_screened(api, config["uuid"], UN_PERSON, "1966-03-14")

    assert screening_digests_send_all.apply().result == 0
    assert config_digest_send(config_uuid=config["uuid"]) is None
    assert mailoutbox == []


def test_nothing_new_no_mail(api, lists, mailoutbox):
    config = subscribed_config(api, "un_security_council")
    member_of(api)
    assert config_digest_send(config_uuid=config["uuid"]) == 0
    assert mailoutbox == [] and not ScreeningDigest.objects.exists()  # the day is not used up


def test_another_organisations_cases_never_appear(api, other_api, screened, mailoutbox):
    theirs = subscribed_config(other_api)
    member_of(other_api, "aml@fjordkreditt.no")
    customer_person_screened(other_api, theirs["uuid"], PEP_PERSON, "1961-09-30")
    their_case = cases(other_api, theirs["uuid"])["elements"][0]["screening_case"]["uuid"]

    assert screening_digests_send_all.apply().result == 2

    by_recipient = {m.to[0]: m for m in mailoutbox}
    assert set(by_recipient) == {"aml@nordbank.no", "compliance@nordbank.no", "aml@fjordkreditt.no"}
    for ours in ("aml@nordbank.no", "compliance@nordbank.no"):
        assert their_case not in by_recipient[ours].body
    their_mail = by_recipient["aml@fjordkreditt.no"]
    assert their_mail.subject == "Vakt screening, Fjordkreditt AS: 1 new case"
    assert their_case in their_mail.body and UN_PERSON not in their_mail.body
    assert "Monitorings waiting" not in their_mail.body


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent writers")
def test_two_workers_at_once_send_one_digest(api, screened, mailoutbox):
    results = at_once(*[lambda: config_digest_send(config_uuid=screened["uuid"])] * 4)
    assert sorted(results) == [0, 0, 0, 2]
    assert len(mailoutbox) == 2 and ScreeningDigest.objects.count() == 1
