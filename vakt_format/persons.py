"""When two customer persons are most likely one customer: the same name, in any case and with
runs of spaces as one, and the same birth date (both without one counts as the same). The
dashboard's add form warns of such a twin; the service's file import takes the row to be that
customer (service/screening/person_import.py).

When they are possibly one customer whose name was written two ways (`names_similar`), or whose birth
date was (`birth_date_slips`): the service lists those beside the twins, for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
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


SLIP_DIGITS_MAX = 4  # the digits a slip changes at most (day and month swapped)


def birth_date_slips(day: date) -> frozenset[date]:
    """The dates a slip of the hand makes of a birth date typed as DDMMYYYY: day and month swapped (a
    date read the American way), two neighbouring digits swapped, or one digit another (05.03.1980:
    03.05.1980, 05.03.1908, 15.03.1980, 05.03.1981 and the rest). Only real dates; not the date itself."""
    found = set()
    for form in _slip_forms(_typed(day)):
        try:
            found.add(date(int(form[4:]), int(form[2:4]), int(form[:2])))
        except ValueError:  # 31.02, month 13, year 0
            pass
    return frozenset(found)


def birth_dates_slipped(days: Sequence[date]) -> Iterator[tuple[int, int]]:
    """The pairs (i, j), i < j, of the distinct dates `days` whose one is a slip of the other
    (`birth_date_slips`)."""
    typed = [_typed(day) for day in days]
    for i, a in enumerate(typed):
        forms = None  # made only for a date close enough to another: most of a name's dates are not
        for j in range(i + 1, len(typed)):
            if sum(x != y for x, y in zip(a, typed[j])) <= SLIP_DIGITS_MAX:
                forms = forms or _slip_forms(a)
                if typed[j] in forms:
                    yield i, j


def _typed(day: date) -> str:
    return f"{day.day:02d}{day.month:02d}{day.year:04d}"


def _slip_forms(typed: str) -> frozenset[str]:
    forms = {typed[:i] + digit + typed[i + 1:] for i in range(len(typed)) for digit in "0123456789"}
    forms |= {typed[:i] + typed[i + 1] + typed[i] + typed[i + 2:] for i in range(len(typed) - 1)}
    forms.add(typed[2:4] + typed[:2] + typed[4:])
    return frozenset(forms - {typed})
