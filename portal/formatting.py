"""What the dashboard shows for numbers, score factors and flag evidence, in words and Norwegian format.

The number rules are `vakt_format.norwegian`, the module the service's PDF reports use too,
so a figure reads the same on the page and in the report ("10 000 000", "41,6 %", "184 500 kr").
The words for factors and evidence follow the PDF's (service/reports/producers/pdf.py).
The template filters in portal/templatetags/vakt.py are thin wrappers around these functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from vakt_format.norwegian import DASH, NBSP, amount, day, decimal, kroner, percent

__all__ = [
    "DASH", "NBSP", "amount", "day", "decimal", "kroner", "percent",
    "measure_value", "factor_label", "factor_value", "factor_band", "evidence_lines", "key_words",
]

FACTOR_LABELS = {
    "intercept": "Base points",
    "equity_ratio": "Equity ratio",
    "return_on_assets": "Return on assets",
    "current_ratio": "Current ratio",
    "operating_margin": "Operating margin",
    "total_assets": "Total assets",
    "employees": "Employees",
    "company_age_years": "Company age",
    "unsettled_payment_remarks_count": "Unsettled payment remarks",
    "unsettled_payment_remarks_amount": "Unsettled remarks, amount",
    "negative_equity": "Negative equity",
    "missing_accounts": "Missing accounts",
    "auditor_note": "Auditor's note",
    "risk_status": "Register status",
}
PERCENT_FACTORS = ("equity_ratio", "return_on_assets", "operating_margin")
MONEY_FACTORS = ("total_assets", "unsettled_payment_remarks_amount")
NO_INPUT_IS_NORMAL = ("missing_accounts", "auditor_note", "risk_status", "intercept")


def key_words(value) -> str:
    """A machine key as words: "going_concern" -> "Going concern"."""
    text = str(value or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


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


# --- the credit score's factors -------------------------------------------------------------------


def factor_label(key: str) -> str:
    return FACTOR_LABELS.get(key) or key_words(key)


def factor_value(key: str, value) -> str:
    if value is None or value == [] or value == "":
        return DASH if key in NO_INPUT_IS_NORMAL else "missing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v).replace("_", " ") for v in value)
    if key in PERCENT_FACTORS:
        return percent(value)
    if key in MONEY_FACTORS:
        return kroner(value)
    if key == "current_ratio":
        return decimal(value, 2)
    if key == "company_age_years":
        return f"{decimal(value, 1)} years"
    if key == "missing_accounts":
        return f"accounts for {value}"
    if _is_number(value):
        return amount(value)
    return str(value).replace("_", " ")


def factor_band(key: str, band: str | None) -> str:
    """The model's band label (">= 0.4", "1e+07 to < 1e+08") in words and Norwegian numbers."""
    if not band:
        return ""

    def fmt(raw: str) -> str:
        number = float(raw)
        if key in PERCENT_FACTORS:
            return percent(number)
        if key in MONEY_FACTORS:
            return kroner(number)
        return decimal(number, 0 if number == int(number) else 1)

    if match := re.fullmatch(r">= (\S+)", band):
        return f"{fmt(match[1])} or more"
    if match := re.fullmatch(r"< (\S+)", band):
        return f"below {fmt(match[1])}"
    if match := re.fullmatch(r"(\S+) to < (\S+)", band):
        return f"{fmt(match[1])} to below {fmt(match[2])}"
    return band.replace("_", " ")


# --- flag evidence ----------------------------------------------------------------------------------

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
EVENT_WORDS = {
    "bankrupt": "bankruptcy",
    "forced_dissolution": "forced dissolution",
    "adverse_opinion": "adverse auditor's opinion",
    "disclaimer_of_opinion": "auditor's disclaimer of opinion",
    "going_concern": "auditor's doubt about going concern",
}
CHANGED_FIGURES = {
    "total_operating_income": "total operating income",
    "result_before_tax": "result before tax",
    "total_assets": "total assets",
    "total_equity": "total equity",
}


def _generic(context: Mapping[str, Any]) -> list[str]:
    """Any other evidence, key by key, like the PDF: amounts in kroner, dates as dd.mm.yyyy."""
    lines = []
    for key, value in context.items():
        if key.endswith("uuid") or value in (None, "", [], {}):
            continue
        if _is_number(value) and ("amount" in key or "equity" in key):
            text = kroner(value)
        elif key.endswith("date") or (isinstance(value, str) and _ISO_DAY.fullmatch(value)):
            text = day(value)
        elif isinstance(value, float):
            text = decimal(value, 1)
        elif isinstance(value, dict):
            continue
        else:
            text = str(value).replace("_", " ")
        lines.append(f"{key_words(key)}: {text}")
    return lines


def _changes(changes: Mapping[str, Any]) -> list[str]:
    lines = []
    for name, change in changes.items():
        if not isinstance(change, Mapping):
            continue
        ratio = change.get("change_ratio")
        moved = f" ({percent(ratio)} change)" if ratio is not None else ""
        lines.append(
            f"{CHANGED_FIGURES.get(name, name.replace('_', ' ')).capitalize()}: "
            f"{kroner(change.get('before'))} → {kroner(change.get('after'))}{moved}"
        )
    return lines


def evidence_lines(key: str, context: Mapping[str, Any] | Iterable, remarks: Iterable = ()) -> list[str]:
    """A flag's evidence as sentences an officer reads. `remarks` are the payment remarks the
    caller may see (none without credit_check): their creditors and amounts are named."""
    context = dict(context)
    year = context.get("accounting_year")
    if key == "missing_accounts" and "due_year" in context:
        last = context.get("last_accounts_year")
        lines = [f"No accounts filed for {context['due_year']} (deadline {day(context.get('deadline'))})."]
        lines.append(f"Last accounts filed: {last}." if last else "No accounts filed for any year.")
        return lines
    if key == "negative_total_equity" and "total_equity" in context:
        return [f"Total equity {kroner(context['total_equity'])} in the {year} accounts."]
    if key == "going_concern_doubt":
        note = context.get("auditor_note") or ""
        return [f"Auditor's note on the {year} accounts{': ' + note if note else '.'}"]
    if key in ("bankrupt", "forced_dissolution", "under_liquidation") and "from_date" in context:
        return [f"In the register since {day(context['from_date'])}."]
    if key.startswith("replaced_unaudited_accounts") and "announcement_date" in context:
        lines = [f"The {year} accounts were replaced by unaudited accounts on {day(context['announcement_date'])}."]
        return lines + _changes(context.get("changes") or {})
    if key == "recent_high_risk_event" and "event" in context:
        event = EVENT_WORDS.get(context["event"], str(context["event"]).replace("_", " "))
        on_accounts = f" on the {year} accounts" if year else ""
        lines = [f"{event[:1].upper()}{event[1:]}{on_accounts}, {day(context.get('event_date'))}."]
        count = context.get("event_count") or 1
        if count > 1:
            lines.append(f"{count} high-risk events in the last 365 days.")
        return lines
    if key == "payment_remarks" and "unsettled_count" in context:
        count = context["unsettled_count"]
        lines = [
            f"{amount(count)} unsettled remark{'s' if count != 1 else ''}, {kroner(context.get('unsettled_amount'))}"
            f" in total, the first registered {day(context.get('first_registered_date'))}."
        ]
        for remark in remarks:
            if getattr(remark, "settled_date", None) is not None:
                continue
            creditor = remark.creditor_name or "creditor not given"
            lines.append(f"{kroner(remark.amount)} to {creditor}, registered {day(remark.registered_date)}.")
        return lines
    return _generic(context)
