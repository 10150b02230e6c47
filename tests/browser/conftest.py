"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

The dashboard reaches the API in-process (VAKT_SERVICE_URL empty), which works
inside the live server too. Playwright's sync API runs an event loop in this
thread, so Django's async-safety check must be relaxed for the ORM calls the
tests make while a page is open.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.portal.conftest import DashboardMember, make_member

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class JsErrors(list):
    """Console errors and uncaught exceptions of one page, as readable strings."""


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where a test saves its screenshots: $VAKT_SCREENSHOT_DIR when set (to look at them), else tmp_path."""
    folder = Path(os.environ.get("VAKT_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(browser, live_server) -> Iterator:
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors = JsErrors()
    page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.js_errors = errors
    yield page
    context.close()



@pytest.fixture
def member(transactional_db) -> DashboardMember:
    return make_member("Nordbank ASA", "ingrid")


def log_in(page, member) -> None:
    """Log `member` in through the login form (a fresh session: cookies of an earlier login are dropped)."""
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto("/login/")
    page.fill("#id_username", member.username)
    page.fill("#id_password", member.password)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_contain_text(member.organisation.name)


def dialog_answer(dialogs: list, *, accept: bool):
    """A handler for `page.once("dialog", ...)`: notes the confirm's message in `dialogs`, then accepts or cancels it."""
    def handle(dialog):
        dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()
    return handle
