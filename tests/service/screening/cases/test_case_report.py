"""GET /v1/screening-config/{uuid}/screening-case-report: the case as a real PDF."""

from __future__ import annotations

import base64
import io
from datetime import UTC, datetime

import pytest
from pypdf import PdfReader

from service.screening.models import CustomerPerson, ScreeningConfig
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review
from tests.service.screening.helpers import AML, config_url


def _report(caller, config_uuid, **params):
    return caller.get(config_url(config_uuid, "/screening-case-report"), params, roles=AML)


def _text(report: dict) -> str:
    reader = PdfReader(io.BytesIO(base64.b64decode(report["pdf_base64"])))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())  # table cells wrap


def test_it_renders_the_person_the_list_entry_the_score_and_the_reviews(api, lists):
    config = config_with(api, "un_security_council")
    screened = customer_person_screened(api, config["uuid"], "Ivan Sergeevich Dragunov", birth_date="1966-03-14")
    person_uuid = screened["entity_monitoring"]["monitoring_customer_person_uuid"]
    CustomerPerson.objects.filter(uuid=person_uuid).update(customer_reference="K-10231")  # the bank's number
    [composite] = cases(api, config["uuid"])["elements"]
    case_uuid = composite["screening_case"]["uuid"]
    reviewer = member_of(api, "reviewer@nordbank.no")
    review(api, config["uuid"], case_uuid, "escalated", "possible_match", reviewer=reviewer,
           screening_case_review_comment="Patronymic spelled differently; escalating.")

    response = _report(api, config["uuid"], screening_case_uuid=case_uuid)

    assert response.status_code == 200, response.json()
    [report] = response.json()
    assert report["grid_alert_uuid"] is None
    text = _text(report)
    assert "Ivan Sergeevich Dragunov" in text  # the screened person
    assert "Customer reference K-10231" in text  # to file it with the customer
    assert "IVAN SERGEYEVICH DRAGUNOV" in text.upper() and "KPi.901" in text  # the list entry and its source id
    assert "DPRK" in text  # the programme
    assert "Passport 745120836 (RU)" in text and "Vladivostok, Russian Federation" in text  # to compare with the KYC file
    assert "14.03.1966" in text  # birth dates in the house's Norwegian format
    score = composite["screening_case_match"]["score"]
    assert f"{score:.2f}".replace(".", ",") in text
    assert "Patronymic spelled differently; escalating." in text
    assert "reviewer@nordbank.no" in text
    assert "Nordbank ASA" in text  # the organisation in the header
    assert "Page 1 of" in text


@pytest.fixture
def half_past_midnight_in_oslo(stopped_clock):
    stopped_clock.now = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)  # 00:30 on 27 November in Oslo
    return stopped_clock


def test_it_gives_the_days_in_oslo(api, half_past_midnight_in_oslo, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]

    text = _text(_report(api, config["uuid"], screening_case_uuid=case_uuid).json()[0])

    assert "Raised 27.11.2026 00:30" in text  # not the day in UTC (26.11) with the time in Oslo
    assert "imported 27.11.2026" in text  # the list version
    assert "26.11.2026" not in text


def test_it_gives_a_new_report_uuid_after_a_new_review(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]

    before = _report(api, config["uuid"], screening_case_uuid=case_uuid).json()[0]["uuid"]
    again = _report(api, config["uuid"], screening_case_uuid=case_uuid).json()[0]["uuid"]
    review(api, config["uuid"], case_uuid, "in_review")
    after = _report(api, config["uuid"], screening_case_uuid=case_uuid).json()

    assert before == again
    assert after[0]["uuid"] != before
    assert "No review yet" not in _text(after[0])


def test_it_is_400_naming_a_missing_or_invalid_screening_case_uuid(api, lists):
    config = config_with(api, "un_security_council")

    missing = _report(api, config["uuid"])
    invalid = _report(api, config["uuid"], screening_case_uuid="not-a-uuid")

    for response in (missing, invalid):
        assert response.status_code == 400
        assert response.json()["errors"][0]["loc"] == ["query", "screening_case_uuid"]


def test_it_is_404_for_a_case_or_config_of_another_organisation(api, other_api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    other_config = config_with(other_api)

    in_other_config = _report(other_api, other_config["uuid"], screening_case_uuid=case_uuid)
    in_this_config = _report(other_api, config["uuid"], screening_case_uuid=case_uuid)

    assert in_other_config.status_code == 404
    assert in_other_config.json()["errors"][0]["loc"] == ["query", "screening_case_uuid"]
    assert in_this_config.status_code == 404


def test_it_needs_the_aml_role(api, lists):
    config = config_with(api, "un_security_council")

    response = api.get(config_url(config["uuid"], "/screening-case-report"), {"screening_case_uuid": config["uuid"]})

    assert response.status_code == 403


def test_it_files_a_four_eyes_proposal_as_a_proposal(api, lists):
    """A confirmed hit one officer proposed must not read as confirmed in the customer's file."""
    config = config_with(api, "un_security_council")
    ScreeningConfig.objects.filter(uuid=config["uuid"]).update(four_eyes_review_flag=True)
    customer_person_screened(api, config["uuid"], UN_PERSON)
    case_uuid = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    anna, bjorn = member_of(api, "anna@nordbank.no"), member_of(api, "bjorn@nordbank.no")
    assert review(api, config["uuid"], case_uuid, "confirmed_hit", "match", reviewer=anna).status_code == 201

    proposed = _text(_report(api, config["uuid"], screening_case_uuid=case_uuid).json()[0])
    assert "Confirmed hit (proposal, awaiting a second officer)" in proposed

    assert review(api, config["uuid"], case_uuid, "confirmed_hit", "match", reviewer=bjorn).status_code == 201
    filed = _text(_report(api, config["uuid"], screening_case_uuid=case_uuid).json()[0])
    assert "Confirmed hit (proposal)" in filed and "awaiting a second officer" not in filed
