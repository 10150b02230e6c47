"""/screening/cases/export.csv: the cases the queue's filters select, every one, as CSV.

What an internal auditor or a regulator asks for besides the audit log: each case with both
sides of the match (a customer person with the organisation's customer reference, so the hit is
traced back to the customer in the core system) and its decision (the latest review: status, match decision, PEP confirmed,
who, when, the comment), streamed a thousand cases a call (portal.csv_export).
"""

from __future__ import annotations

from django.http import StreamingHttpResponse

from portal.csv_export import csv_response, moment_cell, records_paged
from portal.formatting import key_words
from portal.models import Member
from portal.service.cases import Case, CaseFilters
from screening.pages import ANOTHER_MEMBER, assignee_names
from vakt_format.case_status import case_status_word

COLUMNS = (
    "Raised (Europe/Oslo)", "Status", "Hit", "Screened", "Kind", "Born", "Nationality", "Organisation number",
    "Customer reference", "Monitored for", "List", "List entry", "Listed as", "Score", "Explanation", "Latest review", "Match decision",
    "PEP confirmed", "Reviewed by", "Reviewed (Europe/Oslo)", "Comment", "Reviews", "Assigned to", "Case uuid",
)
KINDS = {"person": "Person", "customer_person": "Customer person", "company": "Company"}


def cases_csv_response(*, client, member: Member, config_uuid, filters: CaseFilters, sort_order: str,
                       filename: str) -> StreamingHttpResponse:
    """Raises the service's error when its first page cannot be read."""

    def page_at(offset: int, limit: int):
        page = client.cases.page(config_uuid, filters, sort_order=sort_order, limit=limit, offset=offset)
        return page.cases, page.has_more

    cases = records_paged(page_at, key=lambda case: case.uuid, what="Case")
    names = assignee_names(member)  # every linked member, read once for the whole file
    return csv_response(filename=filename, columns=COLUMNS, rows=(_row(case, names) for case in cases))


def _row(case: Case, names: dict) -> list:
    subject, entry, review = case.subject, case.list_entry, case.latest_review
    return [
        moment_cell(case.created_at),
        case_status_word(case.status_key),
        " and ".join(word for word, on in (("Sanction", case.sanction), ("PEP", case.pep)) if on),
        subject.name,
        KINDS.get(subject.kind, subject.kind),
        subject.birth_date.isoformat() if subject.birth_date else "",
        ";".join(subject.nationalities),
        f"{subject.org_nr_schema}{subject.org_nr}" if subject.org_nr else "",
        subject.customer_reference,  # a customer person's; "" for a company or a person screened for one
        "; ".join(company.name for company in case.related_companies),
        entry.category_key,
        entry.source_id,
        entry.primary_name,
        f"{case.score:.2f}",
        case.explanation_summary,
        key_words(review.status_key) if review else "",
        key_words(review.decision_key) if review else "",
        ("yes" if review.pep_confirmed else "no") if review else "",
        review.reviewer_email if review else "",
        moment_cell(review.created_at) if review else "",
        review.comment if review else "",
        len(case.reviews),
        names.get(case.assignee_uuid, ANOTHER_MEMBER) if case.assignee_uuid else "",
        case.uuid,
    ]
