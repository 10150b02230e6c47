"""Logging in and out of the dashboard, and the failed-login throttle."""

import time

import pytest

LOGIN = "/login/"
HOME = "/"


@pytest.fixture(autouse=True)
def _three_attempts(settings):
    settings.VAKT_LOGIN_ATTEMPTS = 3
    settings.VAKT_LOGIN_LOCKOUT_SECONDS = 300


def _login(client, username, password, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def test_it_shows_the_login_form(db, client):
    response = client.get(LOGIN)

    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content


def test_it_logs_in_with_the_right_password(member, client):
    response = _login(client, member.username, member.password)

    assert response.status_code == 302
    assert response["Location"] == HOME
    assert client.get(HOME).status_code == 200


def test_it_follows_next_after_login(member, client):
    response = client.post(LOGIN + "?next=/health/", {"username": member.username, "password": member.password})

    assert response["Location"] == "/health/"


def test_it_does_not_follow_next_off_site(member, client):
    response = client.post(
        LOGIN, {"username": member.username, "password": member.password, "next": "https://evil.example/"}
    )

    assert response["Location"] == HOME


def test_it_refuses_a_wrong_password(member, client):
    response = _login(client, member.username, "wrong password")

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert client.get(HOME).status_code == 302  # still logged out


def test_it_refuses_an_unknown_user(db, client):
    response = _login(client, "nobody", "whatever")

    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content


def test_it_locks_out_after_repeated_failures(member, client):
    for _ in range(3):
        assert _login(client, member.username, "wrong").status_code == 200

    response = _login(client, member.username, "wrong")

    assert response.status_code == 429
    assert b"Too many failed attempts. Try again in 5 minute(s)." in response.content
    assert 295 <= int(response["Retry-After"]) <= 300


def test_retry_after_counts_down_from_the_first_failure(member, client, settings):
    settings.VAKT_LOGIN_LOCKOUT_SECONDS = 4
    _login(client, member.username, "wrong")
    time.sleep(2.1)
    for _ in range(2):
        _login(client, member.username, "wrong")

    response = _login(client, member.username, "wrong")

    assert response.status_code == 429
    assert int(response["Retry-After"]) in (1, 2)
    assert b"Try again in 1 minute(s)." in response.content


def test_the_right_password_is_refused_while_locked(member, client):
    for _ in range(3):
        _login(client, member.username, "wrong")

    response = _login(client, member.username, member.password)

    assert response.status_code == 429
    assert b"Too many failed attempts" in response.content
    assert client.get(HOME).status_code == 302  # not logged in


def test_the_lockout_ends(member, client, settings):
    settings.VAKT_LOGIN_LOCKOUT_SECONDS = 1
    for _ in range(3):
        _login(client, member.username, "wrong")
    assert _login(client, member.username, member.password).status_code == 429

    time.sleep(1.5)

    assert _login(client, member.username, member.password).status_code == 302


def test_a_success_clears_earlier_failures(member, client):
    for _ in range(2):
        _login(client, member.username, "wrong")
    assert _login(client, member.username, member.password).status_code == 302
    client.post("/logout/")

    for _ in range(2):
        _login(client, member.username, "wrong")

    assert _login(client, member.username, member.password).status_code == 302


def test_the_lockout_is_per_username_and_address(member, other_member, client):
    for _ in range(3):
        _login(client, member.username, "wrong")

    assert _login(client, other_member.username, other_member.password).status_code == 302
    assert _login(client, member.username, member.password, REMOTE_ADDR="10.0.0.9").status_code == 302


def test_it_logs_out_by_post(member, client):
    _login(client, member.username, member.password)

    response = client.post("/logout/")

    assert response.status_code == 302
    assert response["Location"] == LOGIN
    assert client.get(HOME).status_code == 302


def test_logout_is_not_a_get(member, client):
    _login(client, member.username, member.password)

    assert client.get("/logout/").status_code == 405
    assert client.get(HOME).status_code == 200  # still logged in


def test_a_logged_in_user_visiting_login_goes_home(member):
    response = member.client().get(LOGIN)

    assert response.status_code == 302
    assert response["Location"] == HOME


def test_a_logged_in_user_sent_to_login_with_next_login_goes_home_not_a_500(member):
    response = member.client().get(LOGIN, {"next": LOGIN})  # Django would raise "Redirection loop"

    assert response.status_code == 302
    assert response["Location"] == HOME
