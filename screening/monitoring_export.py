"""/screening/approvals/monitorings.csv: every monitoring of the organisation's config, as CSV.

What an auditor asks for beside the cases: who is screened (a customer person with the organisation's
customer reference), why, on whose decision, and the evidence of screening (per list, the version
last screened against and when). Every monitoring,
removed and declined ones too, oldest first: rows never leave that list (a removal only changes a
row), so reading it a thousand at a time by offset neither skips nor repeats one
(portal.csv_export).
"""

from __future__ import annotations

from django.http import StreamingHttpResponse

from portal.csv_export import csv_response, moment_cell, records_paged
from portal.formatting import monitoring_why
from portal.models import Member
from portal.service.screening_records import Monitoring
from screening.case_export import KINDS
from screening.pages import assignee_names, decided_by

COLUMNS = (
    "Name", "Kind", "Customer reference", "Monitored as", "Company", "Organisation number", "Why", "Status", "Since (Europe/Oslo)",
    "Decision", "Decided by", "Decided (Europe/Oslo)", "Decision comment", "Removed (Europe/Oslo)", "Removal reason",
    "Last screened (Europe/Oslo)", "Screened against", "Monitoring uuid",
)
STATUS_WORDS = {"active": "Screened", "pending": "Pending", "declined": "Declined", "removed": "Removed"}


def monitorings_csv_response(*, client, member: Member, config_uuid, type_words: dict, filename: str) -> StreamingHttpResponse:
    """Raises the service's error when its first page cannot be read."""

    def page_at(offset: int, limit: int):
        page = client.screening.monitorings(config_uuid, limit=limit, offset=offset)
        return page.rows, page.has_more

    monitorings = records_paged(page_at, key=lambda m: m.uuid, what="Monitoring")
    names = assignee_names(member)  # every linked member, read once for the whole file
    return csv_response(filename=filename, columns=COLUMNS, rows=(_row(m, names, type_words) for m in monitorings))


def _row(m: Monitoring, names: dict, type_words: dict) -> list:
    decision = m.decisions[0] if m.decisions else None  # newest first
    company = m.related_company
    return [
        m.entity_name,
        KINDS.get(m.entity_key, m.entity_key),
        m.customer_reference,
        type_words.get(m.type_key, m.type_key),
        company.name if company else "",
        f"{company.org_nr_schema}{company.org_nr}" if company else "",
        monitoring_why(m) if m.comment else "",
        STATUS_WORDS.get(m.status_key, m.status_key),
        moment_cell(m.created_at),
        ("Approved" if decision.approved else "Declined") if decision else "",
        decided_by(decision, names) if decision else "",
        moment_cell(decision.decided_at) if decision else "",
        decision.comment if decision else "",  # why a suggested owner is not screened: what a regulator asks
        moment_cell(m.removed_at),
        m.removal_reason,
        moment_cell(m.last_screened_at),
        "; ".join(f"{s.category_name} version {s.version_number} at {moment_cell(s.screened_at)}"
                  for s in m.screened_against),
        str(m.uuid),
    ]
