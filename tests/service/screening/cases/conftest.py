"""Tiny UN and PEP lists, written by the test and imported with the real importers, and the
steps every case test takes through the HTTP API. The screening run is enqueued on commit, as
in production: these tests commit for real (transactional database)."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from celery.app.task import Task
from kombu.exceptions import OperationalError

from service.screening.list_import import screening_list_import
from service.screening.matching import MatchIndex
from service.screening.models import ScreeningListCategory

UN_XML = """<?xml version="1.0" encoding="UTF-8"?>
<CONSOLIDATED_LIST>
  <INDIVIDUALS>
    <INDIVIDUAL>
      <DATAID>1</DATAID>
      <FIRST_NAME>IVAN</FIRST_NAME>
      <SECOND_NAME>SERGEYEVICH</SECOND_NAME>
      <THIRD_NAME>DRAGUNOV</THIRD_NAME>
      <UN_LIST_TYPE>DPRK</UN_LIST_TYPE>
      <REFERENCE_NUMBER>KPi.901</REFERENCE_NUMBER>
      <LISTED_ON>2017-06-02</LISTED_ON>
      <GENDER>Male</GENDER>
      <NATIONALITY><VALUE>Russian Federation</VALUE></NATIONALITY>
      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>1966-03-14</DATE></INDIVIDUAL_DATE_OF_BIRTH>
      <INDIVIDUAL_ADDRESS><CITY>Vladivostok</CITY><COUNTRY>Russian Federation</COUNTRY></INDIVIDUAL_ADDRESS>
      <INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>Passport</TYPE_OF_DOCUMENT><NUMBER>745120836</NUMBER><ISSUING_COUNTRY>Russian Federation</ISSUING_COUNTRY></INDIVIDUAL_DOCUMENT>
    </INDIVIDUAL>
  </INDIVIDUALS>
  <ENTITIES>
    <ENTITY>
      <DATAID>2</DATAID>
      <FIRST_NAME>KORYO FJORD TRADING</FIRST_NAME>
      <UN_LIST_TYPE>DPRK</UN_LIST_TYPE>
      <REFERENCE_NUMBER>KPe.901</REFERENCE_NUMBER>
      <LISTED_ON>2017-06-02</LISTED_ON>
    </ENTITY>
  </ENTITIES>
</CONSOLIDATED_LIST>
"""

PEP_RECORDS = [
    {
        "DATA_SOURCE": "OS_TEST_PEP",
        "RECORD_ID": "pep-1",
        "RECORD_TYPE": "PERSON",
        "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FULL": "Ingrid Margrethe Solbakken"}],
        "RISKS": [{"TOPIC": "role.pep"}],
        "DATES": [{"DATE_OF_BIRTH": "1961-09-30"}],
        "COUNTRIES": [{"NATIONALITY": "no"}],
        "RELATIONSHIPS": [{"REL_POINTER_ROLE": "Occupancy", "REL_POINTER_DOMAIN": "OPEN_SANCTIONS", "REL_POINTER_KEY": "Q-storting"}],
        "URL": "https://example.org/entities/pep-1",
    },
    {  # the position the person points at, as OpenSanctions writes it: a record without a RECORD_TYPE
        "DATA_SOURCE": "OS_TEST_PEP",
        "RECORD_ID": "Q-storting",
        "RECORD_TYPE": None,
        "NAMES": [{"NAME_TYPE": "PRIMARY", "NAME_FULL": "Member of the Storting"}],
        "RELATIONSHIPS": [{"REL_ANCHOR_DOMAIN": "OPEN_SANCTIONS", "REL_ANCHOR_KEY": "Q-storting"}],
    },
]

UN_PERSON = "Ivan Sergeyevich Dragunov"
PEP_PERSON = "Ingrid Margrethe Solbakken"


@pytest.fixture(autouse=True)
def _committing(transactional_db):
    return None


@pytest.fixture
def lists(tmp_path, settings):
    """The UN list with one person and one company, the PEP list with one person."""
    settings.DATA_DIR = tmp_path  # the engine's index cache of this test's list versions
    un_file = tmp_path / "un.xml"
    un_file.write_text(UN_XML, encoding="utf-8")
    pep_file = tmp_path / "pep.json"
    pep_file.write_text("".join(json.dumps(r) + "\n" for r in PEP_RECORDS), encoding="utf-8")
    for key, path in (("un_security_council", un_file), ("pep", pep_file)):
        result = screening_list_import(category=ScreeningListCategory.objects.get(key=key), path=path)
        assert result.accepted >= 1, result.summary_line()
    return ScreeningListCategory.objects.filter(key__in=("un_security_council", "pep"))


@pytest.fixture
def searches(monkeypatch):
    """Every engine search: (entities in the index searched, the query's name)."""
    calls = []
    search = MatchIndex.search

    def recording(index, query, **kwargs):
        calls.append((index.stats().entities, query.name))
        return search(index, query, **kwargs)

    monkeypatch.setattr(MatchIndex, "search", recording)
    return calls


@pytest.fixture
def broker_away(monkeypatch):
    """A context in which every publish fails as it does when Redis cannot be reached."""

    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    @contextmanager
    def away():
        with monkeypatch.context() as patched:
            patched.setattr(Task, "apply_async", refused)
            yield

    return away
