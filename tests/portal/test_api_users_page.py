"""/members/api-users/: list, create (secrets once), rotate, deactivate; the dashboard's own connection is protected."""

from __future__ import annotations

import re

from portal.models import Member
from service.auth.models import ApiUser
from tests.portal.conftest import make_member

ORG_ROLES = ["aml", "credit_check", "app_admin"]


def _admin():
    return make_member("Nordbank ASA", "ada", roles=ORG_ROLES, role=Member.Role.ADMIN)


def _secret(page: str, testid: str) -> str:
    return re.search(rf'data-testid="{testid}">([^<]+)<', page).group(1)


def test_it_creates_an_api_user_with_roles_and_shows_its_secrets_once(db):
    admin = _admin()
    client = admin.client()

    response = client.post("/members/api-users/", {"name": "ERP integration", "role_keys": ["aml"]})

    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    page = response.content.decode()
    secret = _secret(page, "basic-secret")
    created = ApiUser.objects.get(name="ERP integration")
    assert [r.key for r in created.roles.all()] == ["aml"]
    listing = client.get("/members/api-users/").content.decode()
    assert "ERP integration" in listing and secret not in listing


def test_it_offers_only_the_organisations_roles_and_shows_field_errors(db):
    admin = _admin()

    form = admin.client().get("/members/api-users/").content.decode()
    bad = admin.client().post("/members/api-users/", {"name": " ", "role_keys": ["fraud_risk_score"]})

    assert 'value="credit_check"' in form and 'value="fraud_risk_score"' not in form
    assert bad.status_code == 400
    page = bad.content.decode()
    assert 'data-testid="error-name"' in page and 'data-testid="error-role_keys"' in page
    assert not ApiUser.objects.filter(name__startswith=" ").exists()


def test_rotating_shows_new_secrets_and_the_old_ones_stop_working(db):
    admin = _admin()
    client = admin.client()
    created = client.post("/members/api-users/", {"name": "ERP", "role_keys": ["aml"]}).content.decode()
    old = _secret(created, "basic-secret")
    api_user = ApiUser.objects.get(name="ERP")

    response = client.post(f"/members/api-users/{api_user.uuid}/rotate/")

    new = _secret(response.content.decode(), "basic-secret")
    assert new != old
    from service.auth.selectors import api_user_by_basic_credentials

    assert api_user_by_basic_credentials(client_id=api_user.basic_auth_id, secret=old) is None
    assert api_user_by_basic_credentials(client_id=api_user.basic_auth_id, secret=new) is not None


def test_deactivating_an_api_user_and_never_the_dashboards_own_connection(db):
    admin = _admin()
    client = admin.client()
    client.post("/members/api-users/", {"name": "ERP", "role_keys": ["aml"]})
    erp = ApiUser.objects.get(name="ERP")
    own = admin.credentials.api_user

    done = client.post(f"/members/api-users/{erp.uuid}/deactivate/", follow=True)
    refused = client.post(f"/members/api-users/{own.uuid}/deactivate/", follow=True)
    refused_rotation = client.post(f"/members/api-users/{own.uuid}/rotate/", follow=True)

    assert "“ERP” is deactivated" in done.content.decode()
    erp.refresh_from_db()
    own.refresh_from_db()
    assert erp.is_active is False and own.is_active is True
    assert "own connection to the service" in refused.content.decode()
    assert "own connection to the service" in refused_rotation.content.decode()
    assert own.credentials_version == 1


def test_another_organisations_api_user_is_404(db):
    admin = _admin()
    stranger = make_member("Fjordkreditt AS", "olav", roles=ORG_ROLES, role=Member.Role.ADMIN)

    response = admin.client().post(f"/members/api-users/{stranger.credentials.api_user.uuid}/deactivate/")

    assert response.status_code == 404
    stranger.credentials.api_user.refresh_from_db()
    assert stranger.credentials.api_user.is_active
