"""404, 403 and 500 pages inside the site's frame, with DEBUG off (issue #23 item 10)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings

from portal.models import Member
from tests.portal.conftest import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def debug_off(settings):
    settings.DEBUG = False


def _framed(page: str) -> None:
    assert '<nav class="navbar' in page and "Vakt</a>" in page  # the site's frame
    assert "vakt.css" in page


def test_it_shows_a_framed_404_for_an_unknown_page(member):
    response = member.client().get("/no-such-page/")

    page = response.content.decode()
    assert response.status_code == 404
    _framed(page)
    assert "This page does not exist" in page and "Resolver404" not in page
    assert 'data-testid="who"' in page  # the navigation stays, so the officer can move on
    assert 'href="/companies/"' in page


def test_a_404_from_a_view_says_what_was_not_found(member):
    response = member.client().get("/companies/00000000-0000-0000-0000-000000000000/")

    page = response.content.decode()
    assert response.status_code == 404
    assert "No such company." in page and 'data-testid="error-404"' in page


def test_it_shows_a_framed_403_to_a_login_without_an_organisation():
    user = get_user_model().objects.create_user("loner", password="pw")
    client = Client()
    client.force_login(user)

    response = client.get("/")

    page = response.content.decode()
    assert response.status_code == 403
    _framed(page)
    assert "You cannot open this page" in page
    assert "Your login is not tied to an organisation." in page


@override_settings(ROOT_URLCONF="tests.portal.error_urls")
def test_it_shows_a_framed_500_without_a_stack_trace():
    viewer = make_member("Nordbank ASA", "vera", role=Member.Role.VIEWER)
    client = viewer.client()
    client.raise_request_exception = False

    response = client.get("/broken/")

    page = response.content.decode()
    assert response.status_code == 500
    _framed(page)
    assert "Something went wrong on our side" in page
    assert "RuntimeError" not in page and "Traceback" not in page and "a bug in a view" not in page


def test_the_500_page_renders_without_a_request_or_database(django_assert_num_queries):
    from django.test import RequestFactory
    from django.views.defaults import server_error

    bare = RequestFactory().get("/")  # no session, no user: what is left when the failure was the database
    with django_assert_num_queries(0):
        response = server_error(bare)

    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
