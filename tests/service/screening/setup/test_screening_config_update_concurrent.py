"""Two updates of one screening config at once, each from the copy its request read: the second
changes only what it was sent, so the first one's change stays, as the audit log says."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from service.audit.models import AuditEvent
from service.screening import config_services
from service.screening.models import ScreeningConfig, ScreeningConfigSystemSuggestionSetting
from tests.conftest import ApiCaller
from tests.racing import race
from tests.service.screening.helpers import config_make, config_url, patch


def test_an_update_does_not_undo_another_made_since_its_request_read_the_config(api):
    config_uuid = config_make(api)["uuid"]
    first_request = ScreeningConfig.objects.select_related("suggestion_setting").get(uuid=config_uuid)
    second_request = ScreeningConfig.objects.select_related("suggestion_setting").get(uuid=config_uuid)

    config_services.config_update(config=first_request, changes={"auto_approve_monitoring_flag": True})
    answered = config_services.config_update(config=second_request, changes={"subscribe_to_email_notifications_flag": True})

    stored = ScreeningConfig.objects.get(uuid=config_uuid)
    assert (stored.auto_approve_monitoring_flag, stored.subscribe_to_email_notifications_flag) == (True, True)
    assert (answered.auto_approve_monitoring_flag, answered.subscribe_to_email_notifications_flag) == (True, True)
    updates = AuditEvent.objects.filter(action_key="screening_config.update").order_by("created_timestamp")
    assert [event.after for event in updates] == [
        {"auto_approve_monitoring_flag": True},
        {"subscribe_to_email_notifications_flag": True},
    ]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
def test_an_update_sent_while_another_changes_the_suggestion_setting_is_made_after_it(api, transactional_db, monkeypatch):
    config_uuid = config_make(api)["uuid"]
    extended = str(ScreeningConfigSystemSuggestionSetting.objects.get(key="enin_calculated_extended_beneficial_owners").uuid)

    def update(changes):
        return lambda: patch(ApiCaller(Client(), api.credentials), config_url(config_uuid), changes)

    # The first is held after its update, uncommitted, until the second waits for the config's lock.
    first, second = race(
        monkeypatch,
        config_services,
        "audit_record",
        update({"screening_config_system_suggestion_setting_uuid": extended}),
        update({"subscribe_to_email_notifications_flag": True}),
    )

    assert (first.status_code, second.status_code) == (200, 200), second
    assert second.json()["screening_config_system_suggestion_setting_key"] == "enin_calculated_extended_beneficial_owners"
    assert second.json()["subscribe_to_email_notifications_flag"] is True
    updates = AuditEvent.objects.filter(action_key="screening_config.update").order_by("created_timestamp")
    assert [event.after for event in updates] == [
        {"screening_config_system_suggestion_setting_key": "enin_calculated_extended_beneficial_owners"},
        {"subscribe_to_email_notifications_flag": True},
    ]
