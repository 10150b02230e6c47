"""/members/invite/ and the member actions: invite, set a dashboard role, deactivate."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.test import Client

from portal.models import Member
from service.audit.models import AuditEvent
from service.auth.models import AppMembership
from service.auth.services import app_membership_create
from tests.portal.conftest import add_member, make_member


def _admin():
    return make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)


def test_it_invites_a_login_that_works_and_a_person_in_the_service(db):
    admin = _admin()

    response = admin.client().post("/members/invite/", {"email": "Kari@Nordbank.no", "full_name": "Kari Nordmann", "role": "officer"})

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    page = response.content.decode()
    password = re.search(r'data-testid="invited-password">([^<]+)<', page).group(1)
    invited = Member.objects.get(user__username="kari@nordbank.no")
    assert invited.role == Member.Role.OFFICER and invited.organisation == admin.organisation
    person = AppMembership.objects.get(uuid=invited.app_membership_uuid)
    assert (person.email, person.full_name, person.app_customer_id) == ("kari@nordbank.no", "Kari Nordmann", admin.app_customer.uuid)
    assert Client().login(username="kari@nordbank.no", password=password)
    event = AuditEvent.objects.get(action_key="app_membership.invite")
    assert event.actor_app_membership_id == admin.member.app_membership_uuid  # the admin, acting as themselves


def test_bad_input_shows_field_errors_and_invites_nobody(db):
    admin = _admin()
    get_user_model().objects.create_user("taken@nordbank.no", email="taken@nordbank.no")

    blank = admin.client().post("/members/invite/", {"email": "not-an-email", "full_name": "  ", "role": "admin"})
    taken = admin.client().post("/members/invite/", {"email": "taken@nordbank.no", "full_name": "Taken", "role": "viewer"})

    assert blank.status_code == 400
    page = blank.content.decode()
    assert 'data-testid="error-email"' in page and 'data-testid="error-full_name"' in page
    assert "Someone with this email already has a login." in taken.content.decode()
    assert AppMembership.objects.filter(app_customer=admin.app_customer).count() == 1  # the admin only


def test_a_person_already_active_in_the_service_is_a_field_error_and_gets_no_login(db):
    admin = _admin()
    app_membership_create(app_customer=admin.app_customer, email="kari@nordbank.no")  # invited through the API

    response = admin.client().post("/members/invite/", {"email": "kari@nordbank.no", "full_name": "Kari", "role": "viewer"})

    assert response.status_code == 400
    page = response.content.decode()
    assert 'data-testid="error-email"' in page and "kari@nordbank.no is already a member of the organisation" in page
    assert not get_user_model().objects.filter(username="kari@nordbank.no").exists()


def test_an_email_too_long_for_a_login_is_a_field_error_and_invites_nobody(db):
    admin = _admin()
    email = "k" * 150 + "@nordbank.no"  # a valid address, longer than a login's username may be

    response = admin.client().post("/members/invite/", {"email": email, "full_name": "Kari Lang", "role": "viewer"})

    assert response.status_code == 400 and 'data-testid="error-email"' in response.content.decode()
    # not a person in the service first and then a login that the database refuses (a 500, half-written)
    assert AppMembership.objects.filter(app_customer=admin.app_customer).count() == 1
    assert not get_user_model().objects.filter(email=email).exists()


def test_an_admin_sets_a_members_role_but_not_their_own(db):
    admin = _admin()
    vera = add_member(admin, "vera", Member.Role.VIEWER)
    client = admin.client()

    response = client.post(f"/members/{vera.member.uuid}/role/", {"role": "officer"}, follow=True)
    own = client.post(f"/members/{admin.member.uuid}/role/", {"role": "viewer"}, follow=True)

    assert "vera is now compliance officer." in response.content.decode()
    vera.member.refresh_from_db()
    assert vera.member.role == Member.Role.OFFICER
    assert "You cannot change your own role" in own.content.decode()
    admin.member.refresh_from_db()
    assert admin.member.role == Member.Role.ADMIN


def test_deactivating_stops_the_login_and_the_person_in_the_service(db):
    admin = _admin()
    vera = add_member(admin, "vera", Member.Role.OFFICER)

    confirm = admin.client().get(f"/members/{vera.member.uuid}/deactivate/")
    response = admin.client().post(f"/members/{vera.member.uuid}/deactivate/", follow=True)

    assert 'data-testid="confirm"' in confirm.content.decode()
    assert "vera is deactivated" in response.content.decode()
    vera.user.refresh_from_db()
    assert vera.user.is_active is False
    assert AppMembership.objects.get(uuid=vera.member.app_membership_uuid).active_flag is False
    assert not Client().login(username="vera", password=vera.password)


def test_another_organisations_member_is_404(db):
    admin = _admin()
    stranger = make_member("Fjordkreditt AS", "olav", role=Member.Role.VIEWER)

    assert admin.client().post(f"/members/{stranger.member.uuid}/role/", {"role": "admin"}).status_code == 404
    assert admin.client().post(f"/members/{stranger.member.uuid}/deactivate/").status_code == 404
    stranger.member.refresh_from_db()
    assert stranger.member.role == Member.Role.VIEWER
