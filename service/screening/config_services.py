"""Writes to the screening setup: configs and their list categories.

An organisation may hold several configs (spec rule 1: one is *usually* enough); each has
its own categories, watchlists and monitorings. A category is selected at most once per
config: selecting it again is a 400 naming `screening_list_category_uuid` (the UNIQUE
constraint decides under concurrency).
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.errors import bad_field
from service.screening.records_retention import retention_years_check
from service.screening.models import (
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningConfigSystemSuggestionSetting,
    ScreeningListCategory,
)
from service.screening.config_lock import config_lock

DEFAULT_SUGGESTION_SETTING = "enin_calculated_beneficial_owners"


def config_create(
    *,
    app_customer_uuid: uuid.UUID,
    suggestion_setting: ScreeningConfigSystemSuggestionSetting | None,
    auto_approve_monitoring_flag: bool,
    subscribe_to_email_notifications_flag: bool,
    four_eyes_review_flag: bool = False,
    records_retention_years: int | None = None,
    actor: Actor | None = None,
) -> ScreeningConfig:
    setting = suggestion_setting or ScreeningConfigSystemSuggestionSetting.objects.get(key=DEFAULT_SUGGESTION_SETTING)
    retention_years_check(records_retention_years, loc=["body", "records_retention_years"])
    with transaction.atomic():
        config = ScreeningConfig.objects.create(
            app_customer_id=app_customer_uuid,
            suggestion_setting=setting,
            auto_approve_monitoring_flag=auto_approve_monitoring_flag,
            subscribe_to_email_notifications_flag=subscribe_to_email_notifications_flag,
            four_eyes_review_flag=four_eyes_review_flag,
            records_retention_years=records_retention_years,
        )
        _audit(config, actor, "screening_config.create", None, config_audit_state(config))
    return config


def config_audit_state(config: ScreeningConfig) -> dict:
    """The config's settings as the audit log records them."""
    return {
        "auto_approve_monitoring_flag": config.auto_approve_monitoring_flag,
        "screening_config_system_suggestion_setting_key": config.suggestion_setting.key,
        "subscribe_to_email_notifications_flag": config.subscribe_to_email_notifications_flag,
        "four_eyes_review_flag": config.four_eyes_review_flag,
        "records_retention_years": config.records_retention_years,
    }


def _audit(config: ScreeningConfig, actor: Actor | None, action: str, before: dict | None, after: dict | None) -> None:
    audit_record(
        app_customer_uuid=config.app_customer_id,
        actor=actor,
        action=action,
        object_type="screening_config",
        object_uuid=config.uuid,
        object_label="Screening setup",
        before=before,
        after=after,
    )


def config_update(*, config: ScreeningConfig, changes: dict, actor: Actor | None = None) -> ScreeningConfig:
    """`changes` holds only the fields sent. A changed suggestion setting or auto-approve flag
    re-evaluates the config's watchlisted companies (after commit). The changes are made to the
    row as it is now (locked), not to the caller's copy: an update committed since the caller
    read it is neither undone nor left out of the audit log's before and after."""
    from service.screening.hold_services import release_requests_withdraw
    from service.screening.subscription import config_resync_on_commit

    if "records_retention_years" in changes:
        retention_years_check(changes["records_retention_years"], loc=["body", "records_retention_years"])
    with transaction.atomic():
        # The config row alone is locked; its setting is read after the lock. Joined into the
        # locking query, an update that waited for one changing the setting would find no row.
        config_lock(config.pk)
        config = ScreeningConfig.objects.get(pk=config.pk)
        before = (config.suggestion_setting_id, config.auto_approve_monitoring_flag)
        state_before = config_audit_state(config)
        for field, value in changes.items():
            setattr(config, field, value)
        config.save(update_fields=[*changes, "update_timestamp"])
        if (config.suggestion_setting_id, config.auto_approve_monitoring_flag) != before:
            config_resync_on_commit(config=config)
        if state_before["four_eyes_review_flag"] and not config.four_eyes_review_flag:
            release_requests_withdraw(config=config, actor=actor)
        state_after = config_audit_state(config)
        changed = [key for key in state_after if state_after[key] != state_before[key]]
        if changed:
            _audit(
                config,
                actor,
                "screening_config.update",
                {key: state_before[key] for key in changed},
                {key: state_after[key] for key in changed},
            )
    return config


def config_category_select(
    *, config: ScreeningConfig, category: ScreeningListCategory, actor: Actor | None = None
) -> ScreeningConfigListCategory:
    already = bad_field(
        ["body", "screening_list_category_uuid"],
        f"the category {category.key} is already selected for this screening config",
        code="already_selected",
    )
    if ScreeningConfigListCategory.objects.filter(screening_config=config, category=category).exists():
        raise already
    try:
        with transaction.atomic():
            link = ScreeningConfigListCategory.objects.create(
                screening_config=config, category=category, rescreen_owed_timestamp=timezone.now()
            )
            _audit(config, actor, "screening_config.category_select", None, _category_state(category))
            # The config's entities were never searched in this list: screen them (no hits, no cases
            # when nobody is screened yet). Without it a list update's delta would be their first look.
            # robust: a broker that is away does not fail the request; the resume finds what was not sent.
            transaction.on_commit(lambda: _rescreen_enqueue(config.uuid), robust=True)
            return link
    except IntegrityError:
        raise already from None


def _category_state(category) -> dict:
    # The name too, so the audit log reads as the setup page does.
    return {"screening_list_category_key": category.key, "screening_list_category_name": category.name}


def _rescreen_enqueue(config_uuid) -> None:
    from service.screening.tasks import screening_config_rescreen_task

    screening_config_rescreen_task.delay(str(config_uuid))


def config_category_unselect(*, link: ScreeningConfigListCategory, actor: Actor | None = None) -> None:
    with transaction.atomic():
        _audit(
            link.screening_config,
            actor,
            "screening_config.category_unselect",
            _category_state(link.category),
            None,
        )
        link.delete()
