"""/members/<uuid>/password/: an admin gives an active member who lost their password a new
one-time password (asked first, shown once, not stored by the browser); the member's sessions end;
the service's audit log records who gave it. Inviting a member's email again says what to do."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client

from portal.models import Member
from tests.portal.conftest import add_member, make_member


def test_it_gives_a_new_password_once_and_signs_the_member_out_elsewhere(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kari = add_member(admin, "kari", Member.Role.OFFICER)
    karis_session = kari.client()
    assert karis_session.get("/members/").status_code == 200
    client = admin.client()
    assert 'data-testid="member-password">New one-time password</a>' in client.get("/members/").content.decode()
    assert "A new one-time password for" in client.get(f"/members/{kari.member.uuid}/password/").content.decode()

    response = client.post(f"/members/{kari.member.uuid}/password/")

    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    password = response.content.decode().split('data-testid="invited-password">')[1].split("<")[0]
    assert len(password) >= 12
    assert karis_session.get("/members/").status_code == 302  # signed out
    assert not Client().login(username="kari", password=kari.password)
    assert Client().login(username="kari", password=password)
    audit = client.get("/members/audit/", {"kind": "members"}).content.decode()
    assert "Gave a member a new one-time password" in audit and "kari@example.com" in audit


def test_not_for_oneself_nor_a_deactivated_member(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kari = add_member(admin, "kari", Member.Role.OFFICER)
    admin.client().post(f"/members/{kari.member.uuid}/deactivate/")

    own = admin.client().post(f"/members/{admin.member.uuid}/password/", follow=True).content.decode()
    theirs = admin.client().post(f"/members/{kari.member.uuid}/password/", follow=True).content.decode()

    assert "ask another admin" in own and "kari is deactivated: reactivate them first." in theirs
    assert get_user_model().objects.get(username="kari").check_password(kari.password)


def test_inviting_a_members_email_says_to_reactivate_or_give_a_new_password(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    add_member(admin, "kari", Member.Role.OFFICER)
    otto = add_member(admin, "otto", Member.Role.OFFICER)
    admin.client().post(f"/members/{otto.member.uuid}/deactivate/")

    def invite(email):
        return admin.client().post("/members/invite/", {"email": email, "full_name": "X Y", "role": "viewer"}).content.decode()

    assert "kari@example.com is already a member. If they lost their password, use New one-time password" in invite("kari@example.com")
    assert "otto@example.com is a deactivated member: use Reactivate" in invite("OTTO@example.com")
