"""Birth date, nationality and gender evidence, rule by rule (service/screening/matching/facts.py)."""

import pytest

from service.screening.matching.facts import (
    CONSISTENT_PARTIAL_BONUS,
    DIFFERENT_GENDER_PENALTY,
    DIFFERENT_NATIONALITY_PENALTY,
    DIFFERENT_YEAR_PENALTY,
    NO_EVIDENCE,
    ONE_YEAR_OFF_PENALTY,
    SAME_DATE_BONUS,
    SAME_NATIONALITY_BONUS,
    SAME_YEAR_OTHER_DAY_PENALTY,
    SWAPPED_DAY_MONTH_BONUS,
    Adjustment,
    PartialDate,
    birth_date_adjustment,
    gender_adjustment,
    nationality_adjustment,
    parse_partial_date,
)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("1970", PartialDate(1970, None, None)),
        ("1970-05", PartialDate(1970, 5, None)),
        ("1970-05-12", PartialDate(1970, 5, 12)),
        (" 1970-05-12T00:00:00Z", PartialDate(1970, 5, 12)),  # the time is ignored
        ("1970-12-31", PartialDate(1970, 12, 31)),
        ("1970-01-01", PartialDate(1970, 1, 1)),
        ("1970-13-01", PartialDate(1970, None, None)),  # no such month: only the year is known
        ("1970-00-10", PartialDate(1970, None, None)),
        ("1970-05-32", PartialDate(1970, 5, None)),
        ("1970-05-00", PartialDate(1970, 5, None)),
        ("1000", PartialDate(1000, None, None)),
        ("2999", PartialDate(2999, None, None)),
    ],
)
def test_it_reads_what_is_known_of_a_date(text, parsed):
    assert parse_partial_date(text) == parsed


@pytest.mark.parametrize("text", ["", "born 1970", "999", "3000", "19x0-01-01", "-"])
def test_it_reads_nothing_from_what_is_not_a_date(text):
    assert parse_partial_date(text) is None


@pytest.mark.parametrize(
    ("query", "listed", "value", "note"),
    [
        ("1970-05-12", "1970-05-12", SAME_DATE_BONUS, "same birth date"),
        ("1970-12-05", "1970-05-12", SWAPPED_DAY_MONTH_BONUS, "same birth date with day and month swapped"),
        ("1970", "1970-05-12", CONSISTENT_PARTIAL_BONUS, "same birth year 1970 (date only partly known)"),
        ("1970-05-12", "1970", CONSISTENT_PARTIAL_BONUS, "same birth year 1970 (date only partly known)"),
        ("1970-05", "1970-05-12", CONSISTENT_PARTIAL_BONUS, "same birth month 1970-05"),
        ("1970-05-12", "1970-05", CONSISTENT_PARTIAL_BONUS, "same birth month 1970-05"),
        ("1970-05-13", "1970-05-12", SAME_YEAR_OTHER_DAY_PENALTY, "same birth year 1970, different day"),
        ("1970-06-12", "1970-05-12", SAME_YEAR_OTHER_DAY_PENALTY, "same birth year 1970, different day"),
        ("1970-12-06", "1970-05-12", SAME_YEAR_OTHER_DAY_PENALTY, "same birth year 1970, different day"),
        ("1971-05-12", "1970-05-12", ONE_YEAR_OFF_PENALTY, "born 1971, listed 1970: one year apart"),
        ("1969-05-12", "1970-05-12", ONE_YEAR_OFF_PENALTY, "born 1969, listed 1970: one year apart"),
        ("1972", "1970-05-12", DIFFERENT_YEAR_PENALTY, "born 1972, listed 1970: different person"),
        ("1968", "1970-05-12", DIFFERENT_YEAR_PENALTY, "born 1968, listed 1970: different person"),
        ("1955-05-12", "1970-05-12", DIFFERENT_YEAR_PENALTY, "born 1955, listed 1970: different person"),
    ],
)
def test_it_compares_a_birth_date_with_a_listed_one(query, listed, value, note):
    assert birth_date_adjustment(query, [listed]) == Adjustment(value, note)


def test_the_penalties_and_bonuses_keep_their_order():
    # Rules of thumb the engine's threshold depends on: years apart rule out, a year off only weighs.
    assert DIFFERENT_YEAR_PENALTY < ONE_YEAR_OFF_PENALTY < 0 < CONSISTENT_PARTIAL_BONUS < SAME_DATE_BONUS
    assert SAME_YEAR_OTHER_DAY_PENALTY < 0 < SWAPPED_DAY_MONTH_BONUS


def test_the_most_favourable_listed_date_counts():
    assert birth_date_adjustment("1970-05-12", ["1955", "1970-05-12", "1971"]).value == SAME_DATE_BONUS
    assert birth_date_adjustment("1970", ["1955", "not a date", "1969"]).value == ONE_YEAR_OFF_PENALTY
    # Equally favourable dates: the first listed explains the match (not the one whose note sorts last).
    assert birth_date_adjustment("1970-05-12", ["1970-05", "1970"]).note == "same birth month 1970-05"


@pytest.mark.parametrize(("query", "listed"), [(None, ["1970"]), ("", ["1970"]), ("unknown", ["1970"]),
                                               ("1970", []), ("1970", ["unknown", ""])])
def test_no_birth_date_on_either_side_is_no_evidence(query, listed):
    assert birth_date_adjustment(query, listed) == NO_EVIDENCE == Adjustment(0.0, "")


def test_a_shared_nationality_adds_and_another_subtracts():
    assert nationality_adjustment(["RU", "no"], ["ru", "ua"]) == Adjustment(SAME_NATIONALITY_BONUS, "nationality RU, as listed")
    assert nationality_adjustment(["no", "ua"], ["UA", "no"]) == Adjustment(SAME_NATIONALITY_BONUS, "nationality NO, UA, as listed")
    assert nationality_adjustment(["no", "se"], ["ru", "by"]) == Adjustment(
        DIFFERENT_NATIONALITY_PENALTY, "nationality NO, SE, listed RU, BY"
    )
    assert nationality_adjustment([], ["ru"]) == NO_EVIDENCE
    assert nationality_adjustment(["ru"], []) == NO_EVIDENCE


def test_a_different_gender_subtracts_and_nothing_else_counts():
    assert gender_adjustment("female", "male") == Adjustment(DIFFERENT_GENDER_PENALTY, "gender female, listed male")
    assert gender_adjustment("Male", "male") == NO_EVIDENCE
    assert gender_adjustment(None, "male") == NO_EVIDENCE
    assert gender_adjustment("male", None) == NO_EVIDENCE
    assert gender_adjustment("", "male") == NO_EVIDENCE
