"""GET/POST /v1/app-customer/{acu}/screening-config and the extension GET/PATCH of one config."""

from __future__ import annotations

from service.screening.models import ScreeningConfig, ScreeningConfigSystemSuggestionSetting
from tests.service.screening.helpers import AML, config_make, config_url, configs_url, patch


def _setting(key):
    return str(ScreeningConfigSystemSuggestionSetting.objects.get(key=key).uuid)


def test_it_creates_a_config_and_lists_it(api):
    extended = _setting("enin_calculated_extended_beneficial_owners")
    created = config_make(
        api,
        app_customer_uuid=str(api.app_customer_uuid),
        auto_approve_monitoring_flag=True,
        screening_config_system_suggestion_setting_uuid=extended,
        subscribe_to_email_notifications_flag=True,
    )
    assert created["app_customer_uuid"] == str(api.app_customer_uuid)
    assert created["auto_approve_monitoring_flag"] is True
    assert created["screening_config_system_suggestion_setting_uuid"] == extended
    assert created["screening_config_system_suggestion_setting_key"] == "enin_calculated_extended_beneficial_owners"

    listed = api.get(configs_url(api.app_customer_uuid), roles=AML).json()
    assert [c["uuid"] for c in listed] == [created["uuid"]]


def test_it_defaults_to_the_beneficial_owner_setting_and_manual_approval(api):
    created = config_make(api)
    assert created["screening_config_system_suggestion_setting_key"] == "enin_calculated_beneficial_owners"
    assert created["auto_approve_monitoring_flag"] is False
    assert created["subscribe_to_email_notifications_flag"] is False


def test_it_allows_a_second_config(api):
    config_make(api)
    config_make(api, auto_approve_monitoring_flag=True)
    assert len(api.get(configs_url(api.app_customer_uuid), roles=AML).json()) == 2


def test_it_needs_the_aml_role(api):
    response = api.post(configs_url(api.app_customer_uuid), {}, roles=["credit_check"])
    assert response.status_code == 403
    assert response.json()["detail"].startswith("Missing role(s): aml. Do you have access to the role")
    assert api.get(configs_url(api.app_customer_uuid)).status_code == 403
    assert not ScreeningConfig.objects.exists()


def test_it_refuses_an_unknown_setting_naming_the_field(api):
    response = api.post(
        configs_url(api.app_customer_uuid),
        {"screening_config_system_suggestion_setting_uuid": "00000000-0000-0000-0000-000000000001"},
        roles=AML,
    )
    assert response.status_code == 404
    assert response.json()["errors"][0]["loc"] == ["body", "screening_config_system_suggestion_setting_uuid"]
    assert not ScreeningConfig.objects.exists()


def test_it_refuses_a_body_naming_another_organisation(api, other_api):
    response = api.post(
        configs_url(api.app_customer_uuid), {"app_customer_uuid": str(other_api.app_customer_uuid)}, roles=AML
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["body", "app_customer_uuid"]


def test_it_hides_configs_of_other_organisations(api, other_api):
    theirs = config_make(other_api)
    assert api.get(configs_url(other_api.app_customer_uuid), roles=AML).status_code == 404
    assert api.post(configs_url(other_api.app_customer_uuid), {}, roles=AML).status_code == 404
    assert api.get(config_url(theirs["uuid"]), roles=AML).status_code == 404
    assert patch(api, config_url(theirs["uuid"]), {"auto_approve_monitoring_flag": True}).status_code == 404
    assert ScreeningConfig.objects.get(uuid=theirs["uuid"]).auto_approve_monitoring_flag is False


def test_it_updates_only_the_fields_sent(api):
    created = config_make(api, subscribe_to_email_notifications_flag=True)
    extended = _setting("enin_calculated_extended_beneficial_owners")
    response = patch(
        api,
        config_url(created["uuid"]),
        {"auto_approve_monitoring_flag": True, "screening_config_system_suggestion_setting_uuid": extended},
    )
    assert response.status_code == 200, response.json()
    updated = api.get(config_url(created["uuid"]), roles=AML).json()
    assert updated["auto_approve_monitoring_flag"] is True
    assert updated["screening_config_system_suggestion_setting_uuid"] == extended
    assert updated["subscribe_to_email_notifications_flag"] is True


def test_it_refuses_a_null_flag_in_an_update(api):
    created = config_make(api)
    response = patch(api, config_url(created["uuid"]), {"auto_approve_monitoring_flag": None})
    assert response.status_code == 400
    assert response.json()["errors"][0]["loc"] == ["body", "auto_approve_monitoring_flag"]
