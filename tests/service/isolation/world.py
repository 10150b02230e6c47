"""One organisation's private data, made through the HTTP API as a customer would make it.

`world_make` gives every kind of private resource the API has (watchlists, a screening config
with categories and an attached watchlist, customer persons with a national id and a location,
monitorings, a screening case and its review, a batch job, a report order with its file and a
file session, members, API users and so the audit log), and returns their identifiers by the
path-parameter names of the OpenAPI documents, plus the strings that must never reach another
organisation (`secrets`: names, ids, emails, numbers).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from service.screening.models import (
    EntityMatchDecisionType, PersonLocationType, ScreeningCaseReviewStatus, ScreeningRecordsHold,
)
from tests.conftest import ApiCaller, make_caller
from tests.service.screening.helpers import category_uuid, monitoring_body

V1 = "/analysis/v1"
EVERY_ROLE = ["aml", "credit_check", "person_national_identification", "app_admin"]


@dataclass
class World:
    caller: ApiCaller
    ids: dict[str, str]  # OpenAPI path-parameter name -> this organisation's resource
    refs: dict[str, str] = field(default_factory=dict)  # other own resources request bodies refer to
    secrets: set[str] = field(default_factory=set)  # must never appear in another organisation's answers

    def call(self, method: str, path: str, *, body=None, query=None, multipart=None, roles=EVERY_ROLE):
        headers = self.caller.headers(roles)
        client = self.caller.client
        if multipart is not None:
            return client.post(path, multipart, **headers)
        if method == "get":
            return client.get(path, query or {}, **headers)
        if query:
            from urllib.parse import urlencode

            path = f"{path}?{urlencode(query, doseq=True)}"
        data = json.dumps(body) if body is not None else ""
        return getattr(client, method)(path, data, content_type="application/json", **headers)


def _ok(response, status=(200, 201, 202)):
    assert response.status_code in status, (response.status_code, response.content[:500])
    return response.json() if response["Content-Type"].startswith("application/json") else response


def batch_file(full_name: str) -> SimpleUploadedFile:
    content = f"type,id,name,birth_date\nperson,row-1,{full_name},1966-03-14\n".encode()
    return SimpleUploadedFile("customers.csv", content, content_type="text/csv")


def customer_person_file(full_name: str) -> SimpleUploadedFile:
    content = f"id,name,birth_date\nrow-1,{full_name},1966-03-14\n".encode()
    return SimpleUploadedFile("customers.csv", content, content_type="text/csv")


def world_make(organisation: str, *, tag: str, company, listed_person: str, capture) -> World:
    """`organisation`'s data; `tag` makes its names unique (they are its secrets); `listed_person` is
    a name on the screening lists, so its monitoring raises a case; `capture` runs on-commit work."""
    caller = make_caller(organisation)
    w = World(caller=caller, ids={"app_customer_uuid": str(caller.app_customer_uuid)})
    org = w.ids["app_customer_uuid"]
    w.secrets |= {organisation, org, caller.credentials.basic_auth_id, caller.credentials.token_auth_id}

    member = _ok(w.call("post", f"{V1}/app-customer/{org}/app-membership",
                        body={"email": f"aml.{tag}@example.no", "full_name": f"Reviewer {tag}"}))
    spare_member = _ok(w.call("post", f"{V1}/app-customer/{org}/app-membership",
                              body={"email": f"spare.{tag}@example.no", "full_name": f"Spare {tag}"}))
    w.ids["app_membership_uuid"] = spare_member["uuid"]  # re-activated, deactivated by the matrix
    w.refs["member"] = member["uuid"]
    w.secrets |= {member["uuid"], spare_member["uuid"], f"aml.{tag}@example.no", f"Reviewer {tag}", f"Spare {tag}"}
    spare_user = _ok(w.call("post", f"{V1}/app-customer/{org}/api-user", body={"name": f"Robot {tag}", "role_keys": ["aml"]}))
    w.ids["api_user_uuid"] = spare_user["api_user"]["uuid"]
    w.secrets |= {spare_user["api_user"]["uuid"], spare_user["basic_auth_id"], spare_user["token_auth_id"], f"Robot {tag}"}

    watchlist = _ok(w.call("post", f"{V1}/app-customer/{org}/watchlist", body={"watchlist_name": f"Watchlist {tag}"}))
    w.ids["watchlist_uuid"] = watchlist["uuid"]
    _ok(w.call("post", f"{V1}/watchlist/{watchlist['uuid']}/company", body=[{"org_nr": company.org_nr, "org_nr_schema": "NO"}]))
    w.ids["company_identifier"] = str(company.uuid)  # public register data, private only as a watchlist entry
    attached = _ok(w.call("post", f"{V1}/app-customer/{org}/watchlist", body={"watchlist_name": f"Screened {tag}"}))
    w.refs["attached_watchlist"] = attached["uuid"]
    w.secrets |= {watchlist["uuid"], attached["uuid"], f"Watchlist {tag}", f"Screened {tag}"}

    config = _ok(w.call("post", f"{V1}/app-customer/{org}/screening-config", body={}))
    cfg = w.ids["screening_config_uuid"] = config["uuid"]
    for key in ("un_security_council", "pep"):
        link = _ok(w.call("post", f"{V1}/screening-config/{cfg}/screening-config-screening-list-category",
                          body={"screening_list_category_uuid": category_uuid(key)}))
    w.ids["link_uuid"] = link["uuid"]
    watch_link = _ok(w.call("post", f"{V1}/screening-config/{cfg}/screening-config-watchlist",
                            body={"watchlist_uuid": attached["uuid"]}))
    w.ids["screening_config_watchlist_uuid"] = watch_link["uuid"]
    w.secrets |= {cfg, link["uuid"], watch_link["uuid"]}

    # Born on the day its national id (below) holds: a number of someone born on another day is refused.
    person = _ok(w.call("post", f"{V1}/screening-config/{cfg}/customer-person",
                        body={"full_name": f"Hemmelig {tag} Kundesen", "birth_date": "1986-10-15"}))
    w.ids["customer_person_uuid"] = person["uuid"]
    national_id = _ok(w.call("post", f"{V1}/customer-person/{person['uuid']}/customer-person-national-identification",
                             body={"national_identification_schema": "NO", "national_identification_number": "15108695088"}))
    w.ids["national_identification_uuid"] = national_id["uuid"]
    residence = str(PersonLocationType.objects.get(key="residence").uuid)
    location = _ok(w.call("post", f"{V1}/customer-person/{person['uuid']}/customer-person-location",
                          body={"person_location_type_uuid": residence, "street_address": f"Hemmeligveien {tag}", "country_code_two": "NO"}))
    w.ids["customer_person_location_uuid"] = location["uuid"]
    spare_person = _ok(w.call("post", f"{V1}/screening-config/{cfg}/customer-person", body={"full_name": f"Reserve {tag} Person"}))
    w.refs["spare_person"] = spare_person["uuid"]
    # A second record of the same customer, as a file without the reference makes: what a merge takes in.
    second_record = _ok(w.call("post", f"{V1}/screening-config/{cfg}/customer-person",
                               body={"full_name": f"Hemmelig {tag} Kundesen", "birth_date": "1986-10-15"}))
    w.refs["second_record"] = second_record["uuid"]
    w.secrets.add(second_record["uuid"])
    w.secrets |= {person["uuid"], spare_person["uuid"], f"Hemmelig {tag} Kundesen", f"Hemmeligveien {tag}",
                  f"Reserve {tag} Person"}

    listed = _ok(w.call("post", f"{V1}/screening-config/{cfg}/customer-person", body={"full_name": listed_person}))
    with capture(execute=True):  # the screening run starts on commit
        monitoring = _ok(w.call("post", f"{V1}/screening-config/{cfg}/entity-monitoring-composite",
                                body=monitoring_body(customer_person=listed["uuid"], decision={"approved_flag": True})))
    monitoring_uuid = monitoring["entity_monitoring"]["uuid"]
    w.ids["entity_monitoring_uuid"] = monitoring_uuid
    cases = _ok(w.call("get", f"{V1}/screening-config/{cfg}/screening-case-composite-collection"))[0]["elements"]
    assert cases, f"{listed_person} raised no case"
    case_uuid = cases[0]["screening_case"]["uuid"]
    w.ids["screening_case_uuid"] = case_uuid
    _ok(w.call("post", f"{V1}/screening-config/{cfg}/screening-case-review", body=review_body(w, "escalated")))
    w.secrets |= {listed["uuid"], monitoring_uuid, case_uuid}
    hold = _ok(w.call("post", f"{V1}/screening-config/{cfg}/records-hold", body={
        "entity_key": "customer_person", "entity_uuid": listed["uuid"], "reason": f"Holdgrunn {tag}"}))
    w.ids["records_hold_uuid"] = hold["uuid"]
    # A release asked for under four-eyes review, waiting to be confirmed or kept (the keep control).
    ScreeningRecordsHold.objects.filter(uuid=hold["uuid"]).update(release_requested_timestamp=timezone.now())
    w.secrets |= {hold["uuid"], f"Holdgrunn {tag}"}

    with capture(execute=True):  # the batch runs on commit
        batch = _ok(w.call("post", f"{V1}/screening-config/{cfg}/screening-batch",
                           multipart={"file": batch_file(f"Batchrow {tag} Olsen")}))
    w.ids["screening_batch_uuid"] = batch["uuid"]
    w.secrets |= {batch["uuid"], f"Batchrow {tag} Olsen"}

    with capture(execute=True):  # the import runs on commit
        job = _ok(w.call("post", f"{V1}/screening-config/{cfg}/customer-person-import-job",
                         multipart={"file": customer_person_file(f"Jobbkunde {tag}")}))
    w.ids["customer_person_import_job_uuid"] = job["uuid"]
    w.secrets |= {job["uuid"], f"Jobbkunde {tag}"}

    with capture(execute=True):  # the report is produced on commit; ordered without roles, its file needs none
        order = _ok(w.call("post", f"{V1}/app-customer/{org}/partner-report-order-composite", body=report_order_body(company), roles=[]))
    w.ids["partner_report_order_uuid"] = order["partner_report_order"]["uuid"]
    reports = _ok(w.call("get", f"{V1}/app-customer/{org}/partner-report-composite"))
    file_path = reports[0]["partner_report"]["file_path"]
    assert file_path, reports
    w.ids["file_path"] = file_path
    session = _ok(w.call("post", f"{V1}/file-session", body=[{"app_customer_uuid": org, "file_path": file_path}]))
    w.refs["file_session"] = session[0]["file_session_uuid"]
    w.secrets |= {w.ids["partner_report_order_uuid"], file_path, w.refs["file_session"]}
    return w


def report_order_body(company) -> dict:
    return {"partner_report_composites": [{"partner_report": {"company_uuid": str(company.uuid),
                                                              "partner_report_type_key": "company_profile"}}]}


def review_body(w: World, status_key: str) -> dict:
    return {
        "screening_case_uuid": w.ids["screening_case_uuid"],
        "screening_case_review_status_uuid": str(ScreeningCaseReviewStatus.objects.get(key=status_key).uuid),
        "reviewer_app_membership_uuid": w.refs["member"],
        "entity_match_decision_type_uuid": str(EntityMatchDecisionType.objects.get(key="no_match").uuid),
        "screening_case_review_comment": "checked",
    }
