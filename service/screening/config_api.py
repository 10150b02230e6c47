"""Screening setup endpoints (spec §4.7): configs, suggestion settings, list categories and
their selection, and the lookups DESIGN.md adds. Every endpoint needs the `aml` role."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from django.utils import timezone
from ninja import Query, Router, Status

from service.audit.services import Actor, actor_of
from service.auth.selectors import acting_membership_get
from service.errors import bad_field
from service.screening import config_schemas as s
from service.screening import config_selectors as selectors
from service.screening import config_services as services
from service.screening.access import EXTENSION, aml_principal
from service.screening.config_models import RETENTION_YEARS_MAX, RETENTION_YEARS_MIN
from service.screening.records_retention import records_due

router = Router(tags=["Screening setup"])


def config_of(request: HttpRequest, screening_config_uuid: uuid.UUID):
    """The caller's config named in the path (404 otherwise), after the `aml` check."""
    principal = aml_principal(request)
    return selectors.config_get(app_customer_uuid=principal.app_customer_uuid, screening_config_uuid=screening_config_uuid)


def acting(request: HttpRequest, membership_uuid: uuid.UUID | None, loc: list | None = None) -> Actor:
    """The audit actor of a setup change: the calling API user and the active member it names (extension)."""
    membership = acting_membership_get(
        app_customer_uuid=request.auth.app_customer_uuid,
        membership_uuid=membership_uuid,
        loc=loc or ["body", "app_membership_uuid"],
    )
    return actor_of(request, membership)


def same_as_path(sent: uuid.UUID | None, path_value: uuid.UUID, field: str) -> None:
    if sent is not None and sent != path_value:
        raise bad_field(["body", field], "must be the one in the path (or left out)")


@router.get(
    "/app-customer/{app_customer_uuid}/screening-config",
    response=list[s.ScreeningConfigOut],
    summary="The organisation's screening configs",
    description="Oldest first. Needs the `aml` role.",
)
def config_list(request: HttpRequest, app_customer_uuid: uuid.UUID):
    customer = aml_principal(request).own_app_customer(app_customer_uuid)
    return [s.config_out(c) for c in selectors.configs_list(app_customer_uuid=customer)]


@router.post(
    "/app-customer/{app_customer_uuid}/screening-config",
    response={201: s.ScreeningConfigOut},
    summary="Create a screening config",
    description=(
        "One config is usually enough (rule 1); a second one is allowed and has its own list categories, "
        "watchlists and monitorings. Needs the `aml` role."
    ),
)
def config_create(request: HttpRequest, app_customer_uuid: uuid.UUID, payload: s.ScreeningConfigIn):
    customer = aml_principal(request).own_app_customer(app_customer_uuid)
    same_as_path(payload.app_customer_uuid, customer, "app_customer_uuid")
    setting = None
    if payload.screening_config_system_suggestion_setting_uuid is not None:
        setting = selectors.suggestion_setting_get(
            setting_uuid=payload.screening_config_system_suggestion_setting_uuid,
            loc=["body", "screening_config_system_suggestion_setting_uuid"],
        )
    config = services.config_create(
        app_customer_uuid=customer,
        suggestion_setting=setting,
        auto_approve_monitoring_flag=payload.auto_approve_monitoring_flag,
        subscribe_to_email_notifications_flag=payload.subscribe_to_email_notifications_flag,
        four_eyes_review_flag=payload.four_eyes_review_flag,
        records_retention_years=payload.records_retention_years,
        actor=acting(request, payload.app_membership_uuid),
    )
    return Status(201, s.config_out(config))


@router.get(
    "/screening-config/{screening_config_uuid}",
    response=s.ScreeningConfigOut,
    summary="Extension: one screening config",
    openapi_extra=EXTENSION,
)
def config_detail(request: HttpRequest, screening_config_uuid: uuid.UUID):
    return s.config_out(config_of(request, screening_config_uuid))


@router.patch(
    "/screening-config/{screening_config_uuid}",
    response=s.ScreeningConfigOut,
    summary="Extension: update a screening config",
    description=(
        "Send only the fields to change. A new suggestion setting or auto-approve flag re-evaluates the "
        "monitorings of the config's watchlisted companies in the background. `records_retention_years` "
        f"({RETENTION_YEARS_MIN} to {RETENTION_YEARS_MAX}, or null for the deployment's period) sets how long screening "
        "records are kept after the relationship ends."
    ),
    openapi_extra=EXTENSION,
)
def config_update(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.ScreeningConfigPatch):
    config = config_of(request, screening_config_uuid)
    sent = payload.dict(exclude_unset=True)
    changes = {}
    for flag in ("auto_approve_monitoring_flag", "subscribe_to_email_notifications_flag", "four_eyes_review_flag"):
        if flag in sent:
            if sent[flag] is None:
                raise bad_field(["body", flag], "must be true or false")
            changes[flag] = sent[flag]
    if "records_retention_years" in sent:
        changes["records_retention_years"] = sent["records_retention_years"]  # null: the deployment's period
    if "screening_config_system_suggestion_setting_uuid" in sent:
        loc = ["body", "screening_config_system_suggestion_setting_uuid"]
        if sent[loc[1]] is None:
            raise bad_field(loc, "must be a setting uuid")
        changes["suggestion_setting"] = selectors.suggestion_setting_get(setting_uuid=sent[loc[1]], loc=loc)
    actor = acting(request, payload.app_membership_uuid)
    return s.config_out(services.config_update(config=config, changes=changes, actor=actor))


@router.get(
    "/screening-config/{screening_config_uuid}/records-due",
    response=s.RecordsDueOut,
    summary="Extension: how many entities' screening records a retention period makes due for deletion",
    description=(
        "Before changing the config's `records_retention_years`: with that period, how many customer persons, "
        "persons and companies have a relationship that ended longer ago, so that the next daily pass deletes their "
        "records (`due_count`), and how many a legal hold keeps (`held_count`); the same with the present period "
        "(`present_*`), and what the change itself makes due (`due_by_change_count`: the present period's are deleted "
        "whichever is chosen). Counted by the deletion's own rule, now; nothing is changed."
    ),
    openapi_extra=EXTENSION,
)
def records_due_get(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[s.RecordsDueQuery]):
    config = config_of(request, screening_config_uuid)
    return s.records_due_out(records_due(config=config, years=query.records_retention_years, now=timezone.now()))


@router.get(
    "/screening-config-system-suggestion-setting",
    response=list[s.SuggestionSettingOut],
    summary="The system suggestion settings",
)
def suggestion_settings(request: HttpRequest):
    aml_principal(request)
    return [s.suggestion_setting_out(x) for x in selectors.suggestion_settings_list()]


@router.get(
    "/screening-list-category",
    response=list[s.ScreeningListCategoryOut],
    summary="The screening list categories",
    description="Every list the service screens against, with its type and current version.",
)
def list_categories(request: HttpRequest):
    aml_principal(request)
    return [s.list_category_out(c) for c in selectors.list_categories_list()]


@router.post(
    "/screening-config/{screening_config_uuid}/screening-config-screening-list-category",
    response={201: s.ConfigCategoryOut},
    summary="Select a list category for a config",
    description=(
        "One POST per category. Sanction hits come only from selected categories (rule 5). Selecting a "
        "category that is already selected is a 400 naming `screening_list_category_uuid`."
    ),
)
def config_category_select(request: HttpRequest, screening_config_uuid: uuid.UUID, payload: s.ConfigCategoryIn):
    config = config_of(request, screening_config_uuid)
    same_as_path(payload.screening_config_uuid, config.uuid, "screening_config_uuid")
    category = selectors.list_category_get(
        category_uuid=payload.screening_list_category_uuid, loc=["body", "screening_list_category_uuid"]
    )
    actor = acting(request, payload.app_membership_uuid)
    return Status(201, s.config_category_out(services.config_category_select(config=config, category=category, actor=actor)))


@router.get(
    "/screening-config/{screening_config_uuid}/screening-config-screening-list-category",
    response=list[s.ConfigCategoryOut],
    summary="Extension: the config's selected list categories",
    openapi_extra=EXTENSION,
)
def config_categories(request: HttpRequest, screening_config_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    return [s.config_category_out(link) for link in selectors.config_categories_list(config=config)]


@router.delete(
    "/screening-config/{screening_config_uuid}/screening-config-screening-list-category/{link_uuid}",
    response={204: None},
    summary="Extension: unselect a list category",
    description=(
        "`link_uuid` is the selection's uuid (from the POST or the GET). Extension query parameter "
        "`app_membership_uuid`: the member who makes the change, for the audit log."
    ),
    openapi_extra=EXTENSION,
)
def config_category_unselect(
    request: HttpRequest, screening_config_uuid: uuid.UUID, link_uuid: uuid.UUID, app_membership_uuid: uuid.UUID | None = None
):
    config = config_of(request, screening_config_uuid)
    link = selectors.config_category_get(config=config, link_uuid=link_uuid)
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    services.config_category_unselect(link=link, actor=actor)
    return Status(204, None)


@router.get("/entity-monitoring-type", response=list[s.EntityMonitoringTypeOut], summary="The entity monitoring types")
def entity_monitoring_types(request: HttpRequest):
    aml_principal(request)
    return [s.keyed_out(t, "entity_monitoring_type") for t in selectors.entity_monitoring_types_list()]


@router.get("/gender", response=list[s.GenderOut], summary="Extension: genders", openapi_extra=EXTENSION)
def genders(request: HttpRequest):
    aml_principal(request)
    return [s.keyed_out(g, "gender") for g in selectors.genders_list()]


@router.get(
    "/person-location-type",
    response=list[s.PersonLocationTypeOut],
    summary="Extension: person location types",
    openapi_extra=EXTENSION,
)
def person_location_types(request: HttpRequest):
    aml_principal(request)
    return [s.keyed_out(t, "person_location_type") for t in selectors.person_location_types_list()]


@router.get("/geo-country", response=list[s.GeoCountryOut], summary="Extension: countries", openapi_extra=EXTENSION)
def geo_countries(request: HttpRequest):
    aml_principal(request)
    return [s.geo_country_out(c) for c in selectors.geo_countries_list()]
