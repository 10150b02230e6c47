"""When two customer persons are most likely one customer: the same name, in any case and with
runs of spaces as one, and the same birth date (both without one counts as the same). The
dashboard's add form warns of such a twin; the service's file import takes the row to be that
customer (service/screening/person_import.py).

When they are possibly one customer whose name was written two ways (`names_similar`): the
service lists those of one birth date beside the twins, for a person to look at.
"""

from __future__ import annotations

import re
from datetime import date

from rapidfuzz import fuzz
from rigour.text import ascii_text

# A typo, a letter missed or doubled, a name's parts in another order: Kari Nordman / Kari Nordmann
# (96), Jon / John Larsen (95), Ola / Ole Nordmann (92). Two names of one family are below it:
# Siri Hansen / Siri Jensen (82), Per / Pål Hansen (80).
SIMILAR_NAME_MIN = 90
NOT_LETTERS = re.compile(r"[\W_]+")


def customer_person_key(full_name: str, birth_date: date | None) -> tuple[str, date | None]:
    """What two records of one customer have in common (equal keys: most likely one customer)."""
    return " ".join(full_name.split()).casefold(), birth_date


def name_compared(full_name: str) -> str:
    """The name as `names_similar` compares it: in ASCII letters (Bjørn: bjorn), lower case, its words
    parted by one space (hyphens and commas too)."""
    return " ".join(NOT_LETTERS.sub(" ", ascii_text(full_name).casefold()).split())


def names_similar(a: str, b: str) -> bool:
    """Whether two names (`name_compared`) are possibly one person's written two ways: nearly the same
    letters in any word order (rapidfuzz's token sort ratio at least SIMILAR_NAME_MIN), or every word
    of one, at least two of them, in the other (a middle name or a second family name added:
    Kari Nordmann / Kari Nordmann Hansen)."""
    if fuzz.token_sort_ratio(a, b) >= SIMILAR_NAME_MIN:
        return True
    shorter, longer = sorted((a.split(), b.split()), key=len)
    return len(shorter) >= 2 and set(shorter) <= set(longer)
