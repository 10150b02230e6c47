"""Each audited change, made through the API, leaves one record with its actor and before/after,
read back from GET /v1/app-customer/{uuid}/audit-event (extension)."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from service.audit.actions import ACTIONS
from service.screening.models import ScreeningConfig
from tests.service.audit.helpers import ADMIN, V1, audit_events
from tests.service.companies.factories import company_make
from tests.service.screening.cases.conftest import UN_PERSON, _committing, lists  # noqa: F401 (fixtures)
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review
from tests.service.screening.helpers import AML, category_uuid, config_url, customer_person_url, delete, patch
from tests.service.watchlists.helpers import companies_url, entry, watchlist_url, watchlists_url


def _ok(response, status=200):
    assert response.status_code == status, response.json() if response.content else response
    return response.json() if response.content else None


def test_it_records_each_change_with_its_actor_and_the_fields_before_and_after(api, lists, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")  # the batch file
    anna = member_of(api, "anna@nordbank.no")
    acting = {"app_membership_uuid": anna}
    company = company_make()
    # Watchlists: the acting member rides in the query (the add body is a bare list).
    wl = _ok(api.post(watchlists_url(api.app_customer_uuid) + f"?app_membership_uuid={anna}", {"watchlist_name": "Kunder"}), 201)["uuid"]
    _ok(patch(api, watchlist_url(wl) + f"?app_membership_uuid={anna}", {"watchlist_name": "Kunder 2026"}))
    _ok(api.post(companies_url(wl) + f"?app_membership_uuid={anna}", [entry(company)]))
    _ok(delete(api, f"{companies_url(wl)}/{company.uuid}?app_membership_uuid={anna}"), 204)
    # Screening setup.
    config = config_with(api, "un_security_council")
    _ok(patch(api, config_url(config["uuid"]), {"four_eyes_review_flag": True, **acting}))
    link = _ok(api.post(config_url(config["uuid"], "/screening-config-screening-list-category"),
                        {"screening_list_category_uuid": category_uuid("pep"), **acting}, roles=AML), 201)
    _ok(delete(api, config_url(config["uuid"], f"/screening-config-screening-list-category/{link['uuid']}?app_membership_uuid={anna}")), 204)
    attached = _ok(api.post(config_url(config["uuid"], "/screening-config-watchlist"), {"watchlist_uuid": wl, **acting}, roles=AML), 201)
    _ok(delete(api, config_url(config["uuid"], f"/screening-config-watchlist/{attached['uuid']}?app_membership_uuid={anna}")), 204)
    _ok(api.delete(f"{companies_url(wl)}?app_membership_uuid={anna}"))
    _ok(delete(api, watchlist_url(wl) + f"?app_membership_uuid={anna}", roles=None), 204)
    # Monitoring, cases.
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON)
    person = monitoring["entity_monitoring"]["monitoring_customer_person_uuid"]
    _ok(patch(api, customer_person_url(person), {"birth_date": "1966-03-14", **acting}))
    _ok(api.post(customer_person_url(person, "/customer-person-national-identification"),  # of someone born 14.03.1966
                 {"national_identification_schema": "NO", "national_identification_number": "14036600315", **acting},
                 roles=["aml", "person_national_identification"]), 201)
    location = _ok(api.post(customer_person_url(person, "/customer-person-location"), {"postal_place": "Oslo", "country_code_two": "NO", **acting}, roles=AML), 201)
    _ok(delete(api, customer_person_url(person, f"/customer-person-location/{location['uuid']}?app_membership_uuid={anna}")), 204)
    [national_id] = api.get(customer_person_url(person, "/customer-person-national-identification"), roles=["aml", "person_national_identification"]).json()
    _ok(delete(api, customer_person_url(person, f"/customer-person-national-identification/{national_id['uuid']}?app_membership_uuid={anna}"),
               roles=["aml", "person_national_identification"]), 204)
    second = _ok(api.post(config_url(config["uuid"], "/customer-person"), {"full_name": UN_PERSON, "birth_date": "1966-03-14"}, roles=AML), 201)
    _ok(api.post(customer_person_url(person, "/merge"), {"duplicate_customer_person_uuid": second["uuid"], **acting},
                 roles=["aml", "person_national_identification"]))
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    _ok(review(api, config["uuid"], case_uuid, "escalated", "possible_match", reviewer=anna), 201)
    _ok(patch(api, config_url(config["uuid"], f"/screening-case/{case_uuid}"), {"assignee_app_membership_uuid": anna, **acting}))
    _ok(patch(api, config_url(config["uuid"], f"/entity-monitoring/{monitoring['entity_monitoring']['uuid']}"),
              {"removed_flag": True, "removal_reason": "No longer a customer.", **acting}))
    hold = _ok(api.post(config_url(config["uuid"], "/records-hold"), {
        "entity_key": "customer_person", "entity_uuid": person, "reason": "Asked for by the police.", **acting}, roles=AML), 201)
    four_eyes = ScreeningConfig.objects.filter(uuid=config["uuid"])
    four_eyes.update(four_eyes_review_flag=True)  # a release asked for, withdrawn, then made alone
    _ok(api.post(f"{V1}/records-hold/{hold['uuid']}/release", {"release_reason": "The case is closed.", **acting}, roles=AML), 202)
    _ok(api.post(f"{V1}/records-hold/{hold['uuid']}/keep", {"keep_reason": "Not yet.", **acting}, roles=AML))
    four_eyes.update(four_eyes_review_flag=False)
    _ok(api.post(f"{V1}/records-hold/{hold['uuid']}/release", {"release_reason": "The case is closed.", **acting}, roles=AML))
    # A file screened at once (the acting member rides in the query: the body is the file).
    csv_file = SimpleUploadedFile("kunder.csv", b"name\nKari Nordmann\nOla Hansen\n", content_type="text/csv")
    batch = _ok(api.client.post(config_url(config["uuid"], f"/screening-batch?app_membership_uuid={anna}"), {"file": csv_file},
                                **api.headers(AML)), 202)
    _ok(delete(api, config_url(config["uuid"], f"/screening-batch/{batch['uuid']}?app_membership_uuid={anna}")), 204)
    # Members and API users.
    members = f"{V1}/app-customer/{api.app_customer_uuid}/app-membership"
    ola = _ok(api.client.post(members, {"email": "ola@nordbank.no", "full_name": "Ola", **acting}, content_type="application/json", **api.headers(ADMIN)), 201)
    _ok(api.client.post(f"{members}/{ola['uuid']}/password-reset", acting, content_type="application/json", **api.headers(ADMIN)))
    _ok(patch(api, f"{members}/{ola['uuid']}", {"active_flag": False, **acting}, roles=ADMIN))
    users = f"{V1}/app-customer/{api.app_customer_uuid}/api-user"
    created = _ok(api.client.post(users, {"name": "ERP", "role_keys": ["aml"], **acting}, content_type="application/json", **api.headers(ADMIN)), 201)
    erp = created["api_user"]["uuid"]
    _ok(patch(api, f"{users}/{erp}", {"role_keys": ["aml", "credit_check"], **acting}, roles=ADMIN))
    _ok(api.client.post(f"{users}/{erp}/secret-rotation", acting, content_type="application/json", **api.headers(ADMIN)), 201)
    _ok(patch(api, f"{users}/{erp}", {"active_flag": False, **acting}, roles=ADMIN))

    events = audit_events(api, roles=[*ADMIN, "aml", "person_national_identification"], limit=1000)

    by_action = {}
    for event in events:
        by_action.setdefault(event["action_key"], []).append(event)
    # Not through the API: a reactivation, and the retention period's deletions (beat's task,
    # test_it_deletes_screening_records_after_the_retention_period).
    assert set(ACTIONS) - set(by_action) == {"app_membership.reactivate", "screening_records.delete"}
    assert events == sorted(events, key=lambda e: e["created_timestamp"], reverse=True)  # newest first
    api_user = str(api.credentials.api_user.uuid)
    unnamed = {"screening_config.create", "entity_monitoring.decide", "customer_person.create"}  # the steps name no member
    for action, recorded in by_action.items():
        latest = recorded[0]
        if action == "api_user.create":
            assert recorded[-1]["actor_api_user_uuid"] is None  # the test's own API user, made by the fixture
        assert latest["actor_api_user_uuid"] == api_user, action
        assert latest["actor_email"] == ("" if action in unnamed else "anna@nordbank.no"), action
        assert latest["action_description"] == ACTIONS[action]
        assert latest["before"] is not None or latest["after"] is not None, action
    [rename] = by_action["watchlist.rename"]
    assert (rename["before"], rename["after"]) == ({"watchlist_name": "Kunder"}, {"watchlist_name": "Kunder 2026"})
    assert rename["object_type"] == "watchlist" and rename["object_uuid"] == wl
    [update] = by_action["screening_config.update"]
    assert (update["before"], update["after"]) == ({"four_eyes_review_flag": False}, {"four_eyes_review_flag": True})
    [reviewed] = by_action["screening_case.review"]
    assert reviewed["object_label"] == UN_PERSON
    assert reviewed["before"]["case_status_key"] == "pending" and reviewed["after"]["review_status_key"] == "escalated"
    [roles] = by_action["api_user.roles_change"]
    assert (roles["before"]["role_keys"], roles["after"]["role_keys"]) == (["aml"], ["aml", "credit_check"])
    [rotated] = by_action["api_user.secret_rotate"]
    assert rotated["after"]["credentials_version"] == rotated["before"]["credentials_version"] + 1
    assert "secret" not in str(rotated["after"]).replace("secret_rotate", "")  # never a secret in the log
    [held] = by_action["records_hold.place"]
    assert (held["object_type"], held["object_label"], held["after"]["reason"]) == ("records_hold", UN_PERSON, "Asked for by the police.")
    [assigned] = by_action["screening_case.assign"]
    assert assigned["after"] == {"assignee_email": "anna@nordbank.no"}
    [national_id] = by_action["customer_person.national_id_add"]
    assert national_id["after"] == {"national_identification_schema": "NO"}  # never the number
    assert national_id["object_type"] == "customer_person" and national_id["object_uuid"] == person
    [number_removed] = by_action["customer_person.national_id_remove"]
    assert (number_removed["before"], number_removed["after"]) == ({"national_identification_schema": "NO"}, None)  # never the number
    [address_removed] = by_action["customer_person.location_remove"]
    assert address_removed["before"] == {"postal_place": "Oslo", "country_code_two": "NO"}
    [merged] = by_action["customer_person.merge"]
    assert (merged["object_uuid"], merged["after"]) == (
        second["uuid"], {"merged_into_customer_person_uuid": person, "merged_into_full_name": UN_PERSON})
    [corrected] = by_action["customer_person.update"]
    assert (corrected["before"], corrected["after"]) == ({"birth_date": ""}, {"birth_date": "1966-03-14"})
    assert corrected["object_type"] == "customer_person" and corrected["object_uuid"] == person
    [screened] = by_action["screening_batch.create"]  # redacted when the file was deleted: its name can name a person
    assert (screened["object_uuid"], screened["object_label"]) == (batch["uuid"], "")
    assert screened["after"] == {"file_name": None, "rows_total": None} and screened["redacted_timestamp"]
    [batch_deleted] = by_action["screening_batch.delete"]
    assert (batch_deleted["object_uuid"], batch_deleted["object_label"]) == (batch["uuid"], "")  # not the name again
    assert batch_deleted["after"] == {
        "screening_batch_status_key": "deleted", "deletion_reason_key": "request", "audit_records_redacted": 1,
    }
    assert batch_deleted["redacted_timestamp"] is None
    [removed] = by_action["entity_monitoring.remove"]
    assert removed["after"] == {"removed_flag": True, "removal_reason": "No longer a customer."}

    only_reviews = audit_events(api, roles=[*ADMIN, "aml", "person_national_identification"], action_key="screening_case.review,screening_case.assign")
    assert {e["action_key"] for e in only_reviews} == {"screening_case.review", "screening_case.assign"}
    assert [e["uuid"] for e in audit_events(api, object_uuid=erp)] == [e["uuid"] for e in events if e["object_uuid"] == erp]
    assert len(audit_events(api, roles=[*ADMIN, "aml", "person_national_identification"], actor_app_membership_uuid=anna)) == len([e for e in events if e["actor_email"]])
