import json

from service.screening.matching import DEFAULT_THRESHOLD, ListEntity, ListName, PersonQuery, score_pair

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
    weak = score_pair(PersonQuery("Vanya"), LISTED)
    assert weak.score < 1.0
    assert weak.explanation.matched_name_quality == "weak"


def test_it_explains_a_match_for_a_reviewer():
    match = score_pair(PersonQuery("SIDOROV, Iwan", birth_date="1970-05-12", nationalities=["ru"]), LISTED)
    explanation = match.explanation
    assert match.entity_id == "un-1"
    assert explanation.matched_name == "Ivan Petrovich SIDOROV"
    assert {(part.query, part.listed) for part in explanation.aligned} == {("iwan", "ivan"), ("sidorov", "sidorov")}
    assert explanation.unmatched_list_parts == ["petrovich"]
    assert explanation.birth_date_adjustment > 0 and explanation.nationality_adjustment > 0
    assert explanation.final == match.score
    assert "same birth date" in explanation.notes
    summary = explanation.summary()
    assert summary.startswith("'SIDOROV, Iwan' vs 'Ivan Petrovich SIDOROV': name ")
    assert "iwan~ivan" in summary and "petrovich" in summary and "birth date +0.05" in summary
    assert json.loads(json.dumps(explanation.as_dict()))["aligned"][0]["reason"] in {"exact", "typo", "variant"}


def test_it_scores_an_entity_without_names_zero():
    assert score_pair(PersonQuery("Ivan Sidorov"), ListEntity("x", "Person", [])).score == 0.0


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
