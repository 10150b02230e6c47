"""Fixtures for the matching engine tests: real UN persons, parsed minimally here.

These tests need no database; they read ../shared/data and skip when it is absent.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from service.screening.matching import ListEntity, ListName, MatchIndex

SHARED_DATA = Path(__file__).resolve().parents[5] / "shared" / "data"


def shared_data(relative: str) -> Path:
    """A file under ../shared/data, or skip the test saying what is missing."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"shared data file {relative} is absent (expected at {path})")
    return path


def _text(element: ET.Element, tag: str) -> str:
    child = element.find(tag)
    return (child.text or "").strip() if child is not None and child.text else ""


def un_person(individual: ET.Element) -> ListEntity:
    parts = [_text(individual, tag) for tag in ("FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME")]
    names = [ListName(" ".join(part for part in parts if part))]
    for alias in individual.findall("INDIVIDUAL_ALIAS"):
        if _text(alias, "ALIAS_NAME"):
            quality = "weak" if _text(alias, "QUALITY").lower() == "low" else "strong"
            names.append(ListName(_text(alias, "ALIAS_NAME"), quality))
    births = [
        (_text(birth, "DATE") or _text(birth, "YEAR"))[:10]
        for birth in individual.findall("INDIVIDUAL_DATE_OF_BIRTH")
    ]
    return ListEntity(
        id=_text(individual, "DATAID"),
        schema="Person",
        names=names,
        birth_dates=[birth for birth in births if birth],
        gender=_text(individual, "GENDER").lower() or None,
    )


@pytest.fixture(scope="session")
def un_persons() -> list[ListEntity]:
    root = ET.parse(shared_data("sanctions/un/UN_consolidated.xml")).getroot()
    return [un_person(individual) for individual in root.iter("INDIVIDUAL")]


@pytest.fixture(scope="session")
def un_index(un_persons: list[ListEntity]) -> MatchIndex:
    return MatchIndex.build(un_persons)
