"""What the dashboard shows for numbers, score factors and flag evidence, in words and Norwegian format.

The rules are `vakt_format` (numbers, the score's factors, flag evidence), the modules the
service's PDF reports use too, so a figure reads the same on the page and in the report
("10 000 000", "41,6 %", "184 500 kr").
The template filters in portal/templatetags/vakt.py are thin wrappers around these functions.
"""

from __future__ import annotations

from vakt_format.credit_factors import factor_band, factor_label, factor_value, key_words
from vakt_format.flag_evidence import evidence_lines
from vakt_format.norwegian import DASH, NBSP, amount, day, decimal, file_size, kroner, moment, percent, percents_in_text

__all__ = [
    "DASH", "NBSP", "amount", "day", "decimal", "file_size", "kroner", "moment", "percent", "percents_in_text",
    "measure_value", "monitoring_why", "factor_label", "factor_value", "factor_band", "evidence_lines", "key_words",
]


def measure_value(value, unit: str) -> str:
    """A benchmark or accounts figure by its unit: ratio as percent, NOK as kroner, count whole."""
    if value is None:
        return DASH
    if unit == "ratio":
        return percent(value)
    if unit == "NOK":
        return kroner(value)
    if unit == "count":
        return amount(value)
    return decimal(value, 2)


def monitoring_why(monitoring) -> str:
    """Why a person or company is monitored. The service's reason for a suggestion is an API value in
    English ("Owns 31.0% of Nordlys AS directly"): the page shows its percentages the Norwegian way,
    as beside them in the Share column ("31,0 %"). A comment a person typed is shown as typed."""
    comment = monitoring.comment
    if not comment:
        return DASH
    return percents_in_text(comment) if monitoring.comment_by_service else comment
