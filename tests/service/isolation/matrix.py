"""Every operation of both OpenAPI documents, and how the isolation test calls it.

Operations are read from the served documents. Each is either PRIVATE (it touches an
organisation's data: called with organisation B's credentials on organisation A's resources)
or PUBLIC (reference or register data that belongs to nobody, with the reason). An operation in
neither makes `test_it_covers_every_operation` fail, so a new endpoint is covered by construction.

Path parameters are filled by name from a world (`World.ids`); a PRIVATE entry only says how to
build a valid body or query from the caller's own world, so the 404 the attack gets is about
whose data it is, not a bad request. `crossed` are attacks through B's own resource with A's
identifiers in the body or the query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from service.api import analysis_api, datasets_api
from service.screening.models import EntityMonitoringType
from tests.service.isolation.world import World, batch_file, customer_person_file, report_order_body, review_body
from tests.service.screening.helpers import category_uuid

Builder = Callable[[World], Any]


@dataclass(frozen=True)
class Private:
    body: Builder | None = None
    query: Builder | None = None
    multipart: Builder | None = None
    # (description, query or body builder from (a, b)) with B's own path: must be 400 or 404, nothing of A.
    crossed: tuple[tuple[str, Callable[[World, World], dict]], ...] = ()


def operations() -> list[tuple[str, str]]:
    """(method, path) of every operation of both documents, in document order."""
    found = []
    for api in (analysis_api, datasets_api):
        for path, methods in api.get_openapi_schema()["paths"].items():
            found += [(method, path) for method in methods]
    return found


def path_params(path: str) -> list[str]:
    return re.findall(r"{(\w+)}", path)


def review_batch_body(w: World) -> dict:
    single = review_body(w, "in_review")
    return {**{k: v for k, v in single.items() if k != "screening_case_uuid"}, "screening_case_uuids": [single["screening_case_uuid"]]}


def acting(w: World) -> str:
    return w.refs["member"]


def _monitoring_for_spare(w: World) -> dict:
    monitoring_type = str(EntityMonitoringType.objects.get(key="other").uuid)
    return {"entity_monitoring": {"entity_monitoring_type_uuid": monitoring_type,
                                  "monitoring_customer_person_uuid": w.refs["spare_person"]}}


GET = "get"
POST = "post"
PATCH = "patch"
PUT = "put"
DELETE = "delete"
A = "/analysis/v1"

PRIVATE: dict[tuple[str, str], Private] = {
    # Organisation and its members, API users, audit log.
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/overview"): Private(),
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/app-membership"): Private(),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/app-membership"): Private(
        body=lambda w: {"email": "new.member@example.no", "full_name": "New Member"}),
    (PATCH, f"{A}/app-customer/{{app_customer_uuid}}/app-membership/{{app_membership_uuid}}"): Private(
        body=lambda w: {"active_flag": False}),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/app-membership/{{app_membership_uuid}}/password-reset"): Private(
        body=lambda w: {},
        crossed=(("acting as A's member", lambda a, b: {"body": {"app_membership_uuid": acting(a)}}),)),
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/api-user"): Private(),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/api-user"): Private(
        body=lambda w: {"name": "New robot", "role_keys": ["aml"]},
        crossed=(("acting as A's member", lambda a, b: {"body": {"name": "x", "app_membership_uuid": acting(a)}}),)),
    (PATCH, f"{A}/app-customer/{{app_customer_uuid}}/api-user/{{api_user_uuid}}"): Private(
        body=lambda w: {"role_keys": ["aml"]}),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/api-user/{{api_user_uuid}}/secret-rotation"): Private(body=lambda w: {}),
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/audit-event"): Private(),
    # Watchlists.
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/watchlist"): Private(),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/watchlist"): Private(body=lambda w: {"watchlist_name": "Fresh"}),
    (GET, f"{A}/watchlist/{{watchlist_uuid}}"): Private(),
    (PATCH, f"{A}/watchlist/{{watchlist_uuid}}"): Private(body=lambda w: {"watchlist_name": "Renamed"}),
    (DELETE, f"{A}/watchlist/{{watchlist_uuid}}"): Private(),
    (GET, f"{A}/watchlist/{{watchlist_uuid}}/company"): Private(),
    (POST, f"{A}/watchlist/{{watchlist_uuid}}/company"): Private(body=lambda w: [{"org_nr": "913748174", "org_nr_schema": "NO"}]),
    # The company already on the world's watchlist: a replace that removes nothing (no role needed).
    (PUT, f"{A}/watchlist/{{watchlist_uuid}}/company"): Private(body=lambda w: [{"org_nr": "913748174", "org_nr_schema": "NO"}]),
    (DELETE, f"{A}/watchlist/{{watchlist_uuid}}/company"): Private(),
    (DELETE, f"{A}/watchlist/{{watchlist_uuid}}/company/{{company_identifier}}"): Private(),
    # Screening configs, their categories and watchlists.
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/screening-config"): Private(),
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/screening-config"): Private(body=lambda w: {}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}"): Private(),
    (PATCH, f"{A}/screening-config/{{screening_config_uuid}}"): Private(body=lambda w: {"four_eyes_review_flag": True}),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-screening-list-category"): Private(
        body=lambda w: {"screening_list_category_uuid": category_uuid("eu_financial_sanctions")}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-screening-list-category"): Private(),
    (DELETE, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-screening-list-category/{{link_uuid}}"): Private(),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-watchlist"): Private(
        body=lambda w: {"watchlist_uuid": w.ids["watchlist_uuid"]},
        crossed=(("attaching A's watchlist", lambda a, b: {"body": {"watchlist_uuid": a.ids["watchlist_uuid"]}}),)),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-watchlist"): Private(),
    (DELETE, f"{A}/screening-config/{{screening_config_uuid}}/screening-config-watchlist/{{screening_config_watchlist_uuid}}"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/suggestion-preview"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/suggested-person"): Private(
        query=lambda w: {"related_company_uuid": w.ids["company_identifier"]}),
    # Customer persons.
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/customer-person"): Private(body=lambda w: {"full_name": "Ny Person"}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/customer-person"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/customer-person-duplicate"): Private(
        crossed=(("A's person through B's config", lambda a, b: {"query": {"customer_person_uuid": a.ids["customer_person_uuid"]}}),)),
    (GET, f"{A}/customer-person/{{customer_person_uuid}}"): Private(),
    (PATCH, f"{A}/customer-person/{{customer_person_uuid}}"): Private(body=lambda w: {"full_name": "Kari Hansen"}),
    (POST, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-national-identification"): Private(
        body=lambda w: {"national_identification_schema": "SE", "national_identification_number": "861015-0016"}),
    (GET, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-national-identification"): Private(),
    (DELETE, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-national-identification/{{national_identification_uuid}}"): Private(),
    (DELETE, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-location/{{customer_person_location_uuid}}"): Private(),
    (POST, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-location"): Private(
        body=lambda w: {"street_address": "Storgata 2", "country_code_two": "NO"}),
    (GET, f"{A}/customer-person/{{customer_person_uuid}}/customer-person-location"): Private(),
    (POST, f"{A}/customer-person/{{customer_person_uuid}}/merge"): Private(
        body=lambda w: {"duplicate_customer_person_uuid": w.refs["second_record"]},
        crossed=(("merging A's person into B's", lambda a, b: {"body": {"duplicate_customer_person_uuid": a.ids["customer_person_uuid"]}}),)),
    # Monitorings.
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/entity-monitoring-composite"): Private(
        body=_monitoring_for_spare,
        crossed=(("monitoring A's customer person", lambda a, b: {"body": _monitoring_for_spare(a)}),)),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/entity-monitoring-composite"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/entity-monitoring-composite/{{entity_monitoring_uuid}}"): Private(),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/entity-monitoring-decision"): Private(
        body=lambda w: {"entity_monitoring_uuid": w.ids["entity_monitoring_uuid"], "approved_flag": True},
        crossed=(("deciding on A's monitoring", lambda a, b: {"body": {"entity_monitoring_uuid": a.ids["entity_monitoring_uuid"],
                                                                        "approved_flag": False}}),)),
    (PATCH, f"{A}/screening-config/{{screening_config_uuid}}/entity-monitoring/{{entity_monitoring_uuid}}"): Private(
        body=lambda w: {"removed_flag": True, "removal_reason": "customer left"}),
    # Cases, reviews, reports of cases, batches.
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-composite-collection"): Private(
        crossed=(
            ("filtering on A's case", lambda a, b: {"query": {"screening_case_uuid": a.ids["screening_case_uuid"]}}),
            ("filtering on A's person", lambda a, b: {"query": {"inquiry_entity_uuid": a.ids["customer_person_uuid"]}}),
            ("filtering on A's member", lambda a, b: {"query": {"assignee_app_membership_uuid": acting(a)}}),
            ("A's case as the listed entity", lambda a, b: {"query": {"listed_as_case_uuid": a.ids["screening_case_uuid"]}}),
        )),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-status-count"): Private(
        crossed=(("A's case as the listed entity", lambda a, b: {"query": {"listed_as_case_uuid": a.ids["screening_case_uuid"]}}),)),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-review"): Private(
        body=lambda w: review_body(w, "in_review"),
        crossed=(
            ("reviewing A's case", lambda a, b: {"body": {**review_body(b, "in_review"), "screening_case_uuid": a.ids["screening_case_uuid"]}}),
            ("A's member as reviewer", lambda a, b: {"body": {**review_body(b, "in_review"), "reviewer_app_membership_uuid": acting(a)}}),
        )),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-review-batch"): Private(
        body=lambda w: review_batch_body(w),
        crossed=(
            ("reviewing A's case", lambda a, b: {"body": {**review_batch_body(b), "screening_case_uuids": [a.ids["screening_case_uuid"]]}}),
            ("A's case beside B's own", lambda a, b: {"body": {**review_batch_body(b), "screening_case_uuids": [b.ids["screening_case_uuid"], a.ids["screening_case_uuid"]]}}),
            ("A's member as reviewer", lambda a, b: {"body": {**review_batch_body(b), "reviewer_app_membership_uuid": acting(a)}}),
        )),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-assignment-batch"): Private(
        body=lambda w: {"screening_case_uuids": [w.ids["screening_case_uuid"]], "assignee_app_membership_uuid": acting(w)},
        crossed=(
            ("assigning A's case", lambda a, b: {"body": {"screening_case_uuids": [a.ids["screening_case_uuid"]], "assignee_app_membership_uuid": acting(b)}}),
            ("assigning to A's member", lambda a, b: {"body": {"screening_case_uuids": [b.ids["screening_case_uuid"]], "assignee_app_membership_uuid": acting(a)}}),
        )),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-related-company-status-composite-collection"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-report"): Private(
        query=lambda w: {"screening_case_uuid": w.ids["screening_case_uuid"]},
        crossed=(("A's case through B's config", lambda a, b: {"query": {"screening_case_uuid": a.ids["screening_case_uuid"]}}),)),
    (PATCH, f"{A}/screening-config/{{screening_config_uuid}}/screening-case/{{screening_case_uuid}}"): Private(
        body=lambda w: {"assignee_app_membership_uuid": acting(w)},
        crossed=(("assigning to A's member", lambda a, b: {"body": {"assignee_app_membership_uuid": acting(a)}}),)),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/screening-batch"): Private(
        multipart=lambda w: {"file": batch_file("Ny Batchrad")}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-batch"): Private(),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/customer-person-import"): Private(
        multipart=lambda w: {"file": customer_person_file("Ny Importkunde")}),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/customer-person-import-job"): Private(
        multipart=lambda w: {"file": customer_person_file("Ny Jobbkunde")}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/customer-person-import-job"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/customer-person-import-job/{{customer_person_import_job_uuid}}"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-batch/{{screening_batch_uuid}}"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-batch/{{screening_batch_uuid}}/result"): Private(),
    (DELETE, f"{A}/screening-config/{{screening_config_uuid}}/screening-batch/{{screening_batch_uuid}}"): Private(),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-run"): Private(),
    (POST, f"{A}/screening-config/{{screening_config_uuid}}/records-hold"): Private(
        body=lambda w: {"entity_key": "customer_person", "entity_uuid": w.refs["spare_person"], "reason": "Politiet ba om det."},
        crossed=(("A's person through B's config", lambda a, b: {"body": {
            "entity_key": "customer_person", "entity_uuid": a.ids["customer_person_uuid"], "reason": "Politiet ba om det."}}),)),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/records-hold"): Private(
        crossed=(("filtering on A's person", lambda a, b: {"query": {"entity_uuid": a.ids["customer_person_uuid"]}}),)),
    (POST, f"{A}/records-hold/{{records_hold_uuid}}/release"): Private(body=lambda w: {"release_reason": "Saken er avsluttet."}),
    (POST, f"{A}/records-hold/{{records_hold_uuid}}/keep"): Private(body=lambda w: {"keep_reason": "Saken er ikke avsluttet."}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/records-retention"): Private(
        query=lambda w: {"entity_key": "customer_person", "entity_uuid": w.ids["customer_person_uuid"]},
        crossed=(("A's person through B's config", lambda a, b: {"query": {
            "entity_key": "customer_person", "entity_uuid": a.ids["customer_person_uuid"]}}),)),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/records-due"): Private(query=lambda w: {"records_retention_years": 5}),
    (GET, f"{A}/screening-config/{{screening_config_uuid}}/screening-case-statistics"): Private(),
    # Partner reports and their files.
    (POST, f"{A}/app-customer/{{app_customer_uuid}}/partner-report-order-composite"): Private(
        body=lambda w: report_order_body_for(w)),
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/partner-report-order/{{partner_report_order_uuid}}"): Private(),
    (GET, f"{A}/app-customer/{{app_customer_uuid}}/partner-report-composite"): Private(
        crossed=(("filtering on A's order", lambda a, b: {"query": {"partner_report_order_uuid": a.ids["partner_report_order_uuid"]}}),)),
    (POST, f"{A}/file-session"): Private(
        body=lambda w: [{"app_customer_uuid": w.ids["app_customer_uuid"], "file_path": w.ids["file_path"]}],
        crossed=(
            ("A's organisation and file", lambda a, b: {"body": [{"app_customer_uuid": a.ids["app_customer_uuid"], "file_path": a.ids["file_path"]}]}),
            ("B's organisation, A's file", lambda a, b: {"body": [{"app_customer_uuid": b.ids["app_customer_uuid"], "file_path": a.ids["file_path"]}]}),
        )),
    (GET, f"{A}/file/{{file_path}}"): Private(
        crossed=(("A's file with B's session", lambda a, b: {"path": {"file_path": a.ids["file_path"]},
                                                             "query": {"file_session_uuid": b.refs["file_session"], "bucket_name": "general"}}),)),
}


def report_order_body_for(w: World) -> dict:
    from service.companies.models import Company

    return report_order_body(Company.objects.get(uuid=w.ids["company_identifier"]))


PUBLIC: dict[tuple[str, str], str] = {
    (GET, f"{A}/auth-status"): "says only whether the caller's own credentials work",
    **{(GET, f"{A}/company/{{company_identifier}}{tail}"): "the public company register (Brønnøysund data), the same for everyone"
       for tail in ("", "/company-credit-risk-composite", "/company-flag-composite", "/company-employment",
                    "/accounts-auditor-note-composite", "/accounts-composite")},
    (GET, f"{A}/collection-case-composite"): "register data about a debtor company, the same for everyone (role credit_check)",
    (GET, f"{A}/company-role"): "the public register's company roles",
    (GET, f"{A}/company-measure-yearly-composite"): "register measures of companies",
    (GET, f"{A}/company-measure-type"): "reference list of measure types",
    (GET, f"{A}/sector-measure-yearly-aggregate-composite"): "statistics over the public register",
    (GET, f"{A}/screening-config-system-suggestion-setting"): "reference list of suggestion settings",
    (GET, f"{A}/screening-list-category"): "the screening lists every organisation screens against",
    (GET, f"{A}/entity-monitoring-type"): "reference list",
    (GET, f"{A}/gender"): "reference list",
    (GET, f"{A}/person-location-type"): "reference list",
    (GET, f"{A}/geo-country"): "reference list",
    (GET, f"{A}/screening-case-review-status"): "reference list",
    (GET, f"{A}/entity-match-decision-type"): "reference list",
    (GET, f"{A}/partner-report-type"): "reference list of report types",
    (GET, "/datasets/v1/dataset"): "the catalogue of public register datasets",
    (GET, "/datasets/v1/dataset/{name}"): "public register datasets, the same for everyone",
}

# Query parameters PUBLIC operations need, by name (so their answers can be checked for A's data too).
PUBLIC_QUERY = {
    "company_identifier": lambda w: w.ids["company_identifier"],
    "debtor_company_identifier": lambda w: w.ids["company_identifier"],
    "measure_year": lambda w: 2024,
    "company_measure_type_identifier": lambda w: "employees",
}


def public_calls(w: World, method: str, path: str) -> list[tuple[str, dict, str]]:
    """(url, query, required role or "") of a PUBLIC operation for `w`: every dataset the catalogue lists for `{name}`."""
    query = {name: make(w) for name, make in PUBLIC_QUERY.items()}
    if "{name}" not in path:
        return [(path.replace("{company_identifier}", w.ids["company_identifier"]), query, "")]
    catalogue = w.call("get", "/datasets/v1/dataset").json()
    return [(path.replace("{name}", dataset["name"]), {}, dataset["required_role"] or "") for dataset in catalogue]
