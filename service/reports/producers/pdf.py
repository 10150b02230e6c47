"""The built-in producer: renders the report as a PDF with reportlab.

Layout only: the facts come from content.py. Every page carries a header with the
report, the ordering organisation and the date, and a footer "Page n of m"
(service.pdf_style.NumberedCanvas counts the pages before writing them).
"""

from __future__ import annotations

import io

from django.utils import timezone
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, TableStyle
from xml.sax.saxutils import escape

from vakt_format import norwegian as no
from vakt_format.credit_factors import factor_band, factor_label, factor_value
from vakt_format.flag_evidence import evidence_lines
from service.reports.content import ReportContent, report_content_gather
from service.reports.producers import ProducedFile
from service.pdf_style import ACCENT, INK, MARGIN, MUTED, RULE, STYLES, WIDTH, canvas_maker
from service.pdf_style import heads as _heads
from service.pdf_style import num as _n
from service.pdf_style import para as _p
from service.pdf_style import section as _section
from service.pdf_style import table as _table

TITLES = {
    "company_profile": "Company profile",
    "credit_report": "Credit report",
    "ownership_report": "Ownership report",
}
CLASS_COLOURS = {
    "very_low": "#2f855a", "low": "#38a169", "medium": "#d69e2e", "high": "#dd6b20", "very_high": "#c53030",
}
ROLE_LABELS = {
    "board_chair": "Chair of the board",
    "board_member": "Board member",
    "deputy_board_member": "Deputy board member",
    "ceo": "CEO (daglig leder)",
    "signature_right": "Signature right",
    "procuration": "Procuration (prokura)",
    "shareholder": "Shareholder",
    "auditor": "Auditor",
}


class PdfReportProducer:
    content_type = "application/pdf"

    def produce(self, report) -> ProducedFile:
        order = report.order
        content = report_content_gather(
            company=report.company,
            report_type_key=report.report_type.key,
            granted_roles=frozenset(order.granted_role_keys),
            ordered_by=order.app_customer.name,
            ordered_at=order.create_timestamp,
            report_uuid=report.uuid,
        )
        return ProducedFile(content=render(content), content_type=self.content_type)


def render(content: ReportContent) -> bytes:
    buffer = io.BytesIO()
    title = TITLES[content.report_type_key]
    doc = SimpleDocTemplate(
        buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN + 10 * mm,
        bottomMargin=MARGIN + 4 * mm, title=f"{title}: {content.company['name']}", author="Vakt",
        subject=f"{title} ordered by {content.ordered_by}",
    )
    story = _front(content, title)
    if content.report_type_key in ("company_profile", "credit_report"):
        story += _credit_risk(content) + _flags(content) + _key_figures(content)
    if content.report_type_key == "credit_report":
        story += _payment_remarks(content) + _collection_cases(content)
    if content.report_type_key == "ownership_report":
        story += _roles(content) + _ownership(content) + _beneficial_owners(content)
    story += [Spacer(1, 6 * mm), Paragraph(_sources_note(content), STYLES["small"])]

    local = timezone.localtime(content.ordered_at)

    footer = f"Report {content.report_uuid}  |  Confidential: for the ordering organisation's files"
    doc.build(story, canvasmaker=canvas_maker((title, f"Ordered by {content.ordered_by}", local, footer)))
    return buffer.getvalue()


# --- sections -----------------------------------------------------------------------------------


def _spaced(org_nr: str) -> str:
    """913748174 -> 913 748 174, as Norwegians write organisation numbers."""
    return no.NBSP.join(org_nr[i : i + 3] for i in range(0, len(org_nr), 3)) if org_nr.isdigit() else org_nr


def _org_nr(company: dict) -> str:
    return f"{company['org_nr_schema']} {_spaced(company['org_nr'])}"


def _front(content: ReportContent, title: str) -> list:
    company = content.company
    org_type = company["organization_type"]
    subtitle = [f"Org. nr. {_org_nr(company)}"]
    if org_type:
        subtitle.append(f"{org_type['name']} ({org_type['code']})")
    story = [Paragraph(escape(company["name"]), STYLES["title"]), _p("  |  ".join(subtitle), "subtitle")]
    address = next((a for a in company["addresses"] if a["address_type_key"] == "business"), None)
    statuses = [
        f"{s['company_risk_status_type_description']} since {no.day(s['from_date'])}"
        for s in company["company_risk_statuses"]
    ]
    facts = [
        ("Organisation number", _org_nr(company)),
        ("Organisation form", f"{org_type['name']} ({org_type['code']})" if org_type else no.DASH),
        ("Industry (NACE)", "; ".join(f"{n['code']} {n['name']}" for n in company["nace_codes"]) or no.DASH),
        ("Business address", _address_text(address)),
        ("Registered", no.day(company["registration_date"])),
        ("Founded", no.day(company["founded_date"])),
        ("Employees", no.amount(company["employees"])),
        ("Latest accounts filed", company["last_submitted_accounts_year"] or no.DASH),
        ("Register status", "; ".join(statuses) if statuses else "Active, no register events"),
    ]
    story.append(_section("Register facts"))
    story.append(_table([[_p(k), _p(v)] for k, v in facts], [48 * mm, WIDTH - 48 * mm], header=False))
    return story


def _address_text(address: dict | None) -> str:
    if not address:
        return no.DASH
    parts = [address["address"]]
    postal = address["geo_postal_code"]
    if postal:
        parts.append(f"{postal['code']} {postal['place_name'] or ''}".strip())
    municipality = address["geo_municipality"]
    if municipality and municipality["name"].upper() != (postal or {}).get("place_name", "").upper():
        parts.append(f"{municipality['name']} municipality")
    return ", ".join(p for p in parts if p) or no.DASH


def _credit_risk(content: ReportContent) -> list:
    story = [_section("Credit risk")]
    risk = content.credit_risk
    if risk is None:
        return story + [_p("The company has not been scored yet.", "body")]
    risk_class = risk["risk_class"]
    colour = CLASS_COLOURS.get(risk_class, "#616e7c")
    label = risk_class.replace("_", " ").capitalize()
    story.append(
        Paragraph(
            f'Risk score <b>{escape(no.decimal(risk["risk_score"], 1))}</b> of 100 (higher is riskier); '
            f'risk class <font color="{colour}"><b>{escape(label)}</b></font>. '
            f"Model {escape(risk['model_version'])}, computed {escape(no.day(risk['computed_at']))}.",
            STYLES["body"],
        )
    )
    story.append(Spacer(1, 2 * mm))
    rows = [_heads("Factor", "Input", "Band", "Points", right=(3,))]
    for factor in risk["factors"]:
        rows.append([
            _p(factor_label(factor["key"])),
            _p(factor_value(factor["key"], factor["value"])),
            _p(factor_band(factor["key"], factor["band"])),
            _n(f"{factor['points']:+d}" if factor["points"] else "0"),
        ])
    story.append(_table(rows, [50 * mm, 45 * mm, WIDTH - 115 * mm, 20 * mm]))
    if not content.with_credit_check:
        story.append(Spacer(1, 1.5 * mm))
        story.append(_p(
            "Payment remarks are not shown, and the score and class are computed without them: "
            "the report was ordered without the credit_check role.",
            "small",
        ))
    return story


def _flags(content: ReportContent) -> list:
    story = [_section("Active flags")]
    if not content.flags:
        return story + [_p("No active flags.", "body")]
    rows = [_heads("Flag", "Since", "Evidence")]
    for flag in content.flags:
        rows.append([
            Paragraph(f"<b>{escape(flag['key'].replace('_', ' ').capitalize())}</b><br/>{escape(flag['description'])}",
                      STYLES["cell"]),
            _p(no.day(flag["flag_date"])),
            _p(" ".join(evidence_lines(flag["key"], flag["context"])) or no.DASH),
        ])
    story.append(_table(rows, [70 * mm, 22 * mm, WIDTH - 92 * mm]))
    return story


KEY_FIGURE_ROWS = (
    ("Total operating income", "total_operating_income", no.amount),
    ("Operating result", "operating_result", no.amount),
    ("Annual result", "annual_result", no.amount),
    ("Total assets", "total_assets", no.amount),
    ("Total equity", "total_equity", no.amount),
    ("Equity ratio", "equity_ratio", no.percent),
    ("Return on assets", "return_on_assets", no.percent),
    ("Operating margin", "operating_margin", no.percent),
)


def _key_figures(content: ReportContent) -> list:
    story = [_section("Key figures (company accounts, NOK)")]
    years = content.key_figures
    if not years:
        return story + [_p("No annual accounts are registered.", "body")]
    label_width = 48 * mm
    year_width = (WIDTH - label_width) / len(years)
    rows = [[_p("")] + [Paragraph(f"<b>{y.year}</b>", STYLES["num"]) for y in years]]
    for label, attribute, fmt in KEY_FIGURE_ROWS:
        rows.append([_p(label)] + [_n(fmt(getattr(y, attribute))) for y in years])
    heading = story.pop()
    story.append(KeepTogether([heading, _table(rows, [label_width] + [year_width] * len(years))]))
    story.append(Spacer(1, 3 * mm))
    story.append(KeepTogether([_chart(years)]))
    return story


def _chart(years) -> Drawing:
    height = 62 * mm
    drawing = Drawing(WIDTH, height)
    chart = VerticalBarChart()
    chart.x, chart.y = 22 * mm, 12 * mm
    chart.width, chart.height = WIDTH - 60 * mm, height - 22 * mm
    income = [float(y.total_operating_income or 0) for y in years]
    result = [float(y.annual_result or 0) for y in years]
    chart.data = [income, result]
    chart.categoryAxis.categoryNames = [str(y.year) for y in years]
    chart.categoryAxis.labels.fontName = "Helvetica"
    chart.categoryAxis.labels.fontSize = 7.5
    chart.valueAxis.labels.fontName = "Helvetica"
    chart.valueAxis.labels.fontSize = 7.5
    chart.valueAxis.labelTextFormat = _axis_label
    low = min(income + result + [0])
    chart.valueAxis.valueMin = low * 1.15 if low < 0 else 0
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = RULE
    chart.valueAxis.gridStrokeWidth = 0.3
    chart.bars[0].fillColor = ACCENT
    chart.bars[1].fillColor = colors.HexColor("#7fb3d5")
    chart.bars.strokeColor = None
    chart.groupSpacing = 8
    drawing.add(chart)
    legend = Legend()
    legend.x, legend.y = WIDTH - 34 * mm, height - 14 * mm
    legend.fontName, legend.fontSize = "Helvetica", 7.5
    legend.boxAnchor = "nw"
    legend.colorNamePairs = [(ACCENT, "Operating income"), (colors.HexColor("#7fb3d5"), "Annual result")]
    drawing.add(legend)
    drawing.add(String(0, height - 4 * mm, "Operating income and annual result (million NOK)", fontName="Helvetica-Bold",
                       fontSize=8, fillColor=INK))
    return drawing


def _axis_label(value: float) -> str:
    millions = value / 1_000_000
    return no.decimal(millions, 0 if abs(millions - round(millions)) < 1e-9 else 1)


def _payment_remarks(content: ReportContent) -> list:
    story = [_section("Payment remarks")]
    remarks = content.payment_remarks or []
    if not remarks:
        return story + [_p("No payment remarks are registered.", "body")]
    unsettled = [r for r in remarks if not r["settled_flag"]]
    story.append(_p(
        f"{len(remarks)} remark(s), {len(unsettled)} unsettled, unsettled amount "
        f"{no.kroner(sum(r['amount'] for r in unsettled))}.", "body"))
    story.append(Spacer(1, 2 * mm))
    rows = [_heads("Registered", "Type", "Creditor", "Amount", "Settled", right=(3, 4))]
    for r in remarks:
        rows.append([_p(no.day(r["registered_date"])), _p(r["remark_type"].replace("_", " ")), _p(r["creditor_name"]),
                     _n(no.kroner(r["amount"])), _n(no.day(r["settled_date"]) if r["settled_date"] else "unsettled")])
    story.append(_table(rows, [24 * mm, 32 * mm, WIDTH - 102 * mm, 26 * mm, 20 * mm]))
    return story


def _collection_cases(content: ReportContent) -> list:
    story = [_section("Collection cases")]
    cases = content.collection_cases or []
    if not cases:
        return story + [_p("No collection cases are registered.", "body")]
    rows = [_heads("Opened", "Creditor", "Reference", "Amount", "Status", "Closed", right=(3,))]
    for c in cases:
        rows.append([_p(no.day(c["opened_date"])), _p(c["creditor_name"]), _p(c["case_reference"] or no.DASH),
                     _n(no.kroner(c["amount"])), _p(c["status"].replace("_", " ")), _p(no.day(c["closed_date"]))])
    table = _table(rows, [22 * mm, WIDTH - 130 * mm, 28 * mm, 26 * mm, 30 * mm, 24 * mm])
    table.setStyle(TableStyle([("LEFTPADDING", (4, 0), (4, -1), 12)]))
    story.append(table)
    return story


def _roles(content: ReportContent) -> list:
    story = [_section("Roles")]
    if not content.roles:
        return story + [_p("No roles are registered.", "body")]
    rows = [_heads("Role", "Holder", "Share", "Since", right=(2, 3))]
    for role in content.roles:
        rows.append([_p(ROLE_LABELS.get(role["role"], role["description"])),
                     _p(role["holder"] + (f" ({_spaced(role['holder_org_nr'])})" if role["holder_org_nr"] else "")),
                     _n(no.percent(role["share"]) if role["share"] is not None else ""), _n(no.day(role["from_date"]))])
    story.append(_table(rows, [60 * mm, WIDTH - 118 * mm, 28 * mm, 30 * mm]))
    return story


def _ownership(content: ReportContent) -> list:
    story = [_section("Ownership structure")]
    if not content.ownership:
        return story + [_p("No shareholders are registered.", "body")]
    story.append(_p("Shareholders above the company, through holding companies; the last column multiplies "
                    "the shares along the chain.", "small"))
    story.append(Spacer(1, 1.5 * mm))
    rows = [_heads("Shareholder", "Owns", "Share", "Along the chain", right=(2, 3))]
    for link in content.ownership:
        indent = "&nbsp;" * 4 * (link.depth - 1)
        who = escape(link.holder_name) + (f" ({escape(_spaced(link.holder_org_nr))})" if link.holder_org_nr else " (person)")
        rows.append([Paragraph(indent + ("" if link.depth == 1 else "&gt; ") + who, STYLES["cell"]), _p(link.owned_name),
                     _n(no.percent(link.share)), _n(no.percent(link.effective_share))])
    story.append(_table(rows, [WIDTH - 110 * mm, 55 * mm, 22 * mm, 33 * mm]))
    return story


def _beneficial_owners(content: ReportContent) -> list:
    section = content.beneficial_owners
    story = [_section(section.heading), _p(section.note, "small"), Spacer(1, 1.5 * mm)]
    if not section.owners:
        return story + [_p("None found.", "body")]
    rows = [_heads("Person", "Share", "Through")]
    for owner in section.owners:
        rows.append([_p(owner.full_name), _p(no.percent(owner.effective_share)), _p("; ".join(owner.chains) or "directly")])
    story.append(_table(rows, [60 * mm, 24 * mm, WIDTH - 84 * mm]))
    return story


def _sources_note(content: ReportContent) -> str:
    analysis = [part for part, shown in (("credit risk model", content.credit_risk), ("flags", content.flags)) if shown]
    own = f", and Vakt's own analysis ({' and '.join(analysis)})" if analysis else ""  # only what the report holds
    return escape(
        f"Sources: the Brønnøysund registers as held by Vakt{own}. "
        f"Generated {no.moment(timezone.now())} for {content.ordered_by}."
    )
