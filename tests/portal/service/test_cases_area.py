"""portal.service.cases against the real service, in-process: the queue's page and counts, one case
with both sides of the match, reviews, assignment and the report."""

from __future__ import annotations

from uuid import UUID

import pytest

from portal.access import client_for_member
from portal.service import ServiceNotFound
from portal.service.cases import CaseFilters, StatusCount
from tests.screening.helpers import cases_make, member_make
from tests.service.screening.cases.conftest import lists  # noqa: F401

OPEN = CaseFilters(status_keys=("pending", "ongoing"))


@pytest.fixture
def officer(transactional_db):
    return member_make("Nordbank ASA", "ingrid")


def test_it_reads_a_page_with_both_sides_of_each_match(officer, lists):
    screened = cases_make(officer)
    cases = client_for_member(officer.member).cases

    page = cases.page(screened.config_uuid, OPEN, sort_order="oldest_first")

    assert (page.count, page.has_more) == (2, False)
    sanction, pep = page.cases
    assert sanction.uuid == screened.sanction_case.uuid and (sanction.sanction, sanction.pep) == (True, False)
    assert (sanction.subject.kind, sanction.subject.name, sanction.subject.nationalities) == ("person", "Ivan Sergeyevich Dragunov", ("RU",))
    assert [c.name for c in sanction.related_companies] == ["Nordlys AS"]
    assert (sanction.list_entry.source_id, sanction.list_entry.programmes, sanction.list_entry.nationalities) == ("KPi.901", ("DPRK",), ("RU",))
    assert {p.query for p in sanction.explanation.aligned} >= {"ivan", "dragunov"}
    assert pep.subject.kind == "customer_person" and pep.list_entry.list_type == "pep"


def test_it_counts_and_filters_and_finds_one_case(officer, other_member, lists):
    screened = cases_make(officer)
    cases = client_for_member(officer.member).cases

    counts = cases.status_counts(screened.config_uuid, CaseFilters())
    assert counts.per_status() == {"pending": 2, "ongoing": 0, "complete": 0}
    assert (counts.open, counts.open_pep, counts.open_sanction) == (2, 1, 1)
    pep_only = cases.status_counts(screened.config_uuid, CaseFilters(pep=True))
    assert pep_only.of("pending") == StatusCount("pending", 1, 1, 0)
    only_company = cases.page(screened.config_uuid, CaseFilters(related_company_uuid=screened.company.uuid))
    assert [c.uuid for c in only_company.cases] == [screened.sanction_case.uuid]
    assert cases.get(screened.config_uuid, screened.pep_case.uuid).subject.name == "Ingrid Margrethe Solbakken"
    with pytest.raises(ServiceNotFound):
        client_for_member(other_member.member).cases.get(screened.config_uuid, screened.pep_case.uuid)


def test_it_reviews_assigns_and_reads_the_report(officer, lists):
    screened = cases_make(officer)
    cases = client_for_member(officer.member).cases
    me = officer.member.app_membership_uuid

    assigned = cases.assign(screened.config_uuid, screened.pep_case.uuid, me)
    reviewed = cases.review(screened.config_uuid, screened.pep_case.uuid, reviewer_uuid=me, status_key="false_positive",
                            decision_key="no_match", pep_confirmed=False, comment="Other birth date")
    pdf = cases.report_pdf(screened.config_uuid, screened.pep_case.uuid)

    assert assigned.assignee_uuid == UUID(str(me))
    assert reviewed.status_key == "complete"
    review = reviewed.latest_review
    assert (review.status_key, review.decision_key, review.comment, review.reviewer_email) == (
        "false_positive", "no_match", "Other birth date", "ingrid@example.com")
    assert cases.page(screened.config_uuid, CaseFilters(assignee_uuid=me)).count == 1
    assert pdf.startswith(b"%PDF")
    assert set(cases.review_status_keys()) == {"in_review", "escalated", "confirmed_hit", "false_positive"}
