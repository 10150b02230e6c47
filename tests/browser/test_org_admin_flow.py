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


def test_an_admin_gives_a_new_password_reactivates_and_reads_one_members_history(page, transactional_db, shots):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kari = add_member(admin, "kari", Member.Role.OFFICER)
    otto = add_member(admin, "otto", Member.Role.VIEWER)
    admin.client().post(f"/members/{otto.member.uuid}/deactivate/")
    kari.client().post("/watchlists/", {"watchlist_name": "Karis kunder"})
    page.set_viewport_size({"width": 1400, "height": 900})
    log_in(page, admin)
    page.goto("/members/")
    card = page.get_by_test_id("role-card")
    cut = card.evaluate("c => [...c.querySelectorAll('.table-responsive')].some(t => t.scrollWidth > t.clientWidth + 1)")
    assert not cut, "the role card's table is cut at 1400 px"
    page.screenshot(path=str(shots / "org-members-1400.png"), full_page=True)

    row = page.get_by_test_id("member-row").filter(has_text="kari")
    row.get_by_test_id("member-password").click()
    page.get_by_role("button", name="Give a new password").click()
    expect(page.get_by_test_id("invited")).to_contain_text("A new one-time password for")
    page.get_by_role("link", name="Back to members").click()
    page.get_by_test_id("member-row").filter(has_text="otto").get_by_test_id("member-reactivate").click()
    page.get_by_role("button", name="Reactivate").click()
    expect(page.locator(".alert-success")).to_contain_text("otto is active again as viewer")

    page.get_by_test_id("member-row").filter(has_text="kari").get_by_test_id("member-history").click()
    rows = page.get_by_test_id("audit-row")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Created a watchlist")
    rows.nth(0).get_by_test_id("audit-about").click()
    expect(page.get_by_test_id("audit-subject")).to_contain_text("Everything recorded about Karis kunder")
    page.goto("/members/audit/")
    expect(page.get_by_test_id("audit-row").nth(0)).to_contain_text("Reactivated a member")
    expect(page.get_by_test_id("audit-row").nth(1)).to_contain_text("Gave a member a new one-time password")
    page.screenshot(path=str(shots / "org-audit-1400.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(shots / "org-audit-390.png"), full_page=True)
    page.goto("/members/")
    page.screenshot(path=str(shots / "org-members-390.png"), full_page=True)
    assert list(page.js_errors) == []
