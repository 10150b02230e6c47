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

    assert _count(response, "members") == 3 + 1  # and the member themselves
    assert _count(response, "api_users") == 2


def test_the_counts_follow_the_data(member):
    client = member.client()
    assert _count(client.get(HOME), "members") == 1  # the member themselves

    _add_people(member.app_customer, 2)

    assert _count(client.get(HOME), "members") == 3


def test_it_shows_only_the_members_organisation(member, other_member):
    _add_people(member.app_customer, 2)
    _add_people(other_member.app_customer, 7)

    mine = member.client().get(HOME).content.decode()
    theirs = other_member.client().get(HOME).content.decode()

    assert "Nordbank ASA" in mine and "Fjordkreditt AS" not in mine
    assert "Fjordkreditt AS" in theirs and "Nordbank ASA" not in theirs
    assert re.search(r'data-testid="count-members">\s*3\s*<', mine)  # and the member themselves
    assert re.search(r'data-testid="count-members">\s*8\s*<', theirs)


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


# --- the work list (issue #23 item 10) ----------------------------------------------------------


def _ready_report(member, name: str, status: str = "complete"):
    import uuid

    from reports.models import ReportDownload

    return ReportDownload.objects.create(
        organisation=member.organisation, ordered_by=member.member, order_uuid=uuid.uuid4(), report_uuid=uuid.uuid4(),
        company_uuid=uuid.uuid4(), company_name=name, report_type="company_profile", status=status,
    )


def test_it_lists_the_watchlists_with_their_counts_and_links(member):
    from service.watchlists.services import watchlist_create

    kunder = watchlist_create(app_customer_uuid=member.app_customer.uuid, watchlist_name="Kunder")
    watchlist_create(app_customer_uuid=member.app_customer.uuid, watchlist_name="Leverandører")

    page = member.client().get(HOME).content.decode()

    assert page.count('data-testid="home-watchlist"') == 2
    assert f'href="/watchlists/{kunder.uuid}/">Kunder</a>' in page
    assert "2 lists · 0 companies" in page


def test_it_says_how_to_start_when_there_is_no_watchlist_or_report(member):
    page = member.client().get(HOME).content.decode()

    assert 'data-testid="no-watchlists"' in page and 'href="/watchlists/">Create one</a>' in page
    assert 'data-testid="no-reports"' in page


def test_it_shows_the_reports_ready_and_counts_the_rest(member, other_member):
    _ready_report(member, "Aker ASA")
    _ready_report(member, "Berg AS", status="processing")
    _ready_report(member, "Feil AS", status="failed")
    _ready_report(other_member, "Andres AS")

    page = member.client().get(HOME).content.decode()

    assert 'data-testid="reports-ready-count">1<' in page
    assert page.count('data-testid="home-report"') == 1 and "Aker ASA" in page
    assert "1 in progress" in page and "1 failed" in page
    assert "Berg AS" not in page and "Andres AS" not in page
    assert 'href="/reports/">Download them under Reports</a>' in page


def test_it_links_only_to_pages_that_exist(member):
    from django.urls import Resolver404, resolve

    page = member.client().get(HOME).content.decode()

    for href in set(re.findall(r'href="(/[^"#?]*)', page)):
        if href.startswith("/static/"):
            continue
        try:
            resolve(href)
        except Resolver404:  # pragma: no cover - the assertion below names it
            raise AssertionError(f"the home page links to {href}, which does not exist") from None
    assert 'href="/screening/related-companies/"' in page  # the navigation
    assert 'href="/screening/cases/"' in page  # the case queue, in the navigation


def test_the_navigation_says_what_the_role_can_do(db):
    from portal.models import Member
    from tests.portal.conftest import make_member

    viewer = make_member("Nordbank ASA", "vera", role=Member.Role.VIEWER)
    officer = make_member("Fjordkreditt AS", "olga", role=Member.Role.OFFICER)

    seen_by_viewer = viewer.client().get(HOME).content.decode()
    seen_by_officer = officer.client().get(HOME).content.decode()

    assert "Manage watchlists" in seen_by_viewer
    assert "payment" not in seen_by_viewer.lower() and "credit reports" not in seen_by_viewer
    assert "with payment remarks and their creditors" in seen_by_officer and "and credit reports" in seen_by_officer
    assert 'data-testid="nav-admin"' not in seen_by_officer  # site administration only for staff logins
    officer.user.is_staff = True
    officer.user.save()
    assert 'data-testid="nav-admin"' in officer.client().get(HOME).content.decode()

