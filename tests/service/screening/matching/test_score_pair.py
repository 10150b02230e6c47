import json

import pytest

from service.screening.matching import (
    DEFAULT_THRESHOLD,
    AlignedPart,
    ListEntity,
    ListName,
    PersonQuery,
    score_names,
    score_pair,
)

LISTED = ListEntity(
    id="un-1",
    schema="Person",
    names=[ListName("Ivan Petrovich SIDOROV"), ListName("Vanya", "weak")],
    birth_dates=["1970-05-12"],
    nationalities=["ru"],
    gender="male",
)


def score(name: str = "Ivan Sidorov", **facts) -> float:
    return score_pair(PersonQuery(name, **facts), LISTED).score


def test_it_adds_a_little_for_the_same_birth_date():
    assert score(birth_date="1970-05-12") > score()


def test_it_accepts_a_partial_birth_date_that_agrees():
    assert score(birth_date="1970") > score()
    assert score(birth_date="1970-05") > score()


def test_it_accepts_day_and_month_swapped():
    assert score(birth_date="1970-12-05") > score()


def test_it_rules_out_a_name_match_born_years_apart():
    assert score("Ivan Petrovich Sidorov") == 1.0
    assert score("Ivan Petrovich Sidorov", birth_date="1985-03-02") < DEFAULT_THRESHOLD


def test_it_tolerates_a_birth_year_one_off():
    assert score("Ivan Petrovich Sidorov", birth_date="1971") >= DEFAULT_THRESHOLD


def test_it_weighs_nationality_and_gender():
    assert score(nationalities=["ru"]) > score()
    assert score(nationalities=["no"]) < score()
    assert score(gender="female") < score()


def test_it_counts_a_low_quality_alias_less():
    weak = score_pair(PersonQuery("Vanya", birth_date="1970-05-12"), LISTED)
    assert weak.score < 1.0
    assert weak.explanation.matched_name_quality == "weak"
    assert weak.explanation.notes == ["matched a low-quality alias", "same birth date"]


def test_it_caps_a_full_name_match_with_agreeing_facts_at_one():
    assert score("Ivan Petrovich Sidorov", birth_date="1970-05-12", nationalities=["ru"], gender="male") == 1.0


@pytest.mark.parametrize(
    ("query", "listed", "schema"),
    [
        ("Ivan Sidorov", "Dr. Ivan Petrovich Sidorov", "Person"),
        ("Siemens Aktiengesellschaft", "Siemens Energy AG", "Company"),
    ],
)
def test_it_scores_the_best_name_as_score_names_does_to_four_places(query, listed, schema):
    match = score_pair(PersonQuery(query, schema=schema), ListEntity("x", schema, [ListName(listed)]))

    assert 0 < match.score < 1
    assert match.score == match.explanation.name_score == round(score_names(query, listed, schema), 4)


def test_it_explains_typos_a_part_left_over_and_the_facts_against():
    query = PersonQuery("Vladmir Puttin Ivanovich", birth_date="1952-10-07", gender="female")
    listed = ListEntity("x", "Person", [ListName("Vladimir Putin")], ["1952-10-07"], ["ru"], "male")

    explanation = score_pair(query, listed).explanation

    assert explanation.aligned == [AlignedPart("vladmir", "vladimir", 0.875, "typo"),
                                   AlignedPart("puttin", "putin", 0.833, "typo")]  # similarities to 3 places
    assert (explanation.unmatched_query_parts, explanation.unmatched_list_parts) == (["ivanovich"], [])
    assert (explanation.birth_date_adjustment, explanation.gender_adjustment) == (0.05, -0.15)
    assert explanation.notes == ["same birth date", "gender female, listed male"]
    assert explanation.name_score == round(score_names("Vladmir Puttin Ivanovich", "Vladimir Putin"), 4)
    assert explanation.final == pytest.approx(explanation.name_score - 0.1, abs=1e-4)
    assert explanation.final == round(explanation.final, 4)


def test_it_explains_aligned_parts_in_the_query_order_and_glued_words_as_joined():
    reversed_order = score_pair(PersonQuery("Putin Vladimir"), ListEntity("x", "Person", [ListName("Vladimir Putin")]))
    glued = score_pair(PersonQuery("VladimirPutin"), ListEntity("x", "Person", [ListName("Vladimir Putin")]))
    split = score_pair(PersonQuery("Nikolai Patr ushev"), ListEntity("x", "Person", [ListName("Nikolai Patrushev")]))

    assert [part.query for part in reversed_order.explanation.aligned] == ["putin", "vladimir"]
    assert glued.explanation.aligned == [AlignedPart("vladimirputin", "vladimir putin", 1.0, "joined")]
    assert AlignedPart("patr ushev", "patrushev", 1.0, "joined") in split.explanation.aligned


def test_it_explains_the_first_listed_of_equally_good_names():
    listed = ListEntity("x", "Person", [ListName("Ivan Sidorov"), ListName("SIDOROV, Ivan")])
    assert score_pair(PersonQuery("Ivan Sidorov"), listed).explanation.matched_name == "Ivan Sidorov"


def test_it_explains_a_match_for_a_reviewer():
    match = score_pair(PersonQuery("SIDOROV, Iwan", birth_date="1970-05-12", nationalities=["ru"]), LISTED)
    explanation = match.explanation
    assert match.entity_id == "un-1"
    assert explanation.matched_name == "Ivan Petrovich SIDOROV"
    assert {(part.query, part.listed) for part in explanation.aligned} == {("iwan", "ivan"), ("sidorov", "sidorov")}
    assert explanation.unmatched_list_parts == ["petrovich"]
    assert explanation.birth_date_adjustment > 0 and explanation.nationality_adjustment > 0
    assert explanation.final == match.score
    assert explanation.notes == ["same birth date", "nationality RU, as listed"]
    summary = explanation.summary()
    assert summary.startswith("'SIDOROV, Iwan' vs 'Ivan Petrovich SIDOROV': name ")
    assert "iwan~ivan" in summary and "petrovich" in summary and "birth date +0.05" in summary
    assert json.loads(json.dumps(explanation.as_dict()))["aligned"][0]["reason"] in {"exact", "typo", "variant"}


def test_it_scores_an_entity_without_names_zero():
    assert score_pair(PersonQuery("Ivan Sidorov"), ListEntity("x", "Person", [])).score == 0.0


def test_it_explains_an_entity_without_names_by_its_facts_alone():
    query = PersonQuery("Ivan Sidorov", birth_date="1970-05-12", nationalities=["ru"], gender="male")
    nameless = ListEntity("x", "Person", [], ["1970-05-12"], ["ru"], "male")

    explanation = score_pair(query, nameless).explanation

    assert explanation.as_dict() == {
        "query_name": "Ivan Sidorov", "matched_name": "", "matched_name_quality": "", "name_score": 0.0,
        "birth_date_adjustment": 0.05, "nationality_adjustment": 0.02, "gender_adjustment": 0.0, "final": 0.07,
        "aligned": [], "unmatched_query_parts": [], "unmatched_list_parts": [],
        "notes": ["same birth date", "nationality RU, as listed"],
    }


def test_it_rules_out_a_name_match_born_years_before_the_listed_date():
    # The gap must count in both directions: a query born 1955 is not the person listed as born 1970.
    assert score("Ivan Petrovich Sidorov", birth_date="1955-03-02") < DEFAULT_THRESHOLD
    assert score("Ivan Petrovich Sidorov", birth_date="1968") < DEFAULT_THRESHOLD
    assert score("Ivan Petrovich Sidorov", birth_date="1969") >= DEFAULT_THRESHOLD  # one year before: tolerated


def test_it_weighs_a_birth_date_the_same_whichever_side_is_older():
    before = score_pair(PersonQuery("Ivan Petrovich Sidorov", birth_date="1968"), LISTED).explanation
    after = score_pair(PersonQuery("Ivan Petrovich Sidorov", birth_date="1972"), LISTED).explanation
    assert before.birth_date_adjustment == after.birth_date_adjustment < 0
    assert any("different person" in note for note in before.notes)
