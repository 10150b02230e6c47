"""Steps of the case tests, each through the HTTP API."""

from __future__ import annotations

from tests.service.screening.helpers import AML, category_uuid, config_make, config_url, customer_person_make, monitoring_make


def config_with(caller, *category_keys: str) -> dict:
    config = config_make(caller)
    for key in category_keys:
        response = caller.post(
            config_url(config["uuid"], "/screening-config-screening-list-category"),
            {"screening_list_category_uuid": category_uuid(key)},
            roles=AML,
        )
        assert response.status_code == 201, response.json()
    return config


def customer_person_screened(caller, config_uuid, full_name: str, birth_date: str | None = None) -> dict:
    """A customer person put into screening with an approving decision: the run starts on commit."""
    person = customer_person_make(caller, config_uuid, full_name=full_name, birth_date=birth_date, gender_uuid=None)
    return monitoring_make(caller, config_uuid, customer_person=person["uuid"], decision={"approved_flag": True})


def cases(caller, config_uuid, **params) -> dict:
    response = caller.get(config_url(config_uuid, "/screening-case-composite-collection"), params, roles=AML)
    assert response.status_code == 200, response.json()
    [collection] = response.json()
    return collection


def review_status_uuid(key: str) -> str:
    from service.screening.models import ScreeningCaseReviewStatus

    return str(ScreeningCaseReviewStatus.objects.get(key=key).uuid)


def match_decision_uuid(key: str) -> str:
    from service.screening.models import EntityMatchDecisionType

    return str(EntityMatchDecisionType.objects.get(key=key).uuid)


def member_of(caller, email: str = "aml@nordbank.no") -> str:
    from service.auth.models import AppCustomer
    from service.auth.services import app_membership_create

    organisation = AppCustomer.objects.get(uuid=caller.app_customer_uuid)
    return str(app_membership_create(app_customer=organisation, email=email).uuid)


def review(caller, config_uuid, case_uuid, status_key: str, decision_key: str = "no_match", reviewer=None, **fields):
    body = {
        "screening_case_uuid": case_uuid,
        "pep_confirmed_flag": False,
        "screening_case_review_status_uuid": review_status_uuid(status_key),
        "reviewer_app_membership_uuid": reviewer or member_of(caller),
        "entity_match_decision_type_uuid": match_decision_uuid(decision_key),
        **fields,
    }
    return caller.post(config_url(config_uuid, "/screening-case-review"), body, roles=AML)
