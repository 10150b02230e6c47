"""In/Out shapes of the screening setup endpoints (spec §2.8) and their shaping functions."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from django.utils import timezone
from ninja import Field, Schema

from service.screening.access import screening_app_url
from service.screening.config_models import RETENTION_YEARS_MAX, RETENTION_YEARS_MIN
from service.screening.records_retention import retention_years


FOUR_EYES = (
    "Extension: four-eyes review. A confirmed hit, or a case marked escalated, is closed only by a second member: "
    "a closing review by the member who escalated is refused (409 four_eyes_required), and a confirmed_hit is a "
    "proposal until a different member also records confirmed_hit"
)


RETENTION = (
    f"Extension: years the config keeps a screening record after the customer relationship ends ({RETENTION_YEARS_MIN} "
    f"to {RETENTION_YEARS_MAX}: the AML directive's five, extended where the law allows it); null: the deployment's "
    "period. Before shortening it, GET .../records-due with the new period says how many records that makes due"
)


def retention_field():
    return Field(None, ge=RETENTION_YEARS_MIN, le=RETENTION_YEARS_MAX, description=RETENTION)


class ScreeningConfigIn(Schema):
    app_customer_uuid: uuid.UUID | None = Field(None, description="When sent, must be the path's organisation")
    auto_approve_monitoring_flag: bool = False
    screening_config_system_suggestion_setting_uuid: uuid.UUID | None = Field(
        None, description="Default: the setting enin_calculated_beneficial_owners"
    )
    subscribe_to_email_notifications_flag: bool = False
    four_eyes_review_flag: bool = Field(False, description=FOUR_EYES)
    records_retention_years: int | None = retention_field()
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class ScreeningConfigPatch(Schema):
    auto_approve_monitoring_flag: bool | None = None
    screening_config_system_suggestion_setting_uuid: uuid.UUID | None = None
    subscribe_to_email_notifications_flag: bool | None = None
    four_eyes_review_flag: bool | None = Field(None, description=FOUR_EYES)
    records_retention_years: int | None = retention_field()
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class ScreeningConfigOut(Schema):
    uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    auto_approve_monitoring_flag: bool
    screening_config_system_suggestion_setting_uuid: uuid.UUID
    screening_config_system_suggestion_setting_key: str = Field(description="Extension: the setting's key")
    subscribe_to_email_notifications_flag: bool
    four_eyes_review_flag: bool = Field(description=FOUR_EYES)
    records_retention_years: int | None = Field(description=RETENTION)
    effective_records_retention_years: int = Field(
        description="Extension: the period that applies, the config's own or the deployment's (0: records are kept for ever)"
    )
    create_timestamp: datetime
    update_timestamp: datetime
    app_url: str | None


def config_out(config) -> dict:
    return {
        "uuid": config.uuid,
        "app_customer_uuid": config.app_customer_id,
        "auto_approve_monitoring_flag": config.auto_approve_monitoring_flag,
        "screening_config_system_suggestion_setting_uuid": config.suggestion_setting_id,
        "screening_config_system_suggestion_setting_key": config.suggestion_setting.key,
        "subscribe_to_email_notifications_flag": config.subscribe_to_email_notifications_flag,
        "four_eyes_review_flag": config.four_eyes_review_flag,
        "records_retention_years": config.records_retention_years,
        "effective_records_retention_years": retention_years(config.records_retention_years),
        "create_timestamp": config.create_timestamp,
        "update_timestamp": config.update_timestamp,
        "app_url": screening_app_url(f"/screening/configs/{config.uuid}/"),
    }


class SuggestionSettingOut(Schema):
    uuid: uuid.UUID
    screening_config_system_suggestion_setting_key: str
    description: str


def suggestion_setting_out(setting) -> dict:
    return {
        "uuid": setting.uuid,
        "screening_config_system_suggestion_setting_key": setting.key,
        "description": setting.description,
    }


class ScreeningListCategoryOut(Schema):
    uuid: uuid.UUID
    screening_list_category_key: str
    screening_list_category_name: str
    description: str
    screening_list_type_key: str = Field(description="pep or sanction")
    source_format: str
    latest_version_number: int | None
    latest_version_timestamp: datetime | None = Field(description="When the current list version was imported")
    entry_count: int = Field(description="Entries in the current version (0 before the first import)")
    app_url: str | None


def list_category_out(category) -> dict:
    version = category.current_version
    return {
        "uuid": category.uuid,
        "screening_list_category_key": category.key,
        "screening_list_category_name": category.name,
        "description": category.description,
        "screening_list_type_key": category.list_type,
        "source_format": category.source_format,
        "latest_version_number": version.number if version else None,
        "latest_version_timestamp": version.imported_at if version else None,
        "entry_count": version.entry_count if version else 0,
        "app_url": None,
    }


class ConfigCategoryIn(Schema):
    screening_list_category_uuid: uuid.UUID
    screening_config_uuid: uuid.UUID | None = Field(None, description="When sent, must be the path's config")
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class ConfigCategoryOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    screening_list_category_uuid: uuid.UUID
    screening_list_category_key: str = Field(description="Extension: the category's key")
    create_timestamp: datetime


def config_category_out(link) -> dict:
    return {
        "uuid": link.uuid,
        "screening_config_uuid": link.screening_config_id,
        "screening_list_category_uuid": link.category_id,
        "screening_list_category_key": link.category.key,
        "create_timestamp": link.create_timestamp,
    }


class KeyedOut(Schema):
    uuid: uuid.UUID
    description: str


class EntityMonitoringTypeOut(KeyedOut):
    entity_monitoring_type_key: str


class GenderOut(KeyedOut):
    gender_key: str


class PersonLocationTypeOut(KeyedOut):
    person_location_type_key: str


def keyed_out(row, name: str) -> dict:
    return {"uuid": row.uuid, f"{name}_key": row.key, "description": row.description}


class GeoCountryOut(Schema):
    uuid: uuid.UUID
    geo_country_key: str = Field(description="ISO 3166-1 alpha-2, e.g. NO")
    name: str


def geo_country_out(country) -> dict:
    return {"uuid": country.uuid, "geo_country_key": country.key, "name": country.name}


class RecordsDueQuery(Schema):
    records_retention_years: int | None = Field(
        None, ge=RETENTION_YEARS_MIN, le=RETENTION_YEARS_MAX,
        description="The period to count with; absent: the deployment's (to count with the config's own, send it)",
    )


class RecordsDueOut(Schema):
    effective_records_retention_years: int = Field(description="The period counted with (0: records are kept for ever)")
    retention_cutoff_date: date | None = Field(
        description="The day the period reaches back to: a relationship that ended longer ago than the period (before "
        "this day, at this time of day) is past it; null when records are kept for ever"
    )
    due_count: int = Field(description="Customer persons, persons and companies whose records the next daily pass deletes")
    held_count: int = Field(description="Those past the period that a legal hold keeps")
    present_effective_records_retention_years: int = Field(
        description="The config's present period (0: kept for ever), which the counts below are made with"
    )
    present_retention_cutoff_date: date | None
    present_due_count: int = Field(description="Past the present period already: the next pass deletes them whatever period is chosen")
    present_held_count: int
    due_by_change_count: int = Field(description="Those the asked period makes due that the present one does not (never negative)")
    held_by_change_count: int = Field(description="Those the asked period puts past it that a legal hold keeps, less the present period's")


def _day(moment) -> date | None:
    return timezone.localdate(moment) if moment else None


def records_due_out(due) -> dict:
    present = due.present
    return {
        "effective_records_retention_years": due.years,
        "retention_cutoff_date": _day(due.cutoff),
        "due_count": due.due,
        "held_count": due.held,
        "present_effective_records_retention_years": present.years,
        "present_retention_cutoff_date": _day(present.cutoff),
        "present_due_count": present.due,
        "present_held_count": present.held,
        "due_by_change_count": due.due_by_change,
        "held_by_change_count": due.held_by_change,
    }
