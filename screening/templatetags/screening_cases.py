"""Words of the case pages: list categories by the names officers use."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from portal import formatting as fmt
from vakt_format.case_status import case_outcome_title, case_status_text, case_status_title, case_status_word
from vakt_format.match_explanation import adjustment_verdict as _adjustment_verdict

register = template.Library()


@register.filter
def adjustment_verdict(value) -> str:
    """"agrees", "differs" or "" for an adjustment of the score (vakt_format.match_explanation's rule)."""
    return _adjustment_verdict(value)

LIST_NAMES = {
    "un_security_council": "UN Security Council",
    "us_ofac_sdn": "OFAC SDN",
    "eu_financial_sanctions": "EU financial sanctions",
    "pep": "PEP list",
}


@register.filter
def list_name(category_key: str) -> str:
    """A screening list category's short name: "un_security_council" -> "UN Security Council"."""
    return LIST_NAMES.get(category_key) or fmt.key_words(category_key)


STATUS_CSS = {"pending": "case-pending", "ongoing": "case-ongoing", "complete": "case-complete"}


@register.filter
def status_badge(status_key: str) -> str:
    """A case status as a badge, in the words of every page (vakt_format.case_status), the API's key in
    its tooltip (a filter, not an include: the queue shows fifty a page)."""
    css = STATUS_CSS.get(status_key, "text-bg-light border")
    return format_html('<span class="badge {}" title="{}">{}</span>', css, case_status_title(status_key), case_status_word(status_key))


@register.filter
def case_status_badge(case) -> str:
    """A case's status badge with a closed case's outcome, its latest review ("Closed: confirmed hit",
    "Closed: false positive"): a confirmed sanction hit must not read like a false positive."""
    latest = case.latest_review.status_key if case.latest_review else ""
    css = STATUS_CSS.get(case.status_key, "text-bg-light border")
    return format_html('<span class="badge {}" title="{}">{}</span>', css,
                       case_outcome_title(case.status_key, latest), case_status_text(case.status_key, latest))


@register.filter
def hit_badges(case) -> str:
    """Sanction and PEP badges of a case."""
    parts = []
    if case.sanction:
        parts.append(format_html('<span class="badge hit-sanction me-1" title="{}">Sanction</span>', "Listed on a sanction list"))
    if case.pep:
        parts.append(format_html('<span class="badge hit-pep" title="{}">PEP</span>', "Politically exposed person"))
    return mark_safe("".join(parts))  # each part escaped by format_html
