"""A customer person's nationalities reach the engine when they are screened, as a name check's do:
a nationality the listed person has raises the score, another lowers it, and the case's explanation
says which. A corrected nationality screens the person again at once, as a corrected name does."""

from __future__ import annotations

import base64
import io

from pypdf import PdfReader

from service.screening.models import ScreeningCase
from tests.service.screening.cases.conftest import _committing, lists  # noqa: F401 (fixtures)
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import AML, config_url, customer_person_make, customer_person_url, monitoring_make, patch

# The UN list's Ivan Sergeyevich Dragunov (born 14.03.1966, Russian) without his patronymic: a name
# strong enough to be a hit, weak enough for the nationality to count.
NAME = "Ivan Dragunov"


def _screened(api, config_uuid, full_name: str, nationalities: list[str], birth_date: str = "1966-03-14") -> str:
    person = customer_person_make(api, config_uuid, full_name=full_name, birth_date=birth_date, gender_uuid=None,
                                  nationalities=nationalities)
    monitoring_make(api, config_uuid, customer_person=person["uuid"], decision={"approved_flag": True})
    return person["uuid"]


def _case_of(person_uuid: str) -> ScreeningCase:
    [case] = ScreeningCase.objects.filter(entity_inquiry__customer_person_id=person_uuid)
    return case


def test_a_nationality_the_listed_person_has_scores_higher_than_another_and_the_explanation_says_so(api, lists):
    config = config_with(api, "un_security_council")
    russian = _case_of(_screened(api, config["uuid"], NAME, ["RU"]))
    norwegian = _case_of(_screened(api, config["uuid"], NAME, ["no"]))
    unknown = _case_of(_screened(api, config["uuid"], NAME, []))

    assert russian.list_source_id == norwegian.list_source_id == unknown.list_source_id == "KPi.901"
    assert russian.score > unknown.score > norwegian.score
    assert russian.explanation["nationality_adjustment"] > 0
    assert norwegian.explanation["nationality_adjustment"] < 0
    assert unknown.explanation["nationality_adjustment"] == 0
    assert "nationality +0.02" in russian.explanation_summary
    assert "nationality -0.10" in norwegian.explanation_summary
    assert "nationality" not in unknown.explanation_summary


def test_a_corrected_nationality_screens_the_person_again_at_once(api, lists):
    config = config_with(api, "un_security_council")
    # Born the same year on another day, and Norwegian: too far from the listed man for a case.
    person = _screened(api, config["uuid"], NAME, ["NO"], birth_date="1966-05-01")
    assert not ScreeningCase.objects.filter(screening_config_id=config["uuid"]).exists()

    response = patch(api, customer_person_url(person), {"nationalities": ["RU"]})
    assert response.status_code == 200, response.json()

    case = _case_of(person)
    assert case.list_source_id == "KPi.901"
    assert case.explanation["nationality_adjustment"] > 0


def test_the_case_report_gives_the_nationality_that_was_weighed(api, lists):
    config = config_with(api, "un_security_council")
    case = _case_of(_screened(api, config["uuid"], NAME, ["NO", "SE"]))

    response = api.get(config_url(config["uuid"], "/screening-case-report"), {"screening_case_uuid": str(case.uuid)}, roles=AML)

    [report] = response.json()
    pages = PdfReader(io.BytesIO(base64.b64decode(report["pdf_base64"]))).pages
    text = " ".join(" ".join(page.extract_text() for page in pages).split())
    assert "Nationality NO, SE" in text
