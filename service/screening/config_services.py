"""Writes to the screening setup: configs and their list categories.

An organisation may hold several configs (spec rule 1: one is *usually* enough); each has
its own categories, watchlists and monitorings. A category is selected at most once per
config: selecting it again is a 400 naming `screening_list_category_uuid` (the UNIQUE
constraint decides under concurrency).
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from service.errors import bad_field
from service.screening.models import (
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningConfigSystemSuggestionSetting,
    ScreeningListCategory,
)

DEFAULT_SUGGESTION_SETTING = "enin_calculated_beneficial_owners"


def config_create(
    *,
    app_customer_uuid: uuid.UUID,
    suggestion_setting: ScreeningConfigSystemSuggestionSetting | None,
    auto_approve_monitoring_flag: bool,
    subscribe_to_email_notifications_flag: bool,
) -> ScreeningConfig:
    setting = suggestion_setting or ScreeningConfigSystemSuggestionSetting.objects.get(key=DEFAULT_SUGGESTION_SETTING)
    return ScreeningConfig.objects.create(
        app_customer_id=app_customer_uuid,
        suggestion_setting=setting,
        auto_approve_monitoring_flag=auto_approve_monitoring_flag,
        subscribe_to_email_notifications_flag=subscribe_to_email_notifications_flag,
    )


def config_update(*, config: ScreeningConfig, changes: dict) -> ScreeningConfig:
    """`changes` holds only the fields sent. A changed suggestion setting or auto-approve flag
    re-evaluates the config's watchlisted companies (after commit)."""
    from service.screening.subscription import config_resync_on_commit

    before = (config.suggestion_setting_id, config.auto_approve_monitoring_flag)
    for field, value in changes.items():
        setattr(config, field, value)
    with transaction.atomic():
        config.save()
        if (config.suggestion_setting_id, config.auto_approve_monitoring_flag) != before:
            config_resync_on_commit(config=config)
    return config


def config_category_select(*, config: ScreeningConfig, category: ScreeningListCategory) -> ScreeningConfigListCategory:
    already = bad_field(
        ["body", "screening_list_category_uuid"],
        f"the category {category.key} is already selected for this screening config",
        code="already_selected",
    )
    if ScreeningConfigListCategory.objects.filter(screening_config=config, category=category).exists():
        raise already
    try:
        with transaction.atomic():
            return ScreeningConfigListCategory.objects.create(screening_config=config, category=category)
    except IntegrityError:
        raise already from None


def config_category_unselect(*, link: ScreeningConfigListCategory) -> None:
    link.delete()
