"""/screening/cases/: the queue with its filters in the URL, counts per status, sorting, assignment."""

from __future__ import annotations

import re

import pytest

from portal.models import Member
from tests.screening.helpers import QUEUE, case_url, cases_make, member_make


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "ingrid")


def _rows(html: str) -> list[str]:
    return re.findall(r'data-testid="queue-row".*?</tr>', html, re.DOTALL)


def _count(html: str, key: str) -> str:
    return re.search(rf'data-testid="count-{key}">([^<]*)<', html).group(1)


def test_it_lists_the_open_cases_oldest_first_with_counts(officer, lists):
    screened = cases_make(officer)

    page = officer.client().get(QUEUE).content.decode()

    rows = _rows(page)
    assert len(rows) == 2
    assert "Ivan Sergeyevich Dragunov" in rows[0] and "Ingrid Margrethe Solbakken" in rows[1]  # oldest first
    assert "Sanction" in rows[0] and "PEP" in rows[1] and "Nordlys AS" in rows[0]
    assert (_count(page, "open"), _count(page, "pending"), _count(page, "complete")) == ("2", "2", "0")
    assert case_url(screened.sanction_case.uuid) in rows[0]
    newest = _rows(officer.client().get(QUEUE, {"sort": "newest"}).content.decode())
    assert "Ingrid Margrethe Solbakken" in newest[0]


def test_filters_in_the_url_change_the_rows_and_the_counts(officer, lists):
    screened = cases_make(officer)
    client = officer.client()

    pep = client.get(QUEUE, {"hit": "pep"}).content.decode()
    of_company = client.get(QUEUE, {"company": str(screened.company.uuid)}).content.decode()
    complete = client.get(QUEUE, {"status": "complete"}).content.decode()

    assert [("Solbakken" in r) for r in _rows(pep)] == [True] and _count(pep, "open") == "1"
    assert len(_rows(of_company)) == 1 and "Dragunov" in _rows(of_company)[0]
    assert "Related company: Nordlys AS" in of_company
    assert _rows(complete) == [] and 'data-testid="queue-empty"' in complete


def test_a_name_search_narrows_the_rows_and_the_counts_and_stays_in_the_links(officer, lists):
    cases_make(officer)
    client = officer.client()

    found = client.get(QUEUE, {"q": "  solbakken ", "sort": "newest"}, follow=True).content.decode()
    listed = client.get(QUEUE, {"q": "IVAN SERGEYEVICH"}).content.decode()
    nobody = client.get(QUEUE, {"q": "Nordmann"}).content.decode()

    assert [("Solbakken" in r) for r in _rows(found)] == [True] and _count(found, "open") == "1"
    assert 'value="solbakken"' in found
    assert "?q=solbakken&amp;status=all" in found  # the status tabs keep the search
    assert [("Dragunov" in r) for r in _rows(listed)] == [True]
    assert _rows(nobody) == [] and "No open cases match these filters." in nobody and 'data-testid="clear-filters"' in nobody


def test_assign_to_me_then_filter_by_me_and_by_nobody(officer, lists):
    screened = cases_make(officer)
    client = officer.client()

    response = client.post(f"{case_url(screened.pep_case.uuid)}assign/", {"to": "me", "from": "queue", "back": QUEUE}, follow=True)
    assert response.redirect_chain == [(QUEUE, 302)] and "Assigned to you." in response.content.decode()
    mine = client.get(QUEUE, {"assignee": "me"}).content.decode()
    nobodys = client.get(QUEUE, {"assignee": "nobody"}).content.decode()

    assert len(_rows(mine)) == 1 and "Solbakken" in _rows(mine)[0] and ">Me<" in _rows(mine)[0]
    assert len(_rows(nobodys)) == 1 and "Dragunov" in _rows(nobodys)[0]


def test_assign_with_htmx_answers_the_row(officer, lists):
    screened = cases_make(officer)

    response = officer.client().post(f"{case_url(screened.sanction_case.uuid)}assign/", {"to": "me", "from": "queue", "back": QUEUE},
                                     HTTP_HX_REQUEST="true")

    row = response.content.decode()
    assert response.status_code == 200 and row.strip().startswith("<tr")
    assert ">Me<" in row and "Assigned to you." in row and "Unassign" in row


def test_a_viewer_reads_the_queue_but_cannot_assign(officer, lists):
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)

    page = viewer.client().get(QUEUE).content.decode()
    refused = viewer.client().post(f"{case_url(screened.pep_case.uuid)}assign/", {"to": "me"})

    assert len(_rows(page)) == 2 and "Assign to me" not in page
    assert refused.status_code == 403


def test_pages_follow_the_spec_rule(officer, lists, monkeypatch):
    cases_make(officer)
    monkeypatch.setattr("screening.queue_filters.PAGE_SIZE", 1)
    client = officer.client()

    first = client.get(QUEUE).content.decode()
    second = client.get(QUEUE, {"page": "2"}).content.decode()

    assert "Dragunov" in _rows(first)[0] and 'href="?page=2"' in first and "1–1 of 2" in first
    assert "Solbakken" in _rows(second)[0] and "2–2 of 2" in second and 'data-testid="next-page"' not in second


def test_a_service_error_shows_a_message_not_a_trace(officer, lists, monkeypatch):
    from portal.service import ServiceUnavailable
    from portal.service.cases import CasesArea

    cases_make(officer)

    def unreachable(*args, **kwargs):
        raise ServiceUnavailable(0, "unreachable", "connection refused")

    monkeypatch.setattr(CasesArea, "page", unreachable)
    response = officer.client().get(QUEUE)

    page = response.content.decode()
    assert response.status_code == 503
    assert "The service could not be reached" in page and "Traceback" not in page and "connection refused" not in page


def test_it_says_when_screening_is_not_set_up(officer):
    page = officer.client().get(QUEUE).content.decode()

    assert "Screening is not set up for your organisation yet" in page


def test_it_shows_the_cases_of_one_kind_of_screened_party(officer, lists):
    cases_make(officer)  # a beneficial owner of Nordlys AS and a customer
    client = officer.client()

    customers = client.get(QUEUE, {"screened": "customer"}).content.decode()
    owners = client.get(QUEUE, {"screened": "person"}).content.decode()
    companies = client.get(QUEUE, {"screened": "company"}).content.decode()

    assert [("Solbakken" in r) for r in _rows(customers)] == [True] and _count(customers, "open") == "1"
    assert [("Dragunov" in r) for r in _rows(owners)] == [True] and _count(owners, "open") == "1"
    assert _rows(companies) == []
    assert '<option value="customer" selected>Customers</option>' in customers
    assert 'href="?status=all&amp;screened=customer" data-testid="status-all"' in customers  # kept in the status tabs
    assert 'href="/screening/cases/export.csv?screened=customer"' in customers and "Download 1 as CSV" in customers
    exported = b"".join(client.get("/screening/cases/export.csv", {"screened": "customer"}).streaming_content).decode()
    assert "Solbakken" in exported and "Dragunov" not in exported
    unknown = client.get(QUEUE, {"screened": "robots"}, follow=True).content.decode()  # an unknown value: everyone
    assert len(_rows(unknown)) == 2


def test_it_shows_the_cases_raised_on_one_list(officer, lists):
    cases_make(officer)  # Dragunov on the UN list, Solbakken on the PEP list
    client = officer.client()

    un = client.get(QUEUE, {"list": "un_security_council"}).content.decode()
    pep = client.get(QUEUE, {"list": "pep"}).content.decode()

    assert [("Dragunov" in r) for r in _rows(un)] == [True] and _count(un, "open") == "1"
    assert [("Solbakken" in r) for r in _rows(pep)] == [True] and _count(pep, "open") == "1"
    assert re.findall(r'<option value="([^"]*)"', un.split('id="f-list"')[1].split("</select>")[0]) == [
        "", "pep", "un_security_council"]  # any list, the PEP list, then the sanction lists imported
    assert '<option value="un_security_council" selected>UN Security Council</option>' in un
    assert 'href="?status=all&amp;list=un_security_council" data-testid="status-all"' in un
    exported = b"".join(client.get("/screening/cases/export.csv", {"list": "pep"}).streaming_content).decode()
    assert "Solbakken" in exported and "Dragunov" not in exported
    for unknown in ("us_ofac_sdn", "no_such_list", "Robert'); DROP"):  # never imported, unknown, no key: every list
        page = client.get(QUEUE, {"list": unknown}, follow=True).content.decode()
        assert len(_rows(page)) == 2 and '<option value="" selected>Any list</option>' in page


def _badge(html: str) -> tuple[str, str]:
    """A case status badge's word and tooltip."""
    title, word = re.search(r'<span class="badge case-\w+" title="([^"]*)">([^<]+)</span>', html).groups()
    return word, title


def test_a_case_status_reads_the_same_words_as_the_review_form_on_every_page(officer, lists):
    """New, In review, Closed: in the queue's tabs and badges, on the case page, in its messages and in the CSV,
    as the review form names them ("In review"); the API's status stays in the tooltip."""
    screened = cases_make(officer)
    client = officer.client()

    queue = client.get(QUEUE).content.decode()
    tabs = re.findall(r'data-testid="status-(\w+)" title="([^"]*)"[^>]*>([^<]+?) <span', queue)
    assert [(key, label) for key, _, label in tabs] == [
        ("open", "Open"), ("pending", "New"), ("ongoing", "In review"), ("complete", "Closed"), ("all", "All")]
    assert dict((key, title) for key, title, _ in tabs)["ongoing"] == "Taken up (in review or escalated), not closed yet · API status ongoing"
    assert _badge(_rows(queue)[0]) == ("New", "No review yet · API status pending")
    assert "Pending" not in queue and "Ongoing" not in queue and "Complete" not in queue

    taken = client.post(f"{case_url(screened.sanction_case.uuid)}review/", {"status": "in_review", "decision": "possible_match"},
                        follow=True).content.decode()
    assert 'for="status-in_review">In review <span' in taken  # the form's word ...
    assert _badge(taken.split('data-testid="case-subject"')[1])[0] == "In review"  # ... is the case's status
    assert _badge(_rows(client.get(QUEUE).content.decode())[0])[0] == "In review"

    closed = client.post(f"{case_url(screened.pep_case.uuid)}review/",
                         {"status": "false_positive", "decision": "no_match", "comment": "Born 1971"}, follow=True).content.decode()
    assert "Review saved: false positive. The case is closed." in closed
    assert _badge(closed.split('data-testid="case-subject"')[1]) == ("Closed: false positive", "Closed as a false positive · API status complete")
    empty = client.get(QUEUE, {"status": "complete", "hit": "sanction"}).content.decode()
    assert "No closed cases match these filters." in empty
    exported = b"".join(client.get("/screening/cases/export.csv", {"status": "all"}).streaming_content).decode()
    assert [line.split(",")[1] for line in exported.splitlines()[1:]] == ["In review", "Closed"]
