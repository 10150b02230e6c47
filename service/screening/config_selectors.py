"""Reads of the screening setup, always scoped to the calling organisation."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from service.companies.models import GeoCountry
from service.screening.access import found, not_found
from service.screening.models import (
    EntityMonitoringType,
    Gender,
    PersonLocationType,
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningConfigSystemSuggestionSetting,
    ScreeningListCategory,
)


def configs_list(*, app_customer_uuid: uuid.UUID) -> QuerySet[ScreeningConfig]:
    return ScreeningConfig.objects.filter(app_customer_id=app_customer_uuid).select_related("suggestion_setting")


def config_get(*, app_customer_uuid: uuid.UUID, screening_config_uuid: uuid.UUID) -> ScreeningConfig:
    config = configs_list(app_customer_uuid=app_customer_uuid).filter(uuid=screening_config_uuid).first()
    if config is None:
        raise not_found("screening config", screening_config_uuid)
    return config


def suggestion_settings_list() -> QuerySet[ScreeningConfigSystemSuggestionSetting]:
    return ScreeningConfigSystemSuggestionSetting.objects.order_by("key")


def suggestion_setting_get(*, setting_uuid: uuid.UUID, loc: list) -> ScreeningConfigSystemSuggestionSetting:
    return found(
        ScreeningConfigSystemSuggestionSetting.objects.filter(uuid=setting_uuid), "screening config system suggestion setting", setting_uuid, loc
    )


def list_categories_list() -> QuerySet[ScreeningListCategory]:
    return ScreeningListCategory.objects.select_related("current_version").order_by("key")


def list_category_get(*, category_uuid: uuid.UUID, loc: list) -> ScreeningListCategory:
    category = list_categories_list().filter(uuid=category_uuid).first()
    if category is None:
        raise not_found("screening list category", category_uuid, loc)
    return category


def config_categories_list(*, config: ScreeningConfig) -> QuerySet[ScreeningConfigListCategory]:
    return (
        ScreeningConfigListCategory.objects.filter(screening_config=config)
        .select_related("category", "category__current_version")
        .order_by("category__key")
    )


def config_category_get(*, config: ScreeningConfig, link_uuid: uuid.UUID) -> ScreeningConfigListCategory:
    link = config_categories_list(config=config).filter(uuid=link_uuid).first()
    if link is None:
        raise not_found("screening config screening list category", link_uuid)
    return link


def entity_monitoring_types_list() -> QuerySet[EntityMonitoringType]:
    return EntityMonitoringType.objects.order_by("key")


def genders_list() -> QuerySet[Gender]:
    return Gender.objects.order_by("key")


def person_location_types_list() -> QuerySet[PersonLocationType]:
    return PersonLocationType.objects.order_by("key")


def geo_countries_list() -> QuerySet[GeoCountry]:
    return GeoCountry.objects.order_by("key")
