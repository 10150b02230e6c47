"""CompanyFlag rows raised by rules, one rule per key of catalog.FLAG_TYPES (docs/analysis.md).

Flags are history: `flags_desired` says which flags should be active now (with their
evidence in `flag_context`), and `flags_write` reconciles that with the active rows:

- a flag that should be active and has no active row opens a new row;
- an active row whose flag still holds keeps its uuid and flag_date, its context and
  end date are brought up to date;
- an active row whose rule no longer holds gets `flag_end_date = now`, unless its type
  has `persist_flag` (bankrupt, forced_dissolution, under_liquidation stay);
- types with `default_flag_end_days` (recent events, replaced accounts) get
  `flag_end_date = event date + default_flag_end_days` when raised, so they expire on
  time even if no refresh runs.

A row is active while `flag_end_date` is empty or in the future.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as dtime
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from service.companies import models as m
from service.companies.analysis.facts import GROUP_ACCOUNTS, CompanyFacts, related_or_none

SIGNIFICANT_CHANGE = Decimal("0.10")
COMPARED_FIGURES = (
    ("income_statement", "total_operating_income"),
    ("income_statement", "result_before_tax"),
    ("balance_sheet", "total_assets"),
    ("balance_sheet", "total_equity"),
)
ACCOUNTS_OBLIGED_ORGANIZATION_TYPES = frozenset({"NO-AS", "NO-ASA"})
HIGH_RISK_STATUSES = ("bankrupt", "forced_dissolution")
HIGH_RISK_NOTES = ("adverse_opinion", "disclaimer_of_opinion", "going_concern")
GONE_STATUSES = frozenset({"liquidated", "deleted"})


@dataclass(frozen=True)
class FlagState:
    flag_date: datetime
    flag_end_date: datetime | None
    context: dict
    flag_url: str = ""


def as_datetime(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, dtime.min))


def moment_of(today: date) -> datetime:
    """The current time, or the start of `today` when the analysis runs for another day (tests, replays)."""
    return timezone.now() if today == timezone.localdate() else as_datetime(today)


def json_number(value) -> int | float | None:
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _accounts_path(facts: CompanyFacts) -> str:
    return f"/companies/{facts.uuid}/#accounts"


def _company_path(facts: CompanyFacts) -> str:
    return f"/companies/{facts.uuid}/"


# --- rules --------------------------------------------------------------------------------


def status_since(facts: CompanyFacts, key: str) -> date | None:
    """The start of the active register status `key`, or None when it is not active."""
    starts = [status.from_date for status in facts.risk_statuses if status.key == key and status.active]
    return min(starts) if starts else None


def negative_equity(facts: CompanyFacts) -> tuple[m.Accounts, Decimal] | None:
    latest = facts.latest_accounts()
    balance = related_or_none(latest, "balance_sheet") if latest is not None else None
    equity = balance.total_equity if balance is not None else None
    if equity is not None and equity < 0:
        return latest, equity
    return None


def accounts_due_year(today: date) -> int:
    """The last year whose accounts are overdue today: the deadline is 31 July of the following year."""
    return today.year - 1 if today > date(today.year, 7, 31) else today.year - 2


def missing_accounts(facts: CompanyFacts, today: date) -> dict | None:
    """Evidence that an AS/ASA has not filed company accounts for the last due year, or None.

    Obliged: organisation type NO-AS or NO-ASA, registered (registration_date, else
    founded_date) before 1 July of the due year (a first accounting period may last up to
    18 months, so a company registered later may first report for the following year),
    and not liquidated or deleted. Group accounts do not count as the company's own.
    """
    if facts.organization_type_key not in ACCOUNTS_OBLIGED_ORGANIZATION_TYPES:
        return None
    if facts.active_status_keys() & GONE_STATUSES:
        return None
    registered = facts.company.registration_date or facts.company.founded_date
    due_year = accounts_due_year(today)
    if registered is None or registered >= date(due_year, 7, 1):
        return None
    current = facts.current_accounts()
    if due_year in current or any(year > due_year for year in current):
        return None
    return {
        "due_year": due_year,
        "deadline": date(due_year + 1, 7, 31).isoformat(),
        "last_accounts_year": max(current) if current else None,
        "registration_date": registered.isoformat(),
    }


def _event_date(accounts: m.Accounts) -> date | None:
    if accounts.accounting_announcement_date:
        return accounts.accounting_announcement_date
    return timezone.localtime(accounts.update_timestamp).date() if accounts.update_timestamp else None


def _change(before, after) -> Decimal | None:
    """|after - before| / |before|; None when not comparable; a large number for a change from zero."""
    if before is None or after is None:
        return None
    before, after = Decimal(before), Decimal(after)
    if before == 0:
        return Decimal(0) if after == 0 else Decimal("Infinity")
    return abs(after - before) / abs(before)


def replaced_unaudited(facts: CompanyFacts, today: date, lookback_days: int) -> tuple[bool, date, dict] | None:
    """(significant, event date, evidence) of the relevant replacement by an unaudited set, or None.

    Considered: every accounts set replaced by a set that is not audited, where the
    replacing set was announced within `lookback_days`. Significant: any of total
    operating income, result before tax, total assets or total equity changed by more
    than 10% between the replaced and the replacing set. A significant replacement wins
    over a newer plain one; otherwise the newest counts.
    """
    by_uuid = {accounts.uuid: accounts for accounts in facts.accounts}
    found: list[tuple[bool, date, dict]] = []
    for old in facts.accounts:
        new = by_uuid.get(old.replaced_by_id) if old.replaced_by_id else None
        if new is None or new.audited_flag:
            continue
        event = _event_date(new)
        if event is None or (today - event).days > lookback_days:
            continue
        changes, significant = {}, False
        for relation, name in COMPARED_FIGURES:
            before_obj, after_obj = related_or_none(old, relation), related_or_none(new, relation)
            before = getattr(before_obj, name, None) if before_obj is not None else None
            after = getattr(after_obj, name, None) if after_obj is not None else None
            change = _change(before, after)
            if change is None:
                continue
            changes[name] = {
                "before": json_number(before),
                "after": json_number(after),
                "change_ratio": None if change.is_infinite() else json_number(round(change, 6)),
            }
            significant = significant or change > SIGNIFICANT_CHANGE
        found.append(
            (
                significant,
                event,
                {
                    "accounting_year": new.accounting_year,
                    "accounts_uuid": str(new.uuid),
                    "replaced_accounts_uuid": str(old.uuid),
                    "announcement_date": event.isoformat(),
                    "changes": changes,
                },
            )
        )
    if not found:
        return None
    return max(found, key=lambda item: (item[0], item[1]))


def high_risk_events(facts: CompanyFacts, today: date, lookback_days: int) -> list[tuple[date, dict]]:
    """Bankruptcy or forced dissolution statuses started, and adverse, disclaimer or going-concern
    auditor notes announced, within the lookback window (newest first)."""
    events: list[tuple[date, dict]] = []
    for status in facts.risk_statuses:
        if status.key in HIGH_RISK_STATUSES and 0 <= (today - status.from_date).days <= lookback_days:
            events.append((status.from_date, {"event": status.key, "event_date": status.from_date.isoformat()}))
    for accounts in facts.accounts:
        notes = [key for key, _ in facts.notes.get(accounts.uuid, ()) if key in HIGH_RISK_NOTES]
        announced = accounts.accounting_announcement_date
        if not notes or announced is None or not 0 <= (today - announced).days <= lookback_days:
            continue
        for key in notes:
            events.append(
                (
                    announced,
                    {
                        "event": key,
                        "event_date": announced.isoformat(),
                        "accounting_year": accounts.accounting_year,
                        "accounts_uuid": str(accounts.uuid),
                    },
                )
            )
    events.sort(key=lambda item: (item[0], item[1]["event"]), reverse=True)
    return events


def going_concern(facts: CompanyFacts) -> tuple[m.Accounts, str] | None:
    """A going-concern note on the latest current accounts (company accounts, else group accounts)."""
    latest = facts.latest_accounts() or facts.latest_accounts(GROUP_ACCOUNTS)
    if latest is None:
        return None
    for key, text in facts.notes.get(latest.uuid, ()):
        if key == "going_concern":
            return latest, text
    return None


def flags_desired(
    facts: CompanyFacts, *, today: date, flag_types: dict[str, m.CompanyFlagType]
) -> dict[str, FlagState]:
    """The flags that should be active for a company today, by flag type key."""
    desired: dict[str, FlagState] = {}

    def end_after(key: str, start: date) -> datetime | None:
        days = flag_types[key].default_flag_end_days
        return as_datetime(start + timedelta(days=days)) if days else None

    def lookback(key: str) -> int:
        return flag_types[key].default_lookback_days or 365

    for key in ("bankrupt", "under_liquidation", "forced_dissolution"):
        since = status_since(facts, key)
        if since is not None:
            desired[key] = FlagState(as_datetime(since), None, {"status": key, "from_date": since.isoformat()},
                                     _company_path(facts))

    equity = negative_equity(facts)
    if equity is not None:
        accounts, total_equity = equity
        desired["negative_total_equity"] = FlagState(
            as_datetime(_event_date(accounts) or date(accounts.accounting_year, 12, 31)),
            None,
            {
                "accounting_year": accounts.accounting_year,
                "accounts_uuid": str(accounts.uuid),
                "total_equity": json_number(total_equity),
            },
            _accounts_path(facts),
        )

    key = "replaced_unaudited_accounts_with_significant_changes"
    replaced = replaced_unaudited(facts, today, max(lookback(key), lookback("replaced_unaudited_accounts")))
    if replaced is not None:
        significant, event, context = replaced
        key = key if significant else "replaced_unaudited_accounts"
        if (today - event).days <= lookback(key):
            desired[key] = FlagState(as_datetime(event), end_after(key, event), context, _accounts_path(facts))

    missing = missing_accounts(facts, today)
    if missing is not None:
        desired["missing_accounts"] = FlagState(
            as_datetime(date(missing["due_year"] + 1, 8, 1)), None, missing, _accounts_path(facts)
        )

    events = high_risk_events(facts, today, lookback("recent_high_risk_event"))
    if events:
        newest, context = events[0]
        context = {**context, "event_count": len(events)}
        desired["recent_high_risk_event"] = FlagState(
            as_datetime(newest), end_after("recent_high_risk_event", newest), context, _company_path(facts)
        )

    doubt = going_concern(facts)
    if doubt is not None:
        accounts, text = doubt
        desired["going_concern_doubt"] = FlagState(
            as_datetime(_event_date(accounts) or date(accounts.accounting_year, 12, 31)),
            None,
            {"accounting_year": accounts.accounting_year, "accounts_uuid": str(accounts.uuid), "auditor_note": text},
            _accounts_path(facts),
        )

    if facts.unsettled_remarks:
        first = min(remark.registered_date for remark in facts.unsettled_remarks)
        desired["payment_remarks"] = FlagState(
            as_datetime(first),
            None,
            {
                "unsettled_count": len(facts.unsettled_remarks),
                "unsettled_amount": json_number(sum((Decimal(r.amount) for r in facts.unsettled_remarks), Decimal(0))),
                "first_registered_date": first.isoformat(),
            },
            f"/companies/{facts.uuid}/#credit-risk",
        )
    unknown = set(desired) - set(flag_types)
    assert not unknown, f"flags outside the catalogue: {unknown}"
    return desired


# --- writing ------------------------------------------------------------------------------


def flags_write(
    *,
    batch: list[CompanyFacts],
    desired: dict[uuid.UUID, dict[str, FlagState]],
    flag_types: dict[str, m.CompanyFlagType],
    now: datetime | None = None,
) -> int:
    """Reconcile the desired flags with the rows active at `now` (default: the current time)."""
    now = now or timezone.now()
    key_of = {flag_type.uuid: key for key, flag_type in flag_types.items()}
    ids = [facts.uuid for facts in batch]
    active: dict[tuple[uuid.UUID, str], list[m.CompanyFlag]] = {}
    for flag in (
        m.CompanyFlag.objects.filter(company_id__in=ids)
        .filter(Q(flag_end_date__isnull=True) | Q(flag_end_date__gt=now))
        .order_by("flag_date", "uuid")
    ):
        active.setdefault((flag.company_id, key_of[flag.company_flag_type_id]), []).append(flag)

    created, updated = [], []
    for facts in batch:
        wanted = desired.get(facts.uuid, {})
        for key, flag_type in flag_types.items():
            want = wanted.get(key)
            rows = active.get((facts.uuid, key), [])
            keep, extra = (rows[0], rows[1:]) if rows else (None, [])
            for row in extra:  # duplicates from a concurrent writer: keep the oldest
                row.flag_end_date, row.update_timestamp = now, now
                updated.append(row)
            if want is None:
                if keep is not None and not flag_type.persist_flag:
                    keep.flag_end_date, keep.update_timestamp = now, now
                    updated.append(keep)
                continue
            if keep is None:
                created.append(
                    m.CompanyFlag(
                        company_id=facts.uuid,
                        company_flag_type=flag_type,
                        flag_date=want.flag_date,
                        flag_end_date=want.flag_end_date,
                        flag_context=want.context,
                        flag_url=want.flag_url,
                    )
                )
            elif (keep.flag_context, keep.flag_end_date, keep.flag_url) != (
                want.context,
                want.flag_end_date,
                want.flag_url,
            ):
                keep.flag_context, keep.flag_end_date, keep.flag_url = want.context, want.flag_end_date, want.flag_url
                keep.update_timestamp = now
                updated.append(keep)
    if created:
        m.CompanyFlag.objects.bulk_create(created, batch_size=1000)
    if updated:
        m.CompanyFlag.objects.bulk_update(
            updated, ["flag_end_date", "flag_context", "flag_url", "update_timestamp"], batch_size=500
        )
    return len(created) + len(updated)
