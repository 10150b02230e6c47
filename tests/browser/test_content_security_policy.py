"""The dashboard under its content security policy (no inline script or style): the main pages open,
htmx swaps, polls and posts work, the dropdowns open, and the browser reports no violation.

Violations are caught twice: the `securitypolicyviolation` events of each page, and Chromium's console
errors ("Refused to ..."). Screenshots `csp-*.png` go to $VAKT_SCREENSHOT_DIR when it is set, else tmp_path.
"""

import uuid
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from portal.models import Member
from portal.tasks import worker_heartbeat
from reports.models import ReportDownload
from service.companies.analysis import analysis_refresh
from service.watchlists.services import watchlist_create
from tests.browser.conftest import log_in
from tests.screening.helpers import cases_make, member_make
from tests.service.companies.factories import accounts_make, company_make, employment_make
from tests.service.screening.cases.conftest import lists  # noqa: F401

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def admin(transactional_db):
    return member_make("Nordbank ASA", "ada", Member.Role.ADMIN)


@pytest.fixture
def company(transactional_db):
    company = company_make(name="Havbris Teknologi AS", org_nr="913748174")
    accounts_make(company=company, year=2024, balance={"total_equity": Decimal("3328000")})
    employment_make(company=company, count=12, start=date(2023, 1, 1), end=date(2024, 1, 1))
    employment_make(company=company, count=18, start=date(2024, 1, 1))
    peers = [company_make(name=f"Konkurrent {i} AS") for i in range(4)]
    for i, peer in enumerate(peers):
        accounts_make(company=peer, year=2024, balance={"total_equity": Decimal(900000 * (i + 1) - 1500000)})
    analysis_refresh(company_uuids=[company.uuid, *[p.uuid for p in peers]])
    return company


def _violations(page) -> list[str]:
    events = page.evaluate("window.__cspViolations || []")
    console = [e for e in page.js_errors if "Content Security Policy" in e or "Refused to" in e]
    return [*events, *console]


def _visit(page, path: str, shots, name: str):
    response = page.goto(path)
    assert response.status in (200, 503), f"{path}: {response.status}"  # health is 503 without a worker
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    page.screenshot(path=str(shots / f"csp-{name}.png"), full_page=True)
    assert _violations(page) == [], path


def test_the_main_pages_work_without_inline_script_or_style(page, admin, company, lists, shots):  # noqa: F811
    page.context.add_init_script(RECORD_VIOLATIONS)
    worker_heartbeat()
    cases_make(admin)
    watchlist = watchlist_create(app_customer_uuid=admin.app_customer.uuid, watchlist_name="Kunder")
    ReportDownload.objects.create(
        organisation=admin.organisation, ordered_by=admin.member, order_uuid=uuid.uuid4(),
        report_uuid=uuid.uuid4(), company_uuid=company.uuid, company_name=company.name,
        report_type="company_profile", status="processing",
    )
    page.goto("/login/")
    assert _violations(page) == []
    log_in(page, admin)

    # Dropdowns (Bootstrap's JavaScript): the role menu and the Admin menu.
    page.get_by_test_id("role").click()
    expect(page.get_by_test_id("role-abilities")).to_be_visible()
    page.screenshot(path=str(shots / "csp-home-role-menu.png"))
    page.get_by_test_id("nav-menu-toggle").click()
    expect(page.get_by_test_id("nav-menu").locator(".dropdown-item").first).to_be_visible()
    assert _violations(page) == []

    # htmx: the company search swaps its results in as one types.
    _visit(page, "/companies/", shots, "companies")
    page.get_by_role("searchbox").first.fill("Havbris")
    expect(page.locator("#results")).to_contain_text("Havbris Teknologi AS")
    assert _violations(page) == []

    # Charts (Chart.js) and the htmx benchmark panel of the company page.
    _visit(page, f"/companies/{company.uuid}/", shots, "company")
    expect(page.locator("canvas[data-chart=employment][data-drawn='1']")).to_be_visible()
    expect(page.locator("canvas[data-chart=benchmark][data-drawn='1']")).to_be_visible()
    box = page.locator("canvas[data-chart=employment]").bounding_box()
    assert 190 <= box["height"] <= 210, box  # the chart box keeps its height from vakt.css
    assert _violations(page) == []

    # htmx search on a watchlist page; the rename form opens (Bootstrap collapse).
    _visit(page, f"/watchlists/{watchlist.uuid}/", shots, "watchlist")
    page.locator("[data-bs-target='#rename']").click()
    expect(page.locator("#rename")).to_be_visible()
    assert _violations(page) == []

    # The case queue: an htmx post (assign to me) swaps the row.
    _visit(page, "/screening/cases/", shots, "queue")
    page.get_by_test_id("assign-to-me").first.click()
    expect(page.get_by_test_id("assignee").first).to_contain_text("Me")
    assert _violations(page) == []

    # The reports list polls an unfinished report with htmx every 2 s.
    _visit(page, "/reports/", shots, "reports")
    with page.expect_response(lambda r: "/row/" in r.url):
        pass
    assert _violations(page) == []

    for path, name in [
        ("/", "home"),
        ("/watchlists/", "watchlists"),
        ("/screening/setup/", "setup"),
        ("/screening/approvals/", "approvals"),
        ("/screening/related-companies/", "related"),
        ("/screening/batches/", "batches"),
        ("/members/", "members"),
        ("/members/api-users/", "api-users"),
        ("/members/audit/", "audit"),
        ("/health/", "health"),
        ("/no-such-page/", "404"),
    ]:
        if name == "404":
            assert page.goto(path).status == 404
            assert _violations(page) == []
            continue
        _visit(page, path, shots, name)
    # The API reference (Swagger UI from ninja's static files) renders the operations.
    page.goto("/documentation")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    page.screenshot(path=str(shots / "csp-api-reference.png"))
    assert _violations(page) == []

    # The 404 and the health page's 503 are logged as failed loads; nothing else may be.
    assert [e for e in page.js_errors if "Failed to load resource" not in e] == []


def test_a_violation_would_be_seen(page, admin):
    """The listeners above do hear the browser refuse an inline style (so their silence means something)."""
    page.context.add_init_script(RECORD_VIOLATIONS)
    log_in(page, admin)

    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<div style=\"color: red\">x</div>')")
    page.wait_for_function("window.__cspViolations.length > 0")

    assert any("style-src" in v for v in _violations(page))


def test_the_browser_understands_every_feature_the_permissions_policy_names(page, admin):
    """Chromium warns on each page about a feature it does not know (it did for `bluetooth`), noise
    that would hide a real warning in the console."""
    warnings = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)

    log_in(page, admin)
    page.goto("/companies/")

    assert [w for w in warnings if "Permissions-Policy" in w] == []
