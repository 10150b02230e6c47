"""Listed persons for the screening demo, read from the imported lists, as a register would
spell them: a transliteration variant, a dropped middle name, the surname first.

Nothing is copied from the list files: each pick reads the current version of a list in
the database and keeps the first entry (in source id order, so the same lists give the same
picks) whose variant the matching engine finds again, and finds without a crowd of other
hits, so the demo shows one clear case per person.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date

from service.screening.engine import LoadedIndex
from service.screening.matching.types import PersonQuery
from service.screening.models import ScreeningListCategory, ScreeningListEntry

# Spellings of the same name in the lists' source scripts (Arabic, Cyrillic) that registers
# and passports write differently.
TRANSLITERATIONS = {
    "MOHAMMED": "MUHAMMAD", "MOHAMMAD": "MUHAMMAD", "MUHAMMAD": "MOHAMMED", "MOHAMED": "MUHAMMAD",
    "AHMAD": "AHMED", "AHMED": "AHMAD", "ABDUL": "ABDEL", "ABDEL": "ABDUL", "YUSUF": "YOUSSEF",
    "HUSSEIN": "HUSAYN", "HUSAIN": "HUSSEIN", "HASAN": "HASSAN", "HASSAN": "HASAN", "OMAR": "UMAR",
    "UMAR": "OMAR", "OSAMA": "USAMA", "MAHMOUD": "MAHMUD", "MAHMUD": "MAHMOUD", "KHALED": "KHALID",
    "KHALID": "KHALED", "SAEED": "SAID", "SAID": "SAEED", "MUSTAFA": "MOUSTAFA", "YOUSEF": "YUSUF",
    "SERGEYEVICH": "SERGEEVICH", "YEVGENIY": "EVGENY", "YEVGENY": "EVGENIY", "ALEKSANDR": "ALEXANDER",
    "ALEKSEY": "ALEXEI", "YURIY": "YURI", "DMITRIY": "DMITRY", "ANDREY": "ANDREI", "NIKOLAY": "NIKOLAI",
    "VALERIY": "VALERY", "SERGEY": "SERGEI", "ALEXANDER": "ALEKSANDR",
}
WORD = re.compile(r"^[A-Za-z][A-Za-z'-]*$")


@dataclass(frozen=True)
class ListedPerson:
    """A register spelling of a listed person: `full_name` as the demo register writes it."""

    full_name: str
    birth_date: date | None
    nationality: str
    category_key: str
    source_id: str
    listed_name: str
    variant: str  # what differs, in words


@dataclass(frozen=True)
class ListedOrganisation:
    name: str
    category_key: str
    source_id: str


def _words(name: str) -> list[str] | None:
    words = name.replace(",", " ").replace(".", " ").split()
    return words if 2 <= len(words) <= 4 and all(WORD.match(w) for w in words) else None


def _title(words: list[str]) -> str:
    """Names in capitals as a register writes them (Al-Jalamah); mixed case ones as they are."""
    return " ".join("-".join(p.capitalize() for p in w.split("-")) if w.isupper() else w for w in words)


def transliterated(words: list[str]) -> str | None:
    changed = [TRANSLITERATIONS.get(w.upper(), w) for w in words]
    return _title(changed) if changed != [w.upper() for w in words] and changed != words else None


def middle_dropped(words: list[str]) -> str | None:
    return _title([words[0], words[-1]]) if len(words) >= 3 else None


def surname_first(words: list[str]) -> str | None:
    # Lists write surnames in capitals ("Jaber AL-JALAMAH"): the register puts them first.
    return _title([words[-1], *words[:-1]]) if len(words) == 2 else None


VARIANTS: dict[str, tuple[Callable[[list[str]], str | None], str]] = {
    "transliteration": (transliterated, "transliterated differently"),
    "middle_dropped": (middle_dropped, "middle name left out"),
    "surname_first": (surname_first, "surname first"),
}


def _birth(entry: ScreeningListEntry) -> date | None:
    for value in entry.birth_dates:
        try:
            return date.fromisoformat(value)
        except ValueError:
            continue
    return None


def _entries(category_key: str, schema: str) -> Iterator[ScreeningListEntry]:
    category = ScreeningListCategory.objects.filter(key=category_key).exclude(current_version=None).first()
    if category is None:
        return iter(())
    return ScreeningListEntry.objects.filter(version_id=category.current_version_id, schema=schema).order_by("source_id").iterator()


def _found_alone(loaded: LoadedIndex, query: PersonQuery, entry: ScreeningListEntry, most: int = 2) -> bool:
    matches = loaded.index.search(query, limit=10)
    return len(matches) <= most and any(m.entity_id == str(entry.uuid) for m in matches)


def listed_persons_pick(
    *, loaded: LoadedIndex, category_key: str, variant: str, count: int, taken: set[str]
) -> list[ListedPerson]:
    """Up to `count` persons of the category's current list, spelt by `variant`, that the
    engine finds again; `taken` (source ids) are skipped and extended."""
    make, words_of_change = VARIANTS[variant]
    picked: list[ListedPerson] = []
    for entry in _entries(category_key, "Person"):
        if len(picked) == count:
            break
        words = _words(entry.primary_name)
        spelt = make(words) if words and entry.source_id not in taken else None
        if not spelt:
            continue
        birth = _birth(entry)
        nationality = entry.nationalities[0] if entry.nationalities else ""
        query = PersonQuery(
            name=spelt, birth_date=birth.isoformat() if birth else None, nationalities=[nationality] if nationality else []
        )
        if _found_alone(loaded, query, entry):
            taken.add(entry.source_id)
            picked.append(
                ListedPerson(spelt, birth, nationality, category_key, entry.source_id, entry.primary_name, words_of_change)
            )
    return picked


def listed_organisation_pick(*, loaded: LoadedIndex, category_key: str) -> ListedOrganisation | None:
    """An organisation of the category's list whose name, as a company name, the engine finds."""
    for entry in _entries(category_key, "Organization"):
        words = entry.primary_name.replace(".", "").split()
        if not 2 <= len(words) <= 4 or not all(w.isalpha() for w in words) or not {"LTD", "LLC", "CO"} & set(words):
            continue
        name = " ".join(words).upper()
        if _found_alone(loaded, PersonQuery(name=name, schema="Organization"), entry, most=1):
            return ListedOrganisation(name, category_key, entry.source_id)
    return None
