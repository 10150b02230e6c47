"""The record of a batch job as a PDF (`response_file_type=pdf` of its result): what an officer
files with a new customer after checking a name or a file of names.

Rendered on request from the stored result (nothing more is stored), in the house style
(service.pdf_style): who checked what and when, the list versions screened against, each row
with possible hits and why in the case report's words (at most HIT_ROWS_LISTED), then the rows
without one (at most CLEAN_ROWS_LISTED): the CSV holds every row. The caps bound what a request
waits for. A hit's why in words takes about twice the room of the engine's sentence, so 1,000
rows with hits are listed, which waits about as long as 2,000 did before: bench/bench_batch_report.py
on one (shared, loaded) machine renders 10,000 rows with 1,000 with hits in 27 s (387 pages),
against 25 s for 2,000 with the sentence (2026-11-29; 2,000 took 6.7 s on an idle one, 2026-11-28).
"""

from __future__ import annotations

import io
from datetime import datetime

from django.utils import timezone
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
from xml.sax.saxutils import escape

from service.pdf_style import MARGIN, STYLES, WIDTH, canvas_maker, facts, heads, num, para, section, table
from service.screening.models import ScreeningBatch
from service.screening.person_file import LIST_TYPES, list_names
from vakt_format import norwegian as no
from vakt_format.match_explanation import explanation_facts

TITLE = "Screening record"
CLEAN_ROWS_LISTED = 500
HIT_ROWS_LISTED = 1000


def batch_report_render(*, batch: ScreeningBatch, rows: list[dict], organisation_name: str,
                        now: datetime | None = None) -> bytes:
    """`rows`: the job's result (person_file.row_result of each row, in file order)."""
    local = timezone.localtime(now or timezone.now())
    single = len(rows) == 1
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 10 * mm,
        bottomMargin=MARGIN + 4 * mm, title=f"{TITLE}: {batch.file_name}", author="Vakt",
        subject=f"{TITLE} for {organisation_name}",
    )
    with_hits = [row for row in rows if row["hits"]]
    names = list_names()
    story = _front(batch, rows, with_hits, single) + _against(batch) + _hits(with_hits, single, names)
    story += _clean([row for row in rows if not row["hits"]], single)
    story += [Spacer(1, 6 * mm), para(_note(), "small")]
    footer = f"Batch job {batch.uuid}  |  Confidential"
    doc.build(story, canvasmaker=canvas_maker((TITLE, organisation_name, local, footer)))
    return buffer.getvalue()


def _front(batch: ScreeningBatch, rows: list[dict], with_hits: list[dict], single: bool) -> list:
    if single:
        found = len(rows[0]["hits"])
        line = f"{found} possible hit{'s' if found != 1 else ''}" if found else "No possible hit"
    else:
        line = f"{len(rows)} rows screened, {len(with_hits)} with possible hits"
    return [
        Paragraph(escape(batch.file_name), STYLES["title"]),
        para(line, "subtitle"),
        facts([
            ("Checked" if single else "Uploaded", no.moment(batch.create_timestamp)),
            ("By", _uploader(batch)),
            ("Screened", no.moment(batch.complete_timestamp)),
        ]),
    ]


def _uploader(batch: ScreeningBatch) -> str:
    """Who uploaded the file: the member the upload named, else the API user it came through."""
    member = batch.app_membership
    if member is not None:
        return f"{member.full_name} ({member.email})" if member.full_name else member.email
    if batch.api_user is not None:
        return f"The API user {batch.api_user.name} (no member named)"
    return "The service itself (no member named: loaded with the demo data or by an operator)"


def _against(batch: ScreeningBatch) -> list:
    body = [heads("List", "Version", "Imported")]
    body += [[para(s["category_name"]), para(str(s["version_number"])),
              para(no.day(datetime.fromisoformat(s["imported_timestamp"])))]
             for s in batch.screened_against]
    if len(body) == 1:
        return [section("Screened against"), para("The PEP list and the sanction lists the organisation screened.", "body")]
    return [section("Screened against"), table(body, [WIDTH - 60 * mm, 25 * mm, 35 * mm])]


def _who(row: dict) -> str:
    if row["type"] == "company":
        details = ["Company"] + ([row["country"]] if row.get("country") else [])
    else:
        details = ["Person"] + ([f"born {no.partial_day(row['birth_date'])}"] if row.get("birth_date") else [])
        details += [row["nationality"].replace(";", ", ")] if row.get("nationality") else []
    details += [f"ref. {row['id']}"] if row.get("id") else []
    return f"{row['name']} ({', '.join(details)})"


def _hits(with_hits: list[dict], single: bool, names: dict[str, str]) -> list:
    if not with_hits:
        return []
    story = [section("Possible hits" if single else "Rows with possible hits")]
    for row in with_hits[:HIT_ROWS_LISTED]:
        heading = _who(row) if single else f"Line {row['line']}: {_who(row)}"
        body = [heads("List", "Source id", "Listed name", "Score", "Why", right=(3,))]
        body += [[para(list_label(hit, names)), para(hit["source_id"]),
                  para(hit["matched_name"]), num(no.decimal(hit["score"], 2)), _why(hit, person=row["type"] != "company")]
                 for hit in row["hits"]]
        story += [Spacer(1, 2 * mm), para(heading, "body"), Spacer(1, 1 * mm),
                  table(body, [32 * mm, 20 * mm, 36 * mm, 12 * mm, WIDTH - 100 * mm])]
    if len(with_hits) > HIT_ROWS_LISTED:
        more = len(with_hits) - HIT_ROWS_LISTED
        rows = f"{more} more row{'s' if more != 1 else ''}"
        story += [Spacer(1, 1 * mm), para(f"And {rows} with possible hits: the CSV and JSON results list them all.", "small")]
    return story


def list_label(hit: dict, names: dict[str, str]) -> str:
    """ "UN Security Council (Sanction)": the list's name as the organisation's lists are named, and its kind."""
    return f"{names.get(hit['list'], hit['list'])} ({LIST_TYPES.get(hit['list_type'], hit['list_type'])})"


def _why(hit: dict, *, person: bool) -> Paragraph:
    """The engine's explanation in the case report's words (vakt_format.match_explanation), a fact a line."""
    detail = hit.get("explanation_detail")
    if not detail:  # a result kept without the detail: its sentence is all there is
        return para(hit["explanation"])
    lines = explanation_facts(detail, compact=True, person=person)
    return Paragraph("<br/>".join(f"<b>{escape(label)}:</b> {escape(text)}" for label, text in lines), STYLES["cell"])


def _clean(rows: list[dict], single: bool) -> list:
    if not rows or single:
        return []
    body = [heads("Line", "Screened", right=(0,))]
    body += [[num(str(row["line"])), para(_who(row))] for row in rows[:CLEAN_ROWS_LISTED]]
    story = [section("Rows without a possible hit"), table(body, [16 * mm, WIDTH - 16 * mm])]
    if len(rows) > CLEAN_ROWS_LISTED:
        story += [Spacer(1, 1 * mm), para(f"And {len(rows) - CLEAN_ROWS_LISTED} more: the CSV result lists every row.", "small")]
    return story


def _note() -> str:
    return (
        "Each name was searched with Vakt's matching engine in the list versions above, on the day screened. "
        "A possible hit is a name to look at, not a finding; nothing of this check became a case or a monitoring. "
        "The three best hits of a row are shown."
    )
