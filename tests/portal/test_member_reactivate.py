"""/members/<uuid>/reactivate/: an admin reactivates a deactivated member (asked first): the
service first, where the audit log records it, then the login, which signs in again."""

from __future__ import annotations

from portal.models import Member
from service.auth.models import AppMembership
from tests.portal.conftest import add_member, make_member


def _deactivated(admin):
    kari = add_member(admin, "kari", Member.Role.OFFICER)
    assert admin.client().post(f"/members/{kari.member.uuid}/deactivate/").status_code == 302
    kari.user.refresh_from_db()
    assert not kari.user.is_active
    return kari


def test_it_asks_then_reactivates_in_the_service_and_the_dashboard(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kari = _deactivated(admin)
    client = admin.client()
    members = client.get("/members/").content.decode()
    assert f'href="/members/{kari.member.uuid}/reactivate/" data-testid="member-reactivate">Reactivate</a>' in members

    asked = client.get(f"/members/{kari.member.uuid}/reactivate/")
    assert asked.status_code == 200 and "Reactivate Kari?" in asked.content.decode() or "Reactivate kari" in asked.content.decode()

    response = client.post(f"/members/{kari.member.uuid}/reactivate/", follow=True)

    assert "kari is active again as compliance officer" in response.content.decode()
    kari.user.refresh_from_db()
    assert kari.user.is_active and kari.client().get("/members/").status_code == 200
    assert AppMembership.objects.get(uuid=kari.member.app_membership_uuid).active_flag
    audit = client.get("/members/audit/", {"kind": "members"}).content.decode()
    assert "Reactivated a member" in audit


def test_a_service_failure_leaves_the_login_deactivated(db, monkeypatch):
    from portal.service import ServiceError
    from portal.service.organisation import OrganisationAdminArea

    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    kari = _deactivated(admin)

    def refused(self, *args, **kwargs):
        raise ServiceError(503, "unavailable", "The service does not answer.")

    monkeypatch.setattr(OrganisationAdminArea, "member_set_active", refused)
    response = admin.client().post(f"/members/{kari.member.uuid}/reactivate/", follow=True)

    assert "kari was not reactivated" in response.content.decode()
    kari.user.refresh_from_db()
    assert not kari.user.is_active


def test_another_organisations_member_is_404(db):
    admin = make_member("Nordbank ASA", "ada", role=Member.Role.ADMIN)
    stranger = make_member("Fjordkreditt AS", "olav", role=Member.Role.ADMIN)
    assert admin.client().post(f"/members/{stranger.member.uuid}/reactivate/").status_code == 404
