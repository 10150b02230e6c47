"""The screening case report (spec §2.10, §4.7): one case as a PDF for the organisation's files.

Rendered on request from the case as it stands (nothing is stored or cached: a report is
cheap, a few tens of milliseconds, and always shows the latest review). The report's
`uuid` is derived from the case and its latest review, so the same case state always
answers the same uuid and a new review gives a new one.

Layout in the house style (service.pdf_style): a header with the organisation and the date
on every page, "Page n of m" in the footer; then the screened person or company with the
companies it is monitored for and why, the list entry with its source, the score with the
engine's explanation as the case stored it, and the review history, newest first.
"""

from __future__ import annotations

import io
import uuid
from datetime import datetime

from django.utils import timezone
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer
from xml.sax.saxutils import escape

from service.pdf_style import MARGIN, STYLES, WIDTH, canvas_maker, facts, heads, num, para, section, table
from vakt_format import norwegian as no
from vakt_format.case_status import PROPOSAL_WORDS, case_status_text, escalated_words
from vakt_format.list_entries import identifier_text
from vakt_format.match_explanation import aligned_rows, explanation_facts
from vakt_format.monitoring_reason import MONITORING_TYPE_WORDS, reason_text

TITLE = "Screening case report"
REPORT_NAMESPACE = uuid.UUID("6f1d3c52-2f8e-4a4b-9c1e-5a0d7e3b9a41")
ENTITY_LABELS = {"person": "Register person", "customer_person": "Customer person", "company": "Company"}


def case_report_uuid(case) -> uuid.UUID:
    return uuid.uuid5(REPORT_NAMESPACE, f"{case.uuid}:{case.latest_review_id or 'no-review'}")


def case_report_render(*, case, monitorings: list, organisation_name: str, now: datetime | None = None) -> bytes:
    """`case` with its relations read (case_selectors.case_get); `monitorings`: the config's
    monitorings of the case's entity that are not removed."""
    local = timezone.localtime(now or timezone.now())
    report_uuid = case_report_uuid(case)
    subject = _subject_name(case)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 10 * mm,
        bottomMargin=MARGIN + 4 * mm, title=f"{TITLE}: {subject}", author="Vakt",
        subject=f"{TITLE} for {organisation_name}",
    )
    story = _front(case, subject) + _screened(case, monitorings) + _list_entry(case) + _score(case) + _reviews(case)
    story += [Spacer(1, 6 * mm), para(_note(case), "small")]
    footer = f"Case {case.uuid}  |  Report {report_uuid}  |  Confidential"
    doc.build(story, canvasmaker=canvas_maker((TITLE, organisation_name, local, footer)))
    return buffer.getvalue()


def _subject_name(case) -> str:
    inquiry = case.entity_inquiry
    entity = inquiry.person or inquiry.customer_person or inquiry.company
    return getattr(entity, "full_name", None) or entity.name


def _flags(case) -> str:
    kinds = [label for flag, label in ((case.pep_flag, "PEP"), (case.sanction_flag, "sanctions")) if flag]
    return " and ".join(kinds) or no.DASH


def _latest(case):
    reviews = case.reviews.all()  # prefetched newest first
    return reviews[0] if reviews else None


def _status(case) -> str:
    """The case's status as the dashboard shows it: a closed case with its outcome ("Closed: confirmed hit"),
    an open one with the queue's escalated or proposed badge ("In review · Escalated · needs 2nd officer")."""
    latest = _latest(case)
    latest_key = latest.screening_case_review_status.key if latest else ""
    text = case_status_text(case.case_status_key, latest_key)
    if case.case_status_key == case.Status.COMPLETE or latest is None:
        return text
    four_eyes = case.screening_config.four_eyes_review_flag
    if latest_key == "confirmed_hit" and latest.complete_timestamp is None and four_eyes:
        return f"{text} · {PROPOSAL_WORDS}"
    if latest_key == "escalated":
        return f"{text} · {escalated_words(four_eyes)}"
    return text


def _headline(case) -> str:
    """"Possible sanctions hit on X" until a review closes it: then "Confirmed ..." or "... (false positive)"."""
    latest = _latest(case)
    outcome = latest.screening_case_review_status.key if latest and case.case_status_key == case.Status.COMPLETE else ""
    hit = f"{_flags(case)} hit on {case.list_entry.primary_name}"
    if outcome == "confirmed_hit":
        return f"Confirmed {hit}"
    if outcome == "false_positive":
        return f"Possible {hit}: a false positive"
    return f"Possible {hit}"


def _front(case, subject: str) -> list:
    line = f"{_headline(case)}  |  score {no.decimal(case.score, 2)}"
    return [
        Paragraph(escape(subject), STYLES["title"]),
        para(line, "subtitle"),
        facts([
            ("Case status", _status(case)),
            ("Raised", no.moment(case.created_timestamp)),
            ("Assigned to", case.assignee_app_membership.email if case.assignee_app_membership else "Nobody"),
        ]),
    ]


def _screened(case, monitorings: list) -> list:
    inquiry = case.entity_inquiry
    rows: list[tuple[str, object]] = [("Screened as", ENTITY_LABELS[inquiry.inquiry_entity_key])]
    if inquiry.person:
        person = inquiry.person
        rows += [("Name", person.full_name), ("Birth date", no.day(person.birth_date)),
                 ("Nationality", (person.nationality or "").upper() or no.DASH)]
    elif inquiry.customer_person:
        person = inquiry.customer_person
        countries = sorted({loc.country_code_two for loc in person.locations.all() if loc.country_code_two})
        rows += [("Name", person.full_name), ("Customer reference", person.customer_reference or no.DASH),
                 ("Birth date", no.day(person.birth_date)),
                 ("Nationality", ", ".join(person.nationalities) or no.DASH),  # what the engine weighed
                 ("Countries (locations)", ", ".join(countries) or no.DASH)]
    else:
        company = inquiry.company
        country = company.business_country
        rows += [("Name", company.name), ("Organisation number", f"{company.org_nr_schema} {company.org_nr}"),
                 ("Country", f"{country.name} ({country.key})" if country
                  else f"{company.org_nr_schema} (by its organisation number)" if company.org_nr_schema else no.DASH)]
    story = _kept(section("Screened entity"), facts(rows))
    if monitorings:
        body = [heads("Related company", "Why monitored", "Reason")]
        for m in monitorings:
            company = m.related_company
            body.append([
                para(f"{company.name} ({company.org_nr})" if company else "None: screened as a customer"),
                para(MONITORING_TYPE_WORDS.get(m.entity_monitoring_type.key, m.entity_monitoring_type.key)),
                para(_why(m) or no.DASH),
            ])
        story += [Spacer(1, 2 * mm), *_kept(para("Monitored for", "body"), Spacer(1, 1 * mm),
                                            table(body, [55 * mm, 40 * mm, WIDTH - 95 * mm]))]
    return story


def _why(monitoring) -> str:
    return reason_text(monitoring.monitoring_comment, monitoring.monitoring_origin_key)


def _list_entry(case) -> list:
    entry = case.list_entry
    category = entry.version.category
    version = entry.version
    names = [f"{n['name']} ({n.get('quality') or n.get('kind') or 'name'})" for n in entry.names] or [entry.primary_name]
    rows = [
        ("List", f"{category.name} ({category.list_type})"),
        ("List version", f"{version.number}, imported {no.day(version.imported_at)}"),
        ("Source id", entry.source_id),
        ("Kind", entry.schema),
        ("Primary name", entry.primary_name),
        ("Names and aliases", "; ".join(names)),
        ("Birth dates", ", ".join(no.day(d) if len(d) == 10 else d for d in entry.birth_dates) or no.DASH),
        ("Nationalities", ", ".join(n.upper() for n in entry.nationalities) or no.DASH),
        ("Gender", entry.gender or no.DASH),
        *([("Position", "; ".join(entry.positions) or "not given by the list")]
          if entry.positions or category.list_type == "pep" else []),
        ("Identifiers", "; ".join(identifier_text(**i) for i in entry.identifiers) or no.DASH),
        ("Addresses", "; ".join(entry.addresses) or no.DASH),
        *([("Programme", ", ".join(entry.programmes) or no.DASH)] if entry.programmes or category.list_type != "pep" else []),
        ("Listed", no.day(entry.listed_date) if entry.listed_date else no.DASH),
        ("Source", entry.source_url or no.DASH),
        ("Remarks", entry.remarks or no.DASH),
    ]
    return _kept(section("List entry"), facts(rows))


def _score(case) -> list:
    e = case.explanation or {}
    story = _kept(section("Score and explanation"), facts([("Score", no.decimal(case.score, 2)), *explanation_facts(e)]))
    aligned = aligned_rows(e)
    if aligned:
        body = [heads("Screened name part", "Listed name part", "Similarity", "Why alike", right=(2,))]
        body += [[para(query), para(listed), num(similarity), para(why)] for query, listed, similarity, why in aligned]
        story += [Spacer(1, 2 * mm), *_kept(para("Aligned name parts", "body"), Spacer(1, 1 * mm),
                                            table(body, [55 * mm, 55 * mm, 25 * mm, WIDTH - 135 * mm]))]
    return story


def _reviews(case) -> list:
    reviews = list(case.reviews.all())  # prefetched newest first
    if not reviews:
        return _kept(section("Review history"), para("No review yet.", "body"))
    body = [heads("Time", "Reviewer", "Status", "Match decision", "PEP confirmed", "Comment")]
    for r in reviews:
        body.append([
            para(no.moment(r.created_timestamp)),
            para(r.reviewer_app_membership.email if r.reviewer_app_membership else no.DASH),
            para(_review_status(r, awaiting=r is reviews[0] and case.case_status_key != case.Status.COMPLETE)),
            para(_words(r.entity_match_decision_type.key)),
            para("Yes" if r.pep_confirmed_flag else "No"),
            para(r.screening_case_review_comment or no.DASH),
        ])
    widths = [22 * mm, 34 * mm, 28 * mm, 20 * mm, 18 * mm]
    return _kept(section("Review history (newest first)"), table(body, widths + [WIDTH - sum(widths)]))


def _kept(*flowables) -> list:
    """A heading with what follows it on one page: a heading alone at a page's foot (with a table's first
    row) reads as a section that ends there. A table longer than a page still splits, its header repeated."""
    return [KeepTogether(list(flowables))]


def _review_status(review, *, awaiting: bool) -> str:
    """A confirmed hit that did not complete the case was a four-eyes proposal: the filed copy says
    so, and while it is the case's latest review (`awaiting`), that it waits for a second officer."""
    words = _words(review.screening_case_review_status.key)
    if review.screening_case_review_status.key == "confirmed_hit" and review.complete_timestamp is None:
        return f"{words} (proposal{', awaiting a second officer' if awaiting else ''})"
    return words


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _note(case) -> str:
    return (
        "The score is the matching engine's, as computed when the case was raised; the list entry is the one "
        f"the case was raised on (content hash {case.list_content_hash[:12]}). A possible hit is not a finding: "
        "the review history records the organisation's decision."
    )
