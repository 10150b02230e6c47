"""A form is sent once (static/js/submit-once.js): clicking its button again while the first
request is on its way, as an impatient user does when the service is slow, makes no second
watchlist and no second report order."""

import time

from playwright.sync_api import expect

from portal.service.watchlists import WatchlistsArea
from reports import services as report_services
from reports.models import ReportDownload
from reports.tasks import report_download_poll
from tests.browser.conftest import log_in
from tests.browser.test_watchlist_report_flow import register  # noqa: F401 (fixture)

SLOW_SERVICE_S = 0.8


def slowed(function):
    def slow(*args, **kwargs):
        time.sleep(SLOW_SERVICE_S)
        return function(*args, **kwargs)

    return slow


def click_twice(button) -> None:
    """Click, and click again a moment later while the page still waits for the answer (in the
    page: Playwright itself would wait for the navigation before a second click)."""
    button.evaluate("(button, ms) => { button.click(); setTimeout(() => button.click(), ms); }", SLOW_SERVICE_S * 250)


def test_clicking_create_again_while_it_is_sent_creates_one_watchlist(page, member, monkeypatch):
    monkeypatch.setattr(WatchlistsArea, "create", slowed(WatchlistsArea.create))
    log_in(page, member)
    page.goto("/watchlists/")
    page.get_by_label("New watchlist name").fill("Key customers")

    click_twice(page.get_by_role("button", name="Create watchlist"))

    expect(page.get_by_role("alert")).to_contain_text("Watchlist “Key customers” created.")
    page.goto("/watchlists/")
    expect(page.get_by_test_id("watchlist-row")).to_have_count(1)
    assert page.js_errors == []


def test_clicking_order_again_while_it_is_sent_orders_one_report(page, member, register, monkeypatch):  # noqa: F811
    healthy, _ = register
    monkeypatch.setattr(report_download_poll, "delay", lambda download_uuid: None)
    monkeypatch.setattr(report_services, "client_for_member", slowed(report_services.client_for_member))
    log_in(page, member)
    page.goto(f"/companies/{healthy.uuid}/")

    click_twice(page.get_by_role("button", name="Order report"))

    expect(page.get_by_role("alert")).to_contain_text("Havbris Teknologi AS ordered.")
    time.sleep(SLOW_SERVICE_S)  # a second request, had it been sent, is answered by now
    assert ReportDownload.objects.count() == 1
    assert page.js_errors == []
