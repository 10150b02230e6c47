"""The dashboard home: members only, their organisation's name and counts fetched through the service client."""

import re

from django.contrib.auth import get_user_model

from service.auth.models import AppCustomer
from service.auth.services import api_user_create, app_customer_create, app_membership_create

HOME = "/"


def _count(response, key: str) -> int:
    match = re.search(rf'data-testid="count-{key}">\s*(\d+)\s*<', response.content.decode())
    assert match, f"no count-{key} on the page"
    return int(match.group(1))


def _add_people(app_customer: AppCustomer, how_many: int) -> None:
    for n in range(how_many):
        app_membership_create(app_customer=app_customer, email=f"person{n}@{app_customer.uuid.hex[:8]}.example")


def test_it_needs_a_login(db, client):
    response = client.get(HOME)

    assert response.status_code == 302
    assert response["Location"] == "/login/?next=/"


def test_a_login_without_a_member_is_forbidden(db, client):
    user = get_user_model().objects.create_user("loner", password="pw")
    client.force_login(user)

    assert client.get(HOME).status_code == 403


def test_it_shows_the_organisation_name(member):
    response = member.client().get(HOME)

    assert response.status_code == 200
    assert "Nordbank ASA" in response.content.decode()
    assert 'data-testid="counts"' in response.content.decode()


def test_it_shows_counts_from_the_service(member):
    _add_people(member.app_customer, 3)
    api_user_create(app_customer=member.app_customer, name="second", role_keys=[])

    response = member.client().get(HOME)

    assert _count(response, "members") == 3
    assert _count(response, "api_users") == 2


def test_the_counts_follow_the_data(member):
    client = member.client()
    assert _count(client.get(HOME), "members") == 0

    _add_people(member.app_customer, 2)

    assert _count(client.get(HOME), "members") == 2


def test_it_shows_only_the_members_organisation(member, other_member):
    _add_people(member.app_customer, 2)
    _add_people(other_member.app_customer, 7)

    mine = member.client().get(HOME).content.decode()
    theirs = other_member.client().get(HOME).content.decode()

    assert "Nordbank ASA" in mine and "Fjordkreditt AS" not in mine
    assert "Fjordkreditt AS" in theirs and "Nordbank ASA" not in theirs
    assert re.search(r'data-testid="count-members">\s*2\s*<', mine)
    assert re.search(r'data-testid="count-members">\s*7\s*<', theirs)


def test_credentials_of_one_organisation_never_read_another(member):
    # A record pointing at another organisation's uuid but holding this organisation's
    # credentials: the service answers 404, so nothing of the other organisation shows.
    other = app_customer_create(name="Fjordkreditt AS")
    _add_people(other, 7)
    member.organisation.app_customer_uuid = other.uuid
    member.organisation.save()

    response = member.client().get(HOME)

    page = response.content.decode()
    assert response.status_code == 200
    assert "The service did not answer: No such app customer." in page
    assert 'data-testid="counts"' not in page
    assert "Fjordkreditt AS" not in page


def test_it_says_so_when_the_service_refuses_the_credentials(member):
    organisation = member.organisation
    organisation.api_client_secret = "not the secret"
    organisation.save()

    response = member.client().get(HOME)

    assert response.status_code == 200
    assert "The service did not answer: Unknown client or wrong secret." in response.content.decode()


def test_it_shows_who_is_logged_in(member):
    page = member.client().get(HOME).content.decode()

    assert 'data-testid="who"' in page
    assert "ingrid" in page
    assert "Compliance officer" in page
