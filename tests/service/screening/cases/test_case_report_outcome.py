"""The case report PDF says what became of the case: a closed case's outcome, an escalated or proposed
one as the queue shows it, and each section's heading on the page of its first lines."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from service.screening.case_report import case_report_render
from service.screening.case_selectors import case_get
from service.screening.models import ScreeningConfig
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.test_case_report import _report, _text
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, member_of, review


@pytest.fixture
def case(api, lists):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    return config["uuid"], cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]


def _filed(api, config_uuid, case_uuid) -> str:
    return _text(_report(api, config_uuid, screening_case_uuid=case_uuid).json()[0])


def test_a_confirmed_hit_reads_confirmed_and_closed_as_one(api, case):
    config_uuid, case_uuid = case
    assert "Possible sanctions hit on" in _filed(api, config_uuid, case_uuid)

    review(api, config_uuid, case_uuid, "confirmed_hit", "match")

    text = _filed(api, config_uuid, case_uuid)
    assert "Confirmed sanctions hit on" in text and "Possible sanctions hit" not in text
    assert "Case status Closed: confirmed hit" in text


def test_a_false_positive_reads_closed_as_a_false_positive(api, case):
    config_uuid, case_uuid = case

    review(api, config_uuid, case_uuid, "false_positive", "no_match")

    text = _filed(api, config_uuid, case_uuid)
    assert "Case status Closed: false positive" in text
    assert "sanctions hit on" in text and ": a false positive" in text and "Confirmed sanctions" not in text


def test_an_escalated_case_reads_as_in_the_queue(api, case):
    config_uuid, case_uuid = case

    review(api, config_uuid, case_uuid, "escalated", "possible_match", screening_case_review_comment="Ask Anna")
    plain = _filed(api, config_uuid, case_uuid)
    ScreeningConfig.objects.filter(uuid=config_uuid).update(four_eyes_review_flag=True)
    four_eyes = _filed(api, config_uuid, case_uuid)

    assert "Case status In review · Escalated" in plain and "needs 2nd officer" not in plain
    assert "Case status In review · Escalated · needs 2nd officer" in four_eyes


def test_a_four_eyes_proposal_is_not_called_closed_nor_confirmed(api, case):
    config_uuid, case_uuid = case
    ScreeningConfig.objects.filter(uuid=config_uuid).update(four_eyes_review_flag=True)
    anna = member_of(api, "anna@nordbank.no")

    assert review(api, config_uuid, case_uuid, "confirmed_hit", "match", reviewer=anna).status_code == 201

    text = _filed(api, config_uuid, case_uuid)
    assert "Case status In review · Hit proposed · needs 2nd officer" in text
    assert "Possible sanctions hit on" in text and "Closed" not in text


def _monitoring(n: int, type_key: str):
    company = SimpleNamespace(name=f"Nordlys Holding {n} AS", org_nr=f"91234{n:04d}")
    return SimpleNamespace(related_company=company, entity_monitoring_type=SimpleNamespace(key=type_key),
                           monitoring_comment=f"Board member of Nordlys Holding {n} AS", monitoring_origin_key="user")


# Each section's heading, and a line its first rows always hold.
SECTIONS = {"Screened entity": "Screened as", "List entry": "List version", "Score and explanation": "Compared names",
            "Review history": "Reviewer"}


def test_each_section_heading_stays_on_the_page_of_its_first_lines(api, case):
    """However long the list of companies the person is monitored for (which moves every later section
    down the pages), no heading is left at a page's foot with its content on the next page."""
    config_uuid, case_uuid = case
    review(api, config_uuid, case_uuid, "escalated", "possible_match", screening_case_review_comment="Ask Anna")
    screening_case = case_get(config=ScreeningConfig.objects.get(uuid=config_uuid), case_uuid=case_uuid)

    for count in range(0, 40, 3):
        monitorings = [_monitoring(n, "alternative_beneficial_owners") for n in range(count)]
        pdf = case_report_render(case=screening_case, monitorings=monitorings, organisation_name="Nordbank ASA")
        pages = [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages]
        for heading, first_line in SECTIONS.items():
            [page] = [p for p in pages if heading in p]
            assert first_line in page.split(heading, 1)[1], (count, heading)


def test_a_board_member_standing_in_reads_as_on_the_case_page(api, case):
    config_uuid, case_uuid = case
    screening_case = case_get(config=ScreeningConfig.objects.get(uuid=config_uuid), case_uuid=case_uuid)

    pdf = case_report_render(case=screening_case, monitorings=[_monitoring(1, "alternative_beneficial_owners")],
                             organisation_name="Nordbank ASA")

    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())
    assert "Standing in for the owners" in text and "Alternative beneficial owner" not in text
