"""vakt_format.persons: when two customer persons are possibly one customer written two ways."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from vakt_format.persons import birth_date_slips, birth_dates_slipped, name_compared, names_similar


@pytest.mark.parametrize(("a", "b"), [
    ("Kari Nordmann", "Kari Nordman"),  # a letter missed
    ("Jon Larsen", "John Larsen"),
    ("Bjørn Dæhlie", "Bjorn Daehlie"),  # written without the Norwegian letters
    ("Nordmann, Kari", "Kari Nordmann"),  # family name first
    ("Kari Nordmann", "Kari Nordmann-Hansen"),  # a second family name added
    ("Anne Olsen", "Anne Berit Olsen"),  # a middle name added
])
def test_it_takes_names_written_two_ways_as_possibly_one(a, b):
    assert names_similar(name_compared(a), name_compared(b))
    assert names_similar(name_compared(b), name_compared(a))


@pytest.mark.parametrize(("a", "b"), [
    ("Siri Hansen", "Siri Jensen"),  # another family name
    ("Per Hansen", "Pål Hansen"),  # another given name
    ("Kari", "Kari Nordmann"),  # one word in common is not enough
    ("Mohammed Ali", "Ali Hassan"),
])
def test_it_tells_other_names_apart(a, b):
    assert not names_similar(name_compared(a), name_compared(b))


def test_the_compared_name_is_ascii_lower_case_one_space_between_words():
    assert name_compared("  Åse  Müller-Ødegård,  jr ") == "ase muller odegard jr"


@pytest.mark.parametrize(("a", "b"), [
    (date(1980, 3, 5), date(1980, 5, 3)),  # day and month swapped
    (date(1980, 3, 5), date(1980, 3, 15)),  # one digit another
    (date(1980, 3, 5), date(1990, 3, 5)),
    (date(1980, 3, 5), date(1908, 3, 5)),  # two neighbouring digits swapped
    (date(1961, 12, 21), date(1961, 12, 12)),
])
def test_it_takes_a_birth_date_typed_two_ways_as_a_slip(a, b):
    assert b in birth_date_slips(a) and a in birth_date_slips(b)
    assert list(birth_dates_slipped([a, date(2001, 7, 9), b])) == [(0, 2)]


@pytest.mark.parametrize(("a", "b"), [
    (date(1980, 3, 5), date(1980, 3, 5)),  # the same date
    (date(1980, 3, 5), date(1981, 3, 6)),  # two digits apart
    (date(1980, 3, 5), date(1980, 4, 6)),
    (date(1980, 3, 5), date(1985, 11, 30)),
])
def test_it_tells_other_birth_dates_apart(a, b):
    assert b not in birth_date_slips(a)
    assert list(birth_dates_slipped([a, b])) == []


def test_the_slips_the_person_page_reads_are_the_pairs_the_list_joins():
    # Every date of a century beside one: the pairs the list's pass finds are the slips a person's page reads.
    day = date(1975, 4, 12)
    century = [date(1900, 1, 1) + timedelta(days=n) for n in range((date(2000, 1, 1) - date(1900, 1, 1)).days)]
    paired = {other for other in century if list(birth_dates_slipped([day, other])) == [(0, 1)]}
    assert paired == {d for d in birth_date_slips(day) if 1900 <= d.year < 2000}
    assert date(1975, 12, 4) in paired and day not in birth_date_slips(day)
    assert len(paired) == 40  # 37 a digit another; 21.04.1975, 12.04.1957 and 04.12.1975 swapped
