"""screening.tasks: the periodic refresh of each organisation's cached screening state."""

from __future__ import annotations

import logging
import re
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache

from portal.celery import app as celery_app
from portal.models import Member
from portal.service import ServiceUnavailable
from screening import freshness
from screening.tasks import screening_state_refresh, screening_state_refresh_all
from tests.portal.conftest import make_member
from tests.screening.steps import api_of, cases, company_with_owners, config_with, review
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401 (fixture)


def cached(organisation, name):
    return cache.get(freshness.cache_key(organisation_uuid=organisation.app_customer_uuid, name=name))


@pytest.fixture
def screened(transactional_db, lists):
    member = make_member("Nordbank ASA", "ingrid", role=Member.Role.OFFICER)
    api = api_of(member)
    config = config_with(api, "un_security_council")
    company_with_owners(api, config["uuid"], "Nordlys Shipping AS", "912345670", screened=(UN_PERSON,), pending=("Kari Nordmann",))
    return member, api, config


def test_it_refreshes_the_case_counts_and_related_states_into_the_cache(screened):
    member, api, config = screened
    organisation = member.organisation
    assert cached(organisation, freshness.CASE_COUNTS) is None

    assert screening_state_refresh(str(organisation.uuid)) == "refreshed"

    counts = cached(organisation, freshness.CASE_COUNTS)
    related = cached(organisation, freshness.RELATED_COMPANIES)
    assert counts.counts.open == 1 and counts.counts.open_sanction == 1 and counts.config_uuid == uuid.UUID(config["uuid"])
    [company] = related.companies
    assert (company.company.name, company.active_monitorings, company.pending_monitorings, company.open_cases) == (
        "Nordlys Shipping AS", 1, 1, 1,
    )
    # The page reads what the task cached: a review made meanwhile shows after the next refresh.
    [case] = cases(api, config["uuid"])["elements"]
    review(api, config["uuid"], case["screening_case"]["uuid"], "false_positive")
    page = member.client().get("/screening/related-companies/").content.decode()
    assert re.search(r'data-testid="open-cases">1<', page)
    screening_state_refresh(str(organisation.uuid))
    page = member.client().get("/screening/related-companies/").content.decode()
    assert re.search(r'data-testid="open-cases">0<', page)


def test_the_beat_task_refreshes_every_organisation_that_may_screen(screened):
    member, _, _ = screened
    without = make_member("Smaabank AS", "siv", roles=["credit_check"])

    assert screening_state_refresh_all() == 1

    assert cached(member.organisation, freshness.RELATED_COMPANIES) is not None
    assert cached(without.organisation, freshness.RELATED_COMPANIES) is None
    assert "dashboard-screening-state-refresh" in settings.CELERY_BEAT_SCHEDULE


def test_a_gone_organisation_is_logged_and_left(db, caplog):
    gone = uuid.uuid4()

    with caplog.at_level(logging.INFO, logger="screening.tasks"):
        assert screening_state_refresh(str(gone)) is None

    assert f"Organisation {gone} is gone" in caplog.text


def test_a_refusal_of_the_service_is_logged_not_raised(transactional_db, caplog):
    member = make_member("Smaabank AS", "siv", roles=["credit_check"])  # its API user cannot screen

    with caplog.at_level(logging.WARNING, logger="screening.tasks"):
        assert screening_state_refresh(str(member.organisation.uuid)) is None

    assert "not refreshed: the service answered 403" in caplog.text
    assert cached(member.organisation, freshness.CASE_COUNTS) is None


def test_an_unreachable_service_is_retried_until_it_answers(screened, monkeypatch):
    member, _, _ = screened
    real, calls = freshness.refresh_all, []

    def flaky(*, organisation):
        calls.append(organisation.uuid)
        if len(calls) < 3:
            raise ServiceUnavailable(0, "unreachable", "The service could not be reached.")
        return real(organisation=organisation)

    monkeypatch.setattr(freshness, "refresh_all", flaky)
    # Eagerly, a retry runs again at once (no countdown), as long as errors are not propagated.
    celery_app.conf.task_eager_propagates = False
    try:
        result = screening_state_refresh.apply(args=(str(member.organisation.uuid),))
    finally:
        celery_app.conf.task_eager_propagates = True

    assert result.get() == "refreshed" and len(calls) == 3
    assert cached(member.organisation, freshness.CASE_COUNTS).counts.open == 1
