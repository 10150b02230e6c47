"""The organisation admin pages are for admins: viewers and officers get the 403 page, nothing changes."""

from __future__ import annotations

import pytest

from portal.models import Member
from service.auth.models import ApiUser, AppMembership
from tests.portal.conftest import add_member, make_member

ADMIN_PAGES = ["/members/invite/", "/members/api-users/", "/members/audit/"]


@pytest.fixture
def admin(db):
    return make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)


@pytest.mark.parametrize("role", [Member.Role.VIEWER, Member.Role.OFFICER])
@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_viewers_and_officers_get_the_403_page(admin, role, path):
    someone = add_member(admin, f"x{role}", role)

    response = someone.client().get(path)

    assert response.status_code == 403
    assert 'data-testid="error-403"' in response.content.decode()


@pytest.mark.parametrize("role", [Member.Role.VIEWER, Member.Role.OFFICER])
def test_their_posts_change_nothing(admin, role):
    someone = add_member(admin, f"x{role}", role)
    client = someone.client()
    memberships, api_users = AppMembership.objects.count(), ApiUser.objects.count()

    responses = [
        client.post("/members/invite/", {"email": "new@nordbank.no", "full_name": "New Person", "role": "admin"}),
        client.post("/members/api-users/", {"name": "ERP", "role_keys": ["aml"]}),
        client.post(f"/members/{admin.member.uuid}/role/", {"role": "viewer"}),
        client.post(f"/members/{admin.member.uuid}/deactivate/"),
    ]

    assert [r.status_code for r in responses] == [403] * 4
    assert (AppMembership.objects.count(), ApiUser.objects.count()) == (memberships, api_users)
    admin.member.refresh_from_db()
    assert admin.member.role == Member.Role.ADMIN and admin.user.is_active


def test_members_page_shows_admin_actions_only_to_admins(admin):
    viewer = add_member(admin, "vera", Member.Role.VIEWER)

    admin_page = admin.client().get("/members/").content.decode()
    viewer_page = viewer.client().get("/members/").content.decode()

    assert 'data-testid="invite"' in admin_page and "/members/audit/" in admin_page
    assert 'data-testid="invite"' not in viewer_page and "/members/audit/" not in viewer_page
    assert 'data-testid="role-form"' not in viewer_page
