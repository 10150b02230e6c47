"""Who may read datasets: basic auth, or a bearer token for the datasets audience only (spec §5)."""

import pytest

from tests.service.companies.datasets.builders import DATASETS, a_company, an_accounts
from tests.service.companies.datasets.responses import elements_of, error_of

URL = f"{DATASETS}/accounts-composite"


def _token(client, api, *, audience: str) -> str:
    response = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": api.credentials.token_auth_id,
            "client_secret": api.credentials.token_auth_secret,
            "audience": audience,
        },
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


@pytest.fixture
def accounts(db):
    return an_accounts(company=a_company())


def test_basic_auth_reads_a_dataset(api, accounts):
    [element] = elements_of(api.get(URL))

    assert element["accounts"]["uuid"] == str(accounts.uuid)


def test_a_token_for_the_datasets_audience_reads_a_dataset(api, client, accounts):
    token = _token(client, api, audience="http://testserver/datasets")

    [element] = elements_of(client.get(URL, HTTP_AUTHORIZATION=f"Bearer {token}"))

    assert element["accounts"]["uuid"] == str(accounts.uuid)


def test_a_token_for_the_analysis_audience_is_refused(api, client, accounts):
    token = _token(client, api, audience="http://testserver/analysis")

    response = client.get(URL, HTTP_AUTHORIZATION=f"Bearer {token}")

    error_of(response, 401)
    assert "Bearer" in response["WWW-Authenticate"]


@pytest.mark.parametrize("authorization", [None, "Basic bm9ib2R5Om5vdGhpbmc=", "Bearer not-a-token"])
def test_no_or_bad_credentials_are_a_401(client, db, authorization):
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}

    response = client.get(URL, **headers)

    assert error_of(response, 401)["code"] == "not_authenticated"
    assert response["WWW-Authenticate"]


def test_the_catalogue_needs_credentials_too(client, db):
    assert client.get(DATASETS).status_code == 401


def test_datasets_are_the_same_for_every_organisation(api, other_api, accounts):
    # Register data is not tenant data: both customers read the same rows.
    assert elements_of(api.get(URL)) == elements_of(other_api.get(URL))
