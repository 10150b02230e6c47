"""The dashboard's template filters: one set for every page. Numbers follow the Norwegian rules of
`vakt_format.norwegian` (shared with the PDF reports); words come from portal/formatting.py."""

from django import template
from django.utils import timezone

from portal import formatting as fmt

register = template.Library()


@register.filter
def key_label(value) -> str:
    """A machine key as words: "very_low" -> "Very low"."""
    return fmt.key_words(value)


@register.filter
def member_label(member) -> str:
    """A dashboard member by their email (portal.formatting.member_label)."""
    return fmt.member_label(member)


@register.filter
def plain(value) -> str:
    """A value the service recorded, for reading: lists joined, yes/no, a dash for nothing."""
    return fmt.recorded_text(value)


@register.filter
def number(value, places=0) -> str:
    """1234567 -> "1 234 567"; with places, a decimal comma: 1.5|number:2 -> "1,50"."""
    return fmt.decimal(value, int(places))


@register.filter
def kr(value) -> str:
    """An amount in kroner without stray decimals: "184 500 kr"."""
    return fmt.kroner(value)


@register.filter
def pct(value) -> str:
    """A ratio as a percentage with one decimal: 0.416 -> "41,6 %"."""
    return fmt.percent(value)


@register.filter
def day(value) -> str:
    """A date as dd.mm.yyyy; a moment on this deployment's calendar (a flag raised at midnight in Oslo
    is that day, not the day before in UTC)."""
    return fmt.day(value)


@register.filter
def moment(value) -> str:
    """A moment as date and time on this deployment's clock: "26.11.2026 11:25"."""
    return fmt.moment(value)


@register.filter
def past(value) -> bool:
    """True for a moment that has gone by (a deletion date that has come); False for none."""
    return value is not None and value <= timezone.now()


@register.filter
def why(monitoring) -> str:
    """Why a monitoring exists: the service's reason with Norwegian percentages ("Owns 31,0 % of ..."),
    or the comment as a person typed it; a dash for none."""
    return fmt.monitoring_why(monitoring)


@register.filter
def size(value) -> str:
    """A file's size with a decimal comma: 6042 -> "5,9 kB"."""
    return fmt.file_size(value)


@register.filter
def measure(value, unit) -> str:
    """A measure's value by its unit (ratio, NOK, count)."""
    return fmt.measure_value(value, unit)


@register.filter
def factor_label(factor) -> str:
    return fmt.factor_label(factor.key)


@register.filter
def factor_value(factor) -> str:
    return fmt.factor_value(factor.key, factor.value)


@register.filter
def factor_band(factor) -> str:
    return fmt.factor_band(factor.key, factor.band)


@register.filter
def points(value) -> str:
    """Score points with their sign: "+12", "-5", "0"."""
    return f"{value:+d}" if value else "0"


@register.filter
def evidence(flag, credit_risk=None) -> list[str]:
    """A flag's evidence as sentences; with the payment remarks the role lets the page show."""
    remarks = getattr(credit_risk, "payment_remarks", ()) or ()
    return fmt.evidence_lines(flag.key, flag.evidence, remarks)
