"""manage.py dashboard_connect: each dashboard member gets (and keeps) a person in the service."""

from __future__ import annotations

import io
import uuid

from django.core.management import call_command

from portal.models import Member, Organisation
from service.auth.models import AppMembership
from service.auth.services import api_user_create, app_customer_create
from tests.conftest import ALL_ROLES


def _connect(app_customer, credentials, *users):
    out = io.StringIO()
    args = ["--name", "Nordbank ASA", "--app-customer-uuid", str(app_customer.uuid),
            "--client-id", credentials.token_auth_id, f"--client-secret={credentials.token_auth_secret}",
            "--role-keys", ",".join(ALL_ROLES)]
    for user in users:
        args += ["--user", user]
    call_command("dashboard_connect", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_each_member_gets_a_person_in_the_service_once(db):
    app_customer = app_customer_create(name="Nordbank ASA")
    credentials = api_user_create(app_customer=app_customer, name="dashboard", role_keys=ALL_ROLES)

    _connect(app_customer, credentials, "officer:officer", "ada:admin:ada@nordbank.no")
    first = dict(Member.objects.values_list("user__username", "app_membership_uuid"))
    _connect(app_customer, credentials, "officer:officer", "ada:admin")

    assert dict(Member.objects.values_list("user__username", "app_membership_uuid")) == first
    people = {m.uuid: m.email for m in AppMembership.objects.filter(app_customer=app_customer)}
    assert people == {first["officer"]: "officer@example.com", first["ada"]: "ada@nordbank.no"}


def test_without_the_admin_role_it_says_so_and_keeps_the_member(db):
    app_customer = app_customer_create(name="Nordbank ASA")
    credentials = api_user_create(app_customer=app_customer, name="dashboard", role_keys=["aml"])

    printed = _connect(app_customer, credentials, "officer:officer")

    assert "no person in the service" in printed and "app_admin" in printed
    assert Member.objects.get().app_membership_uuid is None


def test_it_takes_a_secret_that_begins_with_a_dash(db):
    # Token secrets are url-safe base64: one in 64 begins with "-", which argparse reads as an
    # option unless it is joined with "=" (as scripts/run.py passes it).
    call_command("dashboard_connect", "--name", "Nordbank ASA", "--app-customer-uuid", str(uuid.uuid4()),
                 "--client-id", "token_x", "--client-secret=-Ab3_secret", stdout=io.StringIO())

    assert Organisation.objects.get().api_client_secret == "-Ab3_secret"
