"""The credit score's factors in words: labels, inputs and bands, in Norwegian number format.

Shared by the service's PDF reports and the dashboard (see the package's docstring), so a
factor reads the same on the company page and in the report.
"""

from __future__ import annotations

import re
from decimal import Decimal

from vakt_format.norwegian import DASH, amount, decimal, kroner, percent

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


def is_number(value) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


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
    if is_number(value):
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
