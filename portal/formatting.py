"""What the dashboard shows for numbers, score factors and flag evidence, in words and Norwegian format.

The rules are `vakt_format` (numbers, the score's factors, flag evidence), the modules the
service's PDF reports use too, so a figure reads the same on the page and in the report
("10 000 000", "41,6 %", "184 500 kr").
The template filters in portal/templatetags/vakt.py are thin wrappers around these functions.
"""

from __future__ import annotations

from datetime import date

from vakt_format.credit_factors import factor_band, factor_label, factor_value, key_words
from vakt_format.flag_evidence import evidence_lines
from vakt_format.monitoring_reason import reason_text
from vakt_format.norwegian import DASH, NBSP, amount, day, decimal, file_size, kroner, moment, percent

__all__ = [
    "DASH", "NBSP", "amount", "day", "decimal", "file_size", "kroner", "moment", "percent",
    "measure_value", "monitoring_why", "recorded_text", "factor_label", "factor_value", "factor_band", "evidence_lines", "key_words",
    "member_label",
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
    """Why a person or company is monitored (vakt_format.monitoring_reason); a dash for none."""
    return reason_text(monitoring.comment, monitoring.origin_key) if monitoring.comment else DASH


def member_label(member) -> str:
    """How a dashboard member is named wherever the dashboard names one (an assignee, a colleague to hand a
    case to, a reviewer, who ordered a report): the login's email, in lower case, as the service keeps it and
    names its reviewers and assignees (a review's `screening_case_reviewer_email`, the case report). A login
    name alone ("admin") says nothing in an audit trail; the email is unambiguous. The login name when the
    login has no email; a dash for no member."""
    if member is None:
        return DASH
    user = getattr(member, "user", member)  # a Member, or the User itself
    return (user.email or "").strip().lower() or user.get_username()


def recorded_text(value) -> str:
    """A value the service recorded (an audit record's field), for reading: lists joined, yes/no,
    amounts grouped (years left alone), days as the dashboard writes them, a dash for nothing."""
    if value is None or value == "" or value == []:
        return DASH
    if isinstance(value, str) and (named := _iso_day(value)):
        return day(named)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    if isinstance(value, (int, float)) and abs(value) >= 10_000:
        return amount(value)
    return str(value)


def _iso_day(text: str) -> date | None:
    """The day a "YYYY-MM-DD" names (a birth date, the day a relationship ended), else None."""
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None
