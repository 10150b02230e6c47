"""The house PDF style (reportlab), shared by the company reports and the screening case
reports: colours, paragraph styles, striped tables, section headings, and a canvas that
writes a header and "Page n of m" on every page (it keeps the pages until the end so it
knows m). Numbers and dates go through vakt_format.norwegian.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import Paragraph, Table, TableStyle

from vakt_format import norwegian as no

INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
RULE = colors.HexColor("#cbd2d9")
STRIPE = colors.HexColor("#f5f7fa")
ACCENT = colors.HexColor("#1d4e89")
MARGIN = 18 * mm
WIDTH = A4[0] - 2 * MARGIN

_base = getSampleStyleSheet()
STYLES = {
    "title": ParagraphStyle("title", parent=_base["Title"], fontName="Helvetica-Bold", fontSize=18, leading=22,
                            alignment=0, textColor=INK, spaceAfter=2),
    "subtitle": ParagraphStyle("subtitle", parent=_base["Normal"], fontSize=10, leading=13, textColor=MUTED,
                               spaceAfter=8),
    "h2": ParagraphStyle("h2", parent=_base["Heading2"], fontName="Helvetica-Bold", fontSize=12, leading=15,
                         textColor=ACCENT, spaceBefore=10, spaceAfter=4),
    "body": ParagraphStyle("body", parent=_base["Normal"], fontSize=9, leading=12, textColor=INK),
    "small": ParagraphStyle("small", parent=_base["Normal"], fontSize=8, leading=10, textColor=MUTED),
    "cell": ParagraphStyle("cell", parent=_base["Normal"], fontSize=8.5, leading=10.5, textColor=INK),
    "num": ParagraphStyle("num", parent=_base["Normal"], fontSize=8.5, leading=10.5, textColor=INK, alignment=TA_RIGHT),
}


def para(text, style: str = "cell") -> Paragraph:
    """Plain text (escaped) in one of STYLES."""
    return Paragraph(escape(str(text)), STYLES[style])


def num(text) -> Paragraph:
    return Paragraph(escape(str(text)), STYLES["num"])


def heads(*names: str, right: tuple[int, ...] = ()) -> list[Paragraph]:
    """Column heads; those at the indexes in `right` are right-aligned over numbers."""
    return [Paragraph(f"<b>{escape(name)}</b>", STYLES["num" if i in right else "cell"]) for i, name in enumerate(names)]


def section(title: str) -> Paragraph:
    return Paragraph(escape(title), STYLES["h2"])


def table(rows: list[list], widths: list[float], *, header: bool = True, zebra: bool = True) -> Table:
    result = Table(rows, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
    style = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 4),
        ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, RULE),
    ]
    if header:
        style += [("LINEBELOW", (0, 0), (-1, 0), 0.8, INK), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]
    if zebra:
        first = 1 if header else 0
        style += [("BACKGROUND", (0, r), (-1, r), STRIPE) for r in range(first + 1, len(rows), 2)]
    result.setStyle(TableStyle(style))
    return result


def facts(pairs: list[tuple[str, object]], label_width: float = 48 * mm) -> Table:
    """A two-column table of label and value, no header."""
    return table([[para(k), para(v)] for k, v in pairs], [label_width, WIDTH - label_width], header=False)


class NumberedCanvas(pdfcanvas.Canvas):
    """Keeps every page until the end, so the footer can say "Page 1 of 3".

    `header`: (title, organisation line, local datetime, footer text)."""

    def __init__(self, *args, header, **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []
        self._header = header

    def showPage(self):
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._decorate(number, total)
            super().showPage()
        super().save()

    def _decorate(self, number: int, total: int) -> None:
        title, organisation_line, when, footer = self._header
        width, height = A4
        top = height - MARGIN + 2 * mm
        self.setFillColor(ACCENT)
        self.setFont("Helvetica-Bold", 10)
        self.drawString(MARGIN, top, f"Vakt  |  {title}")
        self.setFillColor(MUTED)
        self.setFont("Helvetica", 8)
        self.drawRightString(width - MARGIN, top + 1, organisation_line)
        self.drawRightString(width - MARGIN, top - 9, no.moment(when))
        self.setStrokeColor(RULE)
        self.setLineWidth(0.6)
        self.line(MARGIN, top - 13, width - MARGIN, top - 13)
        bottom = MARGIN - 2 * mm
        self.line(MARGIN, bottom + 10, width - MARGIN, bottom + 10)
        self.drawString(MARGIN, bottom, footer)
        self.drawRightString(width - MARGIN, bottom, f"Page {number} of {total}")


def canvas_maker(header: tuple):
    def make(*args, **kwargs):
        return NumberedCanvas(*args, header=header, **kwargs)

    return make
