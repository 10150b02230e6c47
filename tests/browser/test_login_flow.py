"""A member logs in, sees their organisation on the home page, and logs out, in a real browser."""

from playwright.sync_api import expect

from portal.tasks import worker_heartbeat
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create


def _log_in(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


def test_it_logs_in_shows_home_and_logs_out(page, member):
    customer = AppCustomer.objects.get(uuid=member.app_customer.uuid)
    for n in range(3):
        app_membership_create(app_customer=customer, email=f"person{n}@nordbank.example")

    page.goto("/")
    expect(page).to_have_url("/login/?next=/")  # home needs a login

    page.fill("#id_username", member.username)
    page.fill("#id_password", member.password)
    page.click("button[type=submit]")

    expect(page.locator("h1")).to_have_text("Nordbank ASA")
    expect(page.get_by_test_id("count-members")).to_have_text("4")  # and the member themselves
    expect(page.get_by_test_id("count-api_users")).to_have_text("1")
    expect(page.get_by_test_id("who")).to_contain_text("ingrid")

    page.get_by_role("button", name="Log out").click()

    expect(page).to_have_url("/login/")
    expect(page.get_by_role("heading", name="Log in to Vakt")).to_be_visible()
    page.goto("/")
    expect(page).to_have_url("/login/?next=/")
    assert list(page.js_errors) == []


def test_a_wrong_password_shows_the_error(page, member):
    _log_in(page, member.username, "not the password")

    expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username and password")
    expect(page).to_have_url("/login/")
    expect(page.locator("#id_username")).to_have_value(member.username)
    assert list(page.js_errors) == []


def test_the_pages_have_no_javascript_errors(page, member):
    worker_heartbeat()  # a healthy system: the health page answers 200, not 503
    _log_in(page, member.username, member.password)
    expect(page.locator("h1")).to_have_text("Nordbank ASA")

    for path in ("/", "/health/"):
        response = page.goto(path)
        page.wait_for_load_state("networkidle")
        assert response.status == 200, path
    expect(page.get_by_text("all good")).to_be_visible()

    assert list(page.js_errors) == []
