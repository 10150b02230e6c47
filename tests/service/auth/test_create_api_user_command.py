"""manage.py create_api_user: prints credentials once; they work for basic auth and tokens."""

import base64
import io
import json
import re

import pytest
from django.core.management import CommandError, call_command

from service.auth.models import ROLE_KEYS, ApiUser, AppCustomer


def _basic(client_id: str, secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


def _run(*args) -> dict:
    out = io.StringIO()
    call_command("create_api_user", *args, stdout=out)
    return dict(re.findall(r"^(\w+):\s+(.*)$", out.getvalue(), flags=re.MULTILINE))


def test_it_prints_credentials_that_work_for_basic_auth(db, client):
    printed = _run("--organisation", "Kystbank ASA", "--roles", "aml,credit_check")

    response = client.get(
        "/analysis/v1/auth-status",
        **_basic(printed["basic_auth_id"], printed["basic_auth_secret"]),
        HTTP_NK_ROLE_KEYS="aml,credit_check",
    )

    assert response.status_code == 200
    text = response.content.decode()
    assert printed["api_user_uuid"] in text
    assert printed["app_customer_uuid"] in text
    assert "aml, credit_check." in text
    assert printed["roles"] == "aml, credit_check"
    assert AppCustomer.objects.get(uuid=printed["app_customer_uuid"]).name == "Kystbank ASA"


def test_it_prints_credentials_that_work_for_a_token(db, client):
    printed = _run("--organisation", "Kystbank ASA")

    token = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": printed["token_auth_id"],
            "client_secret": printed["token_auth_secret"],
            "audience": "http://testserver/analysis",
        },
        content_type="application/json",
    )
    assert token.status_code == 200
    response = client.get("/analysis/v1/auth-status", HTTP_AUTHORIZATION=f"Bearer {token.json()['access_token']}")

    assert response.status_code == 200
    assert printed["api_user_uuid"] in response.content.decode()


def test_it_does_not_store_the_secrets_in_plain(db):
    printed = _run("--organisation", "Kystbank ASA")

    user = ApiUser.objects.get(uuid=printed["api_user_uuid"])
    stored = f"{user.basic_auth_secret_hash} {user.token_auth_secret_hash}"
    assert printed["basic_auth_secret"] not in stored
    assert printed["token_auth_secret"] not in stored


def test_it_reuses_an_organisation_by_name_or_uuid(db):
    first = _run("--organisation", "Kystbank ASA")
    by_name = _run("--organisation", "Kystbank ASA", "--name", "second")
    by_uuid = _run("--organisation", first["app_customer_uuid"], "--name", "third")

    assert first["app_customer_uuid"] == by_name["app_customer_uuid"] == by_uuid["app_customer_uuid"]
    assert AppCustomer.objects.count() == 1
    assert ApiUser.objects.filter(app_customer_id=first["app_customer_uuid"]).count() == 3


def test_all_assigns_every_role(db):
    printed = _run("--organisation", "Kystbank ASA", "--roles", "all")

    assert set(printed["roles"].split(", ")) >= {"aml", "credit_check", "person_national_identification"}
    assert ApiUser.objects.get(uuid=printed["api_user_uuid"]).roles.count() == len(ROLE_KEYS)  # the spec's nine and app_admin


def test_an_unknown_role_is_a_clear_error(db):
    with pytest.raises(CommandError, match="unknown role key\\(s\\): superuser"):
        _run("--organisation", "Kystbank ASA", "--roles", "aml,superuser")

    assert not ApiUser.objects.exists()
    assert not AppCustomer.objects.exists()  # no half-made organisation left behind


def test_it_accepts_spaces_in_the_role_list(db):
    printed = _run("--organisation", "Kystbank ASA", "--roles", "aml, credit_check")

    assert printed["roles"] == "aml, credit_check"


def test_it_prints_json_when_asked(db, client):
    out = io.StringIO()
    call_command("create_api_user", "--organisation", "Kystbank ASA", "--roles", "aml", "--json", stdout=out)

    values = json.loads(out.getvalue())
    assert values["roles"] == ["aml"]
    assert values["app_customer_name"] == "Kystbank ASA"
    response = client.get("/analysis/v1/auth-status", **_basic(values["basic_auth_id"], values["basic_auth_secret"]))
    assert response.status_code == 200


def test_rotate_issues_new_secrets_for_the_same_user(db, client):
    first = _run("--organisation", "Kystbank ASA", "--name", "portal")

    second = _run("--organisation", "Kystbank ASA", "--name", "portal", "--rotate", "--roles", "aml")

    assert second["api_user_uuid"] == first["api_user_uuid"]
    assert second["basic_auth_id"] == first["basic_auth_id"]
    old = client.get("/analysis/v1/auth-status", **_basic(first["basic_auth_id"], first["basic_auth_secret"]))
    new = client.get(
        "/analysis/v1/auth-status",
        **_basic(second["basic_auth_id"], second["basic_auth_secret"]),
        HTTP_NK_ROLE_KEYS="aml",
    )
    assert old.status_code == 401
    assert new.status_code == 200
    assert "granted for this request: aml." in new.content.decode()
    assert ApiUser.objects.count() == 1


def test_without_rotate_a_second_user_is_created(db):
    first = _run("--organisation", "Kystbank ASA", "--name", "portal")
    second = _run("--organisation", "Kystbank ASA", "--name", "portal")

    assert second["api_user_uuid"] != first["api_user_uuid"]
