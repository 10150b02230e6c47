"""vakt_format.persons: when two customer persons are possibly one customer written two ways."""

from __future__ import annotations

import pytest

from vakt_format.persons import name_compared, names_similar


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
