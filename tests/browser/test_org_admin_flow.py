"""An admin runs the organisation (issue #23 item 7): invites a member, creates an API user,
rotates its secrets, and reads the audit log of who did what. Screenshots: org-admin.png,
org-api-user-secrets.png, org-api-users.png, org-audit.png (to $VAKT_SCREENSHOT_DIR when set)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from portal.models import Member
from service.auth.models import ApiUser
from service.auth.selectors import api_user_by_basic_credentials
from tests.portal.conftest import add_member, make_member
from tests.browser.conftest import log_in


def test_an_admin_invites_a_member_manages_an_api_user_and_reads_the_audit_log(page, transactional_db, shots):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    add_member(admin, "otto", Member.Role.OFFICER)
    log_in(page, admin)

    page.get_by_test_id("nav-menu-toggle").click()  # the Admin menu
    page.locator("#nav").get_by_role("link", name="Members", exact=True).click()
    page.get_by_test_id("invite").click()
    page.fill("#id_email", "kari.nordmann@nordbank.no")
    page.fill("#id_full_name", "Kari Nordmann")
    page.select_option("#id_role", "officer")
    page.get_by_role("button", name="Invite").click()
    expect(page.get_by_test_id("invited")).to_contain_text("Kari Nordmann is invited as compliance officer")
    password = page.get_by_test_id("invited-password").inner_text()
    assert len(password) >= 12
    page.get_by_role("link", name="Back to members").click()
    expect(page.get_by_test_id("members")).to_contain_text("kari.nordmann@nordbank.no")
    page.screenshot(path=str(shots / "org-admin.png"), full_page=True)

    page.get_by_role("link", name="API users").click()
    page.fill("#id_name", "ERP integration")
    page.get_by_label(re.compile("^aml")).check()
    page.get_by_role("button", name="Create API user").click()
    expect(page.get_by_test_id("secrets")).to_contain_text("API user “ERP integration” created")
    first_secret = page.get_by_test_id("basic-secret").inner_text()
    page.get_by_role("link", name=re.compile("back to API users")).click()
    row = page.get_by_test_id("api-user-row").filter(has_text="ERP integration")
    row.get_by_role("link", name="Rotate secrets").click()
    page.get_by_role("button", name="Rotate the secrets").click()
    expect(page.get_by_test_id("secrets")).to_contain_text("New secrets for “ERP integration”")
    new_secret = page.get_by_test_id("basic-secret").inner_text()
    assert new_secret != first_secret
    erp = ApiUser.objects.get(name="ERP integration")
    assert api_user_by_basic_credentials(client_id=erp.basic_auth_id, secret=first_secret) is None
    assert api_user_by_basic_credentials(client_id=erp.basic_auth_id, secret=new_secret) is not None
    page.screenshot(path=str(shots / "org-api-user-secrets.png"), full_page=True)

    page.get_by_role("link", name=re.compile("back to API users")).click()
    expect(page.get_by_test_id("api-users")).to_contain_text("ERP integration")
    page.screenshot(path=str(shots / "org-api-users.png"), full_page=True)
    page.get_by_role("link", name="Audit log").click()
    rows = page.get_by_test_id("audit-row")
    expect(rows.nth(0)).to_contain_text("Rotated an API user's secrets")
    expect(rows.nth(0)).to_contain_text("ada@example.com")
    expect(rows.nth(1)).to_contain_text("Created an API user")
    expect(rows.nth(2)).to_contain_text("Invited a member")
    expect(rows.nth(2)).to_contain_text("kari.nordmann@nordbank.no")
    page.screenshot(path=str(shots / "org-audit.png"), full_page=True)
    assert list(page.js_errors) == []


def test_an_officer_gets_the_403_page_for_admin_pages(page, transactional_db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    officer = add_member(admin, "otto", Member.Role.OFFICER)
    log_in(page, officer)

    response = page.goto("/members/audit/")

    assert response.status == 403
    expect(page.get_by_test_id("error-403")).to_contain_text("You cannot open this page")
