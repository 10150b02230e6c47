"""The digest tests raise real cases through the API (committing, as in the case tests) and read
Django's locmem outbox."""

from __future__ import annotations

import pytest

from tests.service.screening.cases.conftest import lists  # noqa: F401  (the fixture)
from tests.service.screening.helpers import AML, category_uuid, config_make, config_url


@pytest.fixture(autouse=True)
def _committing(transactional_db, settings):
    settings.VAKT_BASE_URL = "https://vakt.example"


def subscribed_config(caller, *category_keys: str, subscribed: bool = True) -> dict:
    config = config_make(caller, subscribe_to_email_notifications_flag=subscribed)
    for key in category_keys:
        response = caller.post(
            config_url(config["uuid"], "/screening-config-screening-list-category"),
            {"screening_list_category_uuid": category_uuid(key)},
            roles=AML,
        )
        assert response.status_code == 201, response.json()
    return config
