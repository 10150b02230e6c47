"""What the browser is told on every dashboard answer: the content security policy, the
permissions policy, the cookie flags, and over https (VAKT_HTTPS) HSTS and the redirect."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / "templates", *ROOT.glob("*/templates")]
PAGES = ["/", "/companies/", "/watchlists/", "/screening/cases/", "/reports/", "/members/", "/health/"]


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in header.split(";")) if d}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_a_policy_without_inline_script_or_style(member, path):
    response = member.client().get(path)

    assert response.status_code in (200, 503)  # health is 503 here: no worker runs
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


def test_the_login_page_error_pages_and_htmx_partials_carry_it_too(member, client):
    partial = member.client().get("/companies/?q=havbris", HTTP_HX_REQUEST="true")

    for response in (client.get("/login/"), member.client().get("/no-such-page/"), partial):
        assert _policy(response)["script-src"] == ["'self'"]


def test_the_permissions_policy_turns_off_what_the_dashboard_does_not_use(client):
    header = client.get("/login/")["Permissions-Policy"]

    features = dict(item.strip().split("=") for item in header.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()"
    assert "clipboard-write" not in features  # the copy buttons of new secrets use it


def test_the_pages_contain_no_inline_script_style_or_handler(member):
    """What the browser would refuse under the policy, looked for in the HTML the pages send."""
    for path in PAGES:
        html = member.client().get(path).content.decode()
        scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", html)
        assert scripts == [], f"{path}: inline script {scripts}"
        assert not re.search(r"<style[\s>]", html), f"{path}: a <style> element"
        assert not re.search(r"\sstyle=", html), f"{path}: a style attribute"
        assert not re.search(r"\son[a-z]+=", html), f"{path}: an inline event handler"


def test_no_template_has_inline_script_style_or_handler():
    """Every template, pages a test does not open included: the policy would refuse these."""
    offending = []
    for folder in TEMPLATE_DIRS:
        for template in folder.rglob("*.html"):
            text = template.read_text()
            for pattern in (
                r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>",
                r"<style[\s>]",
                r"\sstyle=",
                r"\son[a-z]+=",
                r"\shx-on",
                r"javascript:",
            ):
                offending += [f"{template.relative_to(ROOT)}: {m}" for m in re.findall(pattern, text)]

    assert offending == []


def test_the_session_and_csrf_cookies_are_httponly_and_lax(member, client):
    response = client.post("/login/", {"username": member.username, "password": member.password})

    assert response.status_code == 302
    for name in ("sessionid", "csrftoken"):
        cookie = client.cookies[name]
        assert cookie["httponly"] is True, name
        assert cookie["samesite"] == "Lax", name
        assert not cookie["secure"], f"{name} is Secure without VAKT_HTTPS (the dashboard would not work over http)"


def _served(*, https: bool, trust_proxy: bool = False) -> dict[str, str]:
    """Requests in a process started with VAKT_HTTPS (and VAKT_TRUST_X_FORWARDED_PROTO); what came back."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("VAKT_HTTPS", "VAKT_TRUST"))}
    env.update(
        DJANGO_SETTINGS_MODULE="portal.settings_test",
        VAKT_HTTPS="true" if https else "false",
        VAKT_TRUST_X_FORWARDED_PROTO="true" if trust_proxy else "false",
    )
    script = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.test import Client\n"
        "plain = Client().get('/login/')\n"
        "secure = Client().get('/login/', secure=True)\n"
        "cookie = secure.cookies['csrftoken']\n"
        "proxied = Client().get('/login/', HTTP_X_FORWARDED_PROTO='https')\n"
        "print('proxied', proxied.status_code)\n"
        "print('plain', plain.status_code, plain.get('Location', '-'))\n"
        "print('hsts', secure.get('Strict-Transport-Security', '-'))\n"
        "print('csrf-cookie-secure', bool(cookie['secure']))\n"
        "print('session-cookie-secure', settings.SESSION_COOKIE_SECURE)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return dict(line.split(" ", 1) for line in result.stdout.splitlines())


def test_over_https_cookies_are_secure_and_hsts_is_sent():
    served = _served(https=True)

    assert served["plain"] == "301 https://testserver/login/"
    assert served["hsts"] == "max-age=31536000"
    assert served["csrf-cookie-secure"] == "True"
    assert served["session-cookie-secure"] == "True"


def test_behind_a_trusted_tls_proxy_forwarded_https_is_not_redirected():
    assert _served(https=True, trust_proxy=True)["proxied"] == "200"
    assert _served(https=True, trust_proxy=False)["proxied"] == "301"  # a header anyone could send


def test_without_https_nothing_is_redirected_and_no_hsts_is_sent():
    served = _served(https=False)

    assert served["plain"] == "200 -"
    assert served["hsts"] == "-"
    assert served["csrf-cookie-secure"] == "False"
    assert served["session-cookie-secure"] == "False"


def test_over_https_the_dashboard_still_reaches_its_service_in_process(member, settings):
    """The in-process calls to the API are not redirected to https (a redirected POST would lose its body)."""
    settings.VAKT_HTTPS = True
    settings.SECURE_SSL_REDIRECT = True
    client = member.client()

    created = client.post("/watchlists/", {"watchlist_name": "Kunder"}, secure=True)
    home = client.get("/", secure=True)

    assert created.status_code == 302
    assert home.status_code == 200
    assert b"Kunder" in home.content


def test_calls_after_https_settings_are_not_redirected_by_a_handler_built_under_them(member):
    """The in-process handler is built once; one built while SECURE_SSL_REDIRECT was on must not outlive
    the setting (the next test's token POST would be redirected and followed as a GET: 405)."""
    with override_settings(VAKT_HTTPS=True, SECURE_SSL_REDIRECT=True):
        assert member.client().get("/", secure=True).status_code == 200  # the in-process handler is built now

    client = member.client()  # Django's test client keeps its own middleware too: a new one over http
    created = client.post("/watchlists/", {"watchlist_name": "Kunder"})

    assert created.status_code == 302
    assert b"Kunder" in client.get("/").content
