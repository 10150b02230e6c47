"""Paths to the real list files under ../shared/data and to our own fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[5] / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _shared(relative: str) -> Path:
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"shared data file {relative} is absent (expected at {path})")
    return path


@pytest.fixture(scope="session")
def un_xml_path() -> Path:
    return _shared("sanctions/un/UN_consolidated.xml")


@pytest.fixture(scope="session")
def ofac_sdn_path() -> Path:
    return _shared("sanctions/ofac/sdn.csv")


@pytest.fixture(scope="session")
def senzing_path() -> Path:
    return _shared("pep/us_congress_senzing.json")


@pytest.fixture(scope="session")
def eu_csv_path() -> Path:
    return FIXTURES / "eu_consolidated_sample.csv"


@pytest.fixture(scope="session")
def ftm_json_path() -> Path:
    return FIXTURES / "opensanctions_sample.ftm.json"
