"""Every operation of both OpenAPI documents, called with valid data, answers exactly as declared.

One organisation with data (a company with accounts, remarks, statuses, roles and a score;
tiny UN and PEP lists; a watchlist, a screening config with a screened customer person and
its case, a batch, a report) and an API user holding every role. The walk calls each
operation of /analysis/openapi.json and /datasets/openapi.json once: GETs generically (path
and required query parameters filled from the data by name), writes with the small example
each needs (WRITES, run first, in order, so later calls find what they made). Each answer
must have a declared 2xx status, and a JSON body must validate against the declared schema,
with objects closed (no key the schema does not declare). An operation in a document that
the walk does not call fails the test, so a new endpoint needs its example here.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

import jsonschema_rs
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from service.companies import services
from service.companies.analysis import analysis_refresh
from service.screening.models import ScreeningConfig
from tests.conftest import ALL_ROLES
from tests.service.companies.factories import accounts_make, collection_case_make, company_make, person_make, role_make
from tests.service.screening.batch.conftest import csv_bytes
from tests.service.screening.cases.conftest import UN_PERSON, lists  # noqa: F401  (the fixture)
from tests.service.screening.cases.steps import match_decision_uuid, member_of, review_status_uuid
from tests.service.screening.helpers import category_uuid, gender_uuid, monitoring_body

pytestmark = pytest.mark.django_db(transaction=True)  # screening runs and reports are enqueued on commit


@dataclass
class Walk:
    api: object
    ids: dict = field(default_factory=dict)  # path and query parameter values by name
    called: set = field(default_factory=set)  # (method, path template)
    problems: list = field(default_factory=list)
    documents: dict = field(default_factory=dict)

    def call(self, method: str, template: str, *, body=None, query=None, files=None) -> object:
        path = re.sub(r"\{(\w+)\}", lambda match: str(self.ids[match.group(1)]), template)
        headers = {**self.api.headers(ALL_ROLES), "HTTP_ACCEPT": "application/json"}
        client = self.api.client
        if files is not None:
            response = client.post(path, files, **headers)
        elif method == "get":
            response = client.get(path, query or {}, **headers)
        else:
            data = json.dumps(body) if body is not None else ""
            response = getattr(client, method)(path, data, content_type="application/json", **headers)
        self.called.add((method, template))
        self.check(method, template, response)
        return response

    def check(self, method: str, template: str, response) -> None:
        document = self.documents[template.split("/")[1]]
        declared = document["paths"][template][method]["responses"]
        status = str(response.status_code)
        if not status.startswith("2") or status not in {str(key) for key in declared}:
            self.problems.append(f"{method.upper()} {template}: {status} {response.content[:300]!r}")
            return
        content = declared.get(status, declared.get(int(status), {})).get("content", {})
        if "application/json" not in content:
            sent = response.get("Content-Type", "").split(";")[0]
            if content and sent not in content:
                self.problems.append(f"{method.upper()} {template}: declares {sorted(content)}, sent {sent}")
            return  # a file, a stream or no body: no schema to hold it against
        raw = b"".join(response.streaming_content) if response.streaming else response.content
        try:
            body = json.loads(raw)
        except ValueError:
            self.problems.append(f"{method.upper()} {template}: declares JSON, sent {response['Content-Type']}: {raw[:200]!r}")
            return
        validator = jsonschema_rs.Draft202012Validator(
            {**content["application/json"]["schema"], "components": document["closed_components"]}
        )
        errors = [f"{'/'.join(map(str, error.instance_path))}: {error.message}" for error in validator.iter_errors(body)]
        if errors:
            self.problems.append(f"{method.upper()} {template}: answer differs from its schema: {errors[:5]}")

    def result(self, response, key: str, name: str) -> None:
        if 200 <= response.status_code < 300:
            self.ids[name] = response.json()[key] if not isinstance(response.json(), list) else response.json()[0][key]


def _closed(components: dict) -> dict:
    """The components with every object schema closed: a key the schema does not declare is an error."""
    components = copy.deepcopy(components)

    def close(node):
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(components)
    return components


def _documents(api) -> dict:
    documents = {}
    for name in ("analysis", "datasets"):
        document = api.client.get(f"/{name}/openapi.json", **api.headers()).json()
        document["closed_components"] = _closed(document.get("components", {}))
        documents[name] = document
    return documents


@pytest.fixture
def today():
    """The day the company's data is dated from; the walk asks for the measures of the year before it,
    which has accounts even when the year turns during the test."""
    return timezone.localdate()


@pytest.fixture
def company(db, today):
    company = company_make(employees=4)
    owner = company_make(name="Eier AS")
    for year in (today.year - 2, today.year - 1):
        accounts_make(company=company, year=year, balance={"total_equity": Decimal("-1")},
                      notes=[("going_concern", "Doubt.")])
    accounts_make(company=company, year=today.year - 1, type_key="annual_corporate_group_accounts", balance=None)
    case = collection_case_make(company=company)
    services.payment_remark_create(company=company, amount=Decimal(10), registered_date=today - timedelta(days=9),
                                   collection_case=case)
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=today - timedelta(days=3))
    services.company_employment_add(company=company, employee_count=4,
                                     from_date=timezone.make_aware(datetime(today.year - 1, 1, 1)))
    role_make(company=company, role_key="ceo", person=person_make(national_id="01017012345", birth_date=date(1970, 1, 1)))
    role_make(company=company, role_key="shareholder", holder_company=owner, share_percentage=Decimal("100"))
    analysis_refresh(company_uuids=[company.uuid])
    return company


V1 = "/analysis/v1"
CUSTOMER = V1 + "/app-customer/{app_customer_uuid}"
CONFIG = V1 + "/screening-config/{screening_config_uuid}"
PERSON = V1 + "/customer-person/{customer_person_uuid}"


def _writes(walk: Walk, company) -> None:
    """The writes in an order that lets each find what the ones before it made, and the reads
    that need a value only a write gives. Deletes come last (DELETES)."""
    org = {"org_nr": company.org_nr, "org_nr_schema": company.org_nr_schema}
    r = walk.call("post", CUSTOMER + "/app-membership", body={"email": "kari@nordbank.no", "full_name": "Kari Nordmann"})
    walk.result(r, "uuid", "app_membership_uuid")
    walk.call("patch", CUSTOMER + "/app-membership/{app_membership_uuid}", body={"active_flag": True})
    walk.call("post", CUSTOMER + "/app-membership/{app_membership_uuid}/password-reset", body={})
    r = walk.call("post", CUSTOMER + "/api-user", body={"name": "ERP", "role_keys": ["aml"]})
    walk.ids["api_user_uuid"] = r.json()["api_user"]["uuid"] if r.status_code == 201 else None
    walk.call("post", CUSTOMER + "/api-user/{api_user_uuid}/secret-rotation", body={})
    walk.call("patch", CUSTOMER + "/api-user/{api_user_uuid}", body={"active_flag": False})

    r = walk.call("post", CUSTOMER + "/watchlist", body={"watchlist_name": "Kunder"})
    walk.result(r, "uuid", "watchlist_uuid")
    walk.call("patch", V1 + "/watchlist/{watchlist_uuid}", body={"watchlist_name": "Kunder 2"})
    walk.call("post", V1 + "/watchlist/{watchlist_uuid}/company", body=[org])
    walk.call("put", V1 + "/watchlist/{watchlist_uuid}/company", body=[org])

    r = walk.call("post", CUSTOMER + "/screening-config", body={})
    walk.result(r, "uuid", "screening_config_uuid")
    walk.call("patch", CONFIG, body={"four_eyes_review_flag": False})
    for key in ("un_security_council", "pep"):
        r = walk.call("post", CONFIG + "/screening-config-screening-list-category",
                      body={"screening_list_category_uuid": category_uuid(key)})
        walk.result(r, "uuid", "link_uuid")
    r = walk.call("post", CONFIG + "/screening-config-watchlist", body={"watchlist_uuid": walk.ids["watchlist_uuid"]})
    walk.result(r, "uuid", "screening_config_watchlist_uuid")
    r = walk.call("post", CONFIG + "/customer-person",
                  body={"full_name": UN_PERSON, "birth_date": "1966-03-14", "gender_uuid": gender_uuid("male")})
    walk.result(r, "uuid", "customer_person_uuid")
    walk.call("patch", PERSON, body={"birth_date": "1966-03-14"})  # the name stays: the cases below need it
    r = walk.call("post", CONFIG + "/customer-person", body={"full_name": UN_PERSON, "birth_date": "1966-03-14"})
    duplicate = r.json()["uuid"] if r.status_code == 201 else None
    walk.call("post", PERSON + "/merge", body={"duplicate_customer_person_uuid": duplicate})
    r = walk.call("post", PERSON + "/customer-person-national-identification",
                  body={"national_identification_schema": "NO", "national_identification_number": "14036600315"})  # born 14.03.1966
    walk.result(r, "uuid", "national_identification_uuid")
    r = walk.call("post", PERSON + "/customer-person-location", body={"postal_place": "Oslo", "country_code_two": "NO"})
    walk.result(r, "uuid", "customer_person_location_uuid")
    r = walk.call("post", CONFIG + "/entity-monitoring-composite",
                  body=monitoring_body(customer_person=walk.ids.get("customer_person_uuid")))
    walk.ids["entity_monitoring_uuid"] = r.json()["entity_monitoring"]["uuid"] if r.status_code == 201 else None
    walk.call("post", CONFIG + "/entity-monitoring-decision",
              body={"entity_monitoring_uuid": walk.ids["entity_monitoring_uuid"], "approved_flag": True})

    r = walk.call("get", CONFIG + "/screening-case-composite-collection")
    cases = r.json()[0]["elements"] if r.status_code == 200 else []
    walk.ids["screening_case_uuid"] = cases[0]["screening_case"]["uuid"] if cases else None
    reviewer = member_of(walk.api, "aml@nordbank.no")
    walk.call("patch", CONFIG + "/screening-case/{screening_case_uuid}", body={"assignee_app_membership_uuid": reviewer})
    walk.call("post", CONFIG + "/screening-case-assignment-batch",
              body={"screening_case_uuids": [walk.ids["screening_case_uuid"]], "assignee_app_membership_uuid": None})
    walk.call("post", CONFIG + "/screening-case-review-batch", body={
        "screening_case_uuids": [walk.ids["screening_case_uuid"]],
        "screening_case_review_status_uuid": review_status_uuid("in_review"),
        "reviewer_app_membership_uuid": reviewer,
        "entity_match_decision_type_uuid": match_decision_uuid("possible_match"),
    })
    walk.call("post", CONFIG + "/screening-case-review", body={
        "screening_case_uuid": walk.ids["screening_case_uuid"],
        "pep_confirmed_flag": False,
        "screening_case_review_status_uuid": review_status_uuid("false_positive"),
        "reviewer_app_membership_uuid": reviewer,
        "entity_match_decision_type_uuid": match_decision_uuid("no_match"),
    })

    r = walk.call("post", CONFIG + "/records-hold", body={
        "entity_key": "customer_person", "entity_uuid": walk.ids["customer_person_uuid"], "reason": "Asked for by the police."})
    walk.result(r, "uuid", "records_hold_uuid")
    four_eyes = ScreeningConfig.objects.filter(uuid=walk.ids["screening_config_uuid"])
    four_eyes.update(four_eyes_review_flag=True)  # a release asked for (202), then turned down
    walk.call("post", V1 + "/records-hold/{records_hold_uuid}/release",
              body={"release_reason": "The case is closed.", "app_membership_uuid": reviewer})
    walk.call("post", V1 + "/records-hold/{records_hold_uuid}/keep", body={"keep_reason": "Økokrim needs them longer."})
    four_eyes.update(four_eyes_review_flag=False)
    walk.call("post", V1 + "/records-hold/{records_hold_uuid}/release", body={"release_reason": "The case is closed."})

    rows = [{"type": "person", "id": "1", "name": UN_PERSON, "birth_date": "1966-03-14", "nationality": "ru",
             "gender": "male", "country": ""}]
    r = walk.call("post", CONFIG + "/screening-batch",
                  files={"file": SimpleUploadedFile("customers.csv", csv_bytes(rows), content_type="text/csv")})
    walk.result(r, "uuid", "screening_batch_uuid")
    customers = b"name;birth_date;national_id;national_id_country\nAstrid Lie;1986-10-15;15108695088;NO\n"
    walk.call("post", CONFIG + "/customer-person-import",
              files={"file": SimpleUploadedFile("customers.csv", customers, content_type="text/csv")})
    r = walk.call("post", CONFIG + "/customer-person-import-job",
                  files={"file": SimpleUploadedFile("customers.csv", customers, content_type="text/csv")})
    walk.result(r, "uuid", "customer_person_import_job_uuid")

    r = walk.call("post", CUSTOMER + "/partner-report-order-composite", body={"partner_report_composites": [
        {"partner_report": {"company_uuid": str(company.uuid), "partner_report_type_key": "company_profile"}}
    ]})
    walk.ids["partner_report_order_uuid"] = r.json()["partner_report_order"]["uuid"] if r.status_code == 201 else None
    from service.reports.models import PartnerReport

    report = PartnerReport.objects.filter(company=company).first()
    walk.ids["file_path"] = report.file_path if report else None
    walk.call("post", V1 + "/file-session",
              body=[{"app_customer_uuid": str(walk.api.app_customer_uuid), "file_path": walk.ids["file_path"]}])


DELETES = [
    (V1 + "/watchlist/{watchlist_uuid}/company", "body"),
    (V1 + "/watchlist/{watchlist_uuid}/company/{company_identifier}", None),
    (CONFIG + "/screening-config-watchlist/{screening_config_watchlist_uuid}", None),
    (CONFIG + "/screening-config-screening-list-category/{link_uuid}", None),
    (V1 + "/watchlist/{watchlist_uuid}", None),
    (PERSON + "/customer-person-national-identification/{national_identification_uuid}", None),
    (PERSON + "/customer-person-location/{customer_person_location_uuid}", None),
    (CONFIG + "/screening-batch/{screening_batch_uuid}", None),
]

# GETs whose parameters the generic walk cannot guess (one of several is needed, or an id only the data gives).
GET_QUERY = {
    V1 + "/sector-measure-yearly-aggregate-composite": lambda ids: {
        "measure_year": ids["measure_year"], "company_measure_type_identifier": "equity_ratio",
        "benchmark_company_identifier": ids["company_identifier"],
    },
    CONFIG + "/screening-case-report": lambda ids: {"screening_case_uuid": ids["screening_case_uuid"]},
    CONFIG + "/records-retention": lambda ids: {"entity_key": "customer_person", "entity_uuid": ids["customer_person_uuid"]},
}

# Required query parameters of the other GETs, by name.
QUERY = {
    "company_identifier": lambda ids: ids["company_identifier"],
    "debtor_company_identifier": lambda ids: ids["company_identifier"],
    "measure_year": lambda ids: ids["measure_year"],
    "company_measure_type_identifier": lambda ids: "equity_ratio",
    "benchmark_company_identifier": lambda ids: ids["company_identifier"],
    "related_company_uuid": lambda ids: ids["company_identifier"],
}


def test_every_operation_answers_as_its_schema_declares(api, company, today, lists, settings, tmp_path):  # noqa: F811
    settings.MEDIA_ROOT = str(tmp_path / "media")
    walk = Walk(api, ids={"app_customer_uuid": api.app_customer_uuid, "company_identifier": str(company.uuid),
                          "name": "company-composite", "measure_year": today.year - 1})
    walk.documents = _documents(api)

    _writes(walk, company)
    for name, document in walk.documents.items():
        for template, methods in document["paths"].items():
            if "get" in methods and ("get", template) not in walk.called:
                required = [p["name"] for p in methods["get"].get("parameters", []) if p["in"] == "query" and p.get("required")]
                query = GET_QUERY[template](walk.ids) if template in GET_QUERY else {n: QUERY[n](walk.ids) for n in required}
                walk.call("get", template, query=query)
    org = {"org_nr": company.org_nr, "org_nr_schema": company.org_nr_schema}
    for template, body in DELETES:
        if "/company" in template:  # each of the two removals finds the company on the watchlist
            walk.call("post", V1 + "/watchlist/{watchlist_uuid}/company", body=[org])
        walk.call("delete", template, body=[org] if body else None)
    walk.call("patch", CONFIG + "/entity-monitoring/{entity_monitoring_uuid}",
              body={"removed_flag": True, "removal_reason": "No longer a customer"})

    operations = {
        (method, template)
        for document in walk.documents.values()
        for template, methods in document["paths"].items()
        for method in methods
    }
    assert not walk.problems, "\n".join(walk.problems)
    assert operations - walk.called == set(), "operations the walk does not call: give each an example"
