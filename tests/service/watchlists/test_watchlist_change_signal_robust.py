"""`watchlist_companies_changed` is sent after commit: a receiver that raises is logged, the
caller still gets its answer for the change it made, and the other receivers still run.

These tests commit for real (transactional database), so the signal is sent inside the
request, where a raising receiver used to become a 500 for a change already saved."""

import logging

import pytest

from service.watchlists.models import WatchlistCompany
from service.watchlists.signals import watchlist_companies_changed
from tests.service.companies.factories import company_make
from tests.service.watchlists.helpers import SignalRecorder, companies_url, entry, watchlist_make


@pytest.fixture
def failing_then_recording(transactional_db):
    """A receiver that raises, connected before one that records."""

    def failing(sender, **kwargs):
        raise RuntimeError("screening is away")

    recorder = SignalRecorder()
    watchlist_companies_changed.connect(failing, dispatch_uid="test-failing")
    watchlist_companies_changed.connect(recorder, dispatch_uid="test-recorder")
    yield recorder.calls
    watchlist_companies_changed.disconnect(dispatch_uid="test-failing")
    watchlist_companies_changed.disconnect(dispatch_uid="test-recorder")


def test_it_answers_the_saved_change_when_a_receiver_raises(api, failing_then_recording, caplog):
    company = company_make()
    watchlist_uuid = watchlist_make(api)

    with caplog.at_level(logging.ERROR):
        response = api.post(companies_url(watchlist_uuid), [entry(company)])

    assert response.status_code == 200
    assert response.json()["added_count"] == 1
    assert WatchlistCompany.objects.filter(watchlist_id=watchlist_uuid, company=company).exists()
    assert [call["added_company_uuids"] for call in failing_then_recording] == [[company.uuid]]
    logged = [r.getMessage() for r in caplog.records if r.name == "service.signals"]
    assert len(logged) == 1
    assert "failing" in logged[0] and watchlist_uuid in logged[0] and "screening is away" in logged[0]
