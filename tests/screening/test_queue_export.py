"""/screening/cases/export.csv: every case the queue's filters select, with both sides of the match and
the latest review, as a CSV file for an auditor."""

from __future__ import annotations

import csv
import io

import pytest

from portal import csv_export
from portal.models import Member
from portal.service.cases import CasesArea
from portal.service import ServiceUnavailable
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make

EXPORT = "/screening/cases/export.csv"


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "ingrid")


def _csv(response) -> list[dict]:
    assert response.status_code == 200, response
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads it as UTF-8
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_it_writes_each_case_with_both_sides_and_its_latest_review(officer, lists):
    screened = cases_make(officer)
    client = officer.client()
    review = {"status": "false_positive", "decision": "no_match", "comment": "=HYPERLINK(\"x\") born 1971, not him"}
    client.post(f"{case_url(screened.pep_case.uuid)}review/", review)

    response = client.get(EXPORT, {"status": "all"})

    assert response["Content-Disposition"].startswith('attachment; filename="screening-cases-nordbank-asa-all-')
    rows = {row["Screened"]: row for row in _csv(response)}
    assert set(rows) == {"Ivan Sergeyevich Dragunov", "Ingrid Margrethe Solbakken"}
    sanction = rows["Ivan Sergeyevich Dragunov"]
    assert (sanction["Status"], sanction["Hit"], sanction["Kind"], sanction["Born"]) == ("New", "Sanction", "Person", "1966-03-14")
    assert sanction["Monitored for"] == "Nordlys AS" and sanction["List"] == "un_security_council"
    assert sanction["List entry"] == "KPi.901" and float(sanction["Score"]) >= 0.8
    assert sanction["Latest review"] == "" and sanction["Reviews"] == "0"
    pep = rows["Ingrid Margrethe Solbakken"]
    assert (pep["Status"], pep["Hit"], pep["Latest review"], pep["Match decision"]) == ("Closed", "PEP", "False positive", "No match")
    assert pep["Reviewed by"] == "ingrid@example.com" and pep["PEP confirmed"] == "no"
    assert pep["Comment"] == "'=HYPERLINK(\"x\") born 1971, not him"  # text, never run as a formula
    assert pep["Case uuid"] == str(screened.pep_case.uuid)


def test_it_follows_the_queues_filters_and_says_how_many(officer, lists):
    cases_make(officer)
    client = officer.client()

    assert [r["Screened"] for r in _csv(client.get(EXPORT, {"hit": "pep"}))] == ["Ingrid Margrethe Solbakken"]
    assert _csv(client.get(EXPORT, {"status": "complete"})) == []
    queue = client.get(QUEUE, {"hit": "pep"}).content.decode()
    assert f'href="{EXPORT}?hit=pep"' in queue and "Download 1 as CSV" in queue


def test_it_reads_every_page_and_writes_each_case_once(officer, lists, monkeypatch):
    cases_make(officer)
    monkeypatch.setattr(csv_export, "PAGE_SIZE", 1)
    rows = _csv(officer.client().get(EXPORT, {"sort": "newest"}))
    assert [r["Screened"] for r in rows] == ["Ingrid Margrethe Solbakken", "Ivan Sergeyevich Dragunov"]


def test_a_file_cut_short_by_the_service_says_it_is_incomplete(officer, lists, monkeypatch):
    cases_make(officer)
    monkeypatch.setattr(csv_export, "PAGE_SIZE", 1)
    read = CasesArea.page

    def failing_later(self, *args, offset=0, **kwargs):
        if offset > 0:
            raise ServiceUnavailable(0, "unreachable", "connection refused")
        return read(self, *args, offset=offset, **kwargs)

    monkeypatch.setattr(CasesArea, "page", failing_later)
    text = b"".join(officer.client().get(EXPORT).streaming_content).decode("utf-8")
    assert text.rstrip().endswith("INCOMPLETE: the service stopped answering; the records above are not all. Download again.")


def test_a_viewer_downloads_too_and_another_organisation_gets_none_of_ours(officer, lists):
    cases_make(officer)
    viewer = member_make("", "vilde", Member.Role.VIEWER, like=officer)
    assert len(_csv(viewer.client().get(EXPORT))) == 2

    stranger = member_make("Fjordkreditt AS", "olav")
    response = stranger.client().get(EXPORT, follow=True)
    assert "Screening is not set up for your organisation yet" in response.content.decode()
