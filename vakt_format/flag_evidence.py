"""A flag's evidence as sentences an officer reads, in Norwegian number format.

Shared by the service's PDF reports and the dashboard (see the package's docstring): the
evidence (`flag_context`) of each flag type the analysis raises, in words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from vakt_format.credit_factors import is_number, key_words
from vakt_format.norwegian import amount, day, decimal, kroner, percent

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
        if is_number(value) and ("amount" in key or "equity" in key):
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
