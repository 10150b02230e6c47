"""Credit risk: an explainable, logistic-style points model (docs/analysis.md has the tables).

Each factor maps one input to points by fixed bands (positive points = riskier). The
points add up with an intercept to a linear predictor P, and

    risk_score = 100 / (1 + exp(-P / 10))          (0-100, higher is riskier, 1 decimal)

so ten points are one unit of log-odds. Classes: very_low < 20 <= low < 40 <= medium < 60
<= high < 80 <= very_high. An active bankrupt, forced_dissolution, liquidated or deleted
status overrides the score to 100 (very_high). Every factor's input value and points are
stored in CompanyCreditRisk.factors, with the model version, so a score can always be
recomputed by hand from what the API shows.

Factors behind a role (FACTOR_ROLES) give two scores of the same function: the full one with
every factor, and the public one without the role-bound factors, for a caller who may not see
them (a score built on them would reveal what the role protects). Both are stored.

Inputs come from the latest current `annual_company_accounts` (the legal entity's own
accounts; see measures.py for why group accounts are not used).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from service.companies import models as m
from django.utils import timezone

from service.companies.analysis.bulk import upsert
from service.companies.analysis.facts import CompanyFacts, related_or_none
from service.companies.analysis.flags import json_number, missing_accounts
from service.companies.analysis.highlights import Ratios

MODEL_VERSION = "vakt-credit-1"
INTERCEPT = -30
POINTS_PER_LOGIT = 10
OVERRIDE_STATUSES = ("bankrupt", "forced_dissolution", "liquidated", "deleted")
CLASSES = ((20, "very_low"), (40, "low"), (60, "medium"), (80, "high"))


@dataclass(frozen=True)
class Bands:
    """Points for a numeric input: the first band whose upper bound the value is below wins."""

    missing: int
    bands: tuple[tuple[float | None, int], ...]  # (upper bound exclusive or None for the rest, points)

    def points(self, value) -> tuple[int, str]:
        if value is None:
            return self.missing, "missing"
        lower = None
        for upper, points in self.bands:
            if upper is None or float(value) < upper:
                return points, _band_label(lower, upper)
            lower = upper
        raise AssertionError("the last band must be open")  # pragma: no cover


def _band_label(lower, upper) -> str:
    if lower is None:
        return f"< {upper:g}"
    if upper is None:
        return f">= {lower:g}"
    return f"{lower:g} to < {upper:g}"


# The model. Changing any number here changes MODEL_VERSION and docs/analysis.md.
FACTOR_BANDS: dict[str, Bands] = {
    "equity_ratio": Bands(5, ((0, 12), (0.05, 10), (0.10, 7), (0.20, 3), (0.40, 0), (None, -5))),
    "return_on_assets": Bands(3, ((-0.10, 10), (0, 6), (0.03, 2), (0.10, 0), (None, -4))),
    "current_ratio": Bands(2, ((0.5, 8), (1.0, 4), (1.5, 1), (2.0, 0), (None, -3))),
    "operating_margin": Bands(1, ((-0.10, 6), (0, 3), (0.05, 1), (0.15, 0), (None, -2))),
    "total_assets": Bands(3, ((1_000_000, 5), (10_000_000, 2), (100_000_000, 0), (None, -3))),
    "employees": Bands(1, ((1, 2), (5, 1), (50, 0), (None, -2))),
    "company_age_years": Bands(3, ((2, 8), (5, 4), (10, 1), (20, 0), (None, -3))),
    "unsettled_payment_remarks_count": Bands(0, ((1, 0), (2, 12), (4, 18), (None, 25))),
    "unsettled_payment_remarks_amount": Bands(0, ((0.01, 0), (50_000, 3), (500_000, 6), (None, 10))),
}
# Factors whose input is a fact behind a role (spec §7: payment remarks need credit_check). Only a
# caller granted every one of these roles sees them and the full score; everyone else gets the
# public score, computed without them, so neither the factors nor the score reveal the fact.
FACTOR_ROLES = {
    "unsettled_payment_remarks_count": "credit_check",
    "unsettled_payment_remarks_amount": "credit_check",
}
FULL_SCORE_ROLES = frozenset(FACTOR_ROLES.values())
HIDDEN_FACTOR_NOTE = (
    "Some factors are left out because they need a role you did not send in Nk-Role-Keys: {factors}. "
    "The score and class are computed without them, from the factors shown."
)
OVERRIDE_BAND = "override: very_high"
NEGATIVE_EQUITY_POINTS = 10
MISSING_ACCOUNTS_POINTS = 15
AUDITOR_NOTE_POINTS = {
    "adverse_opinion": 15,
    "disclaimer_of_opinion": 15,
    "going_concern": 12,
    "qualified_opinion": 5,
    "emphasis_of_matter": 2,
}
STATUS_POINTS = {"under_liquidation": 20}


@dataclass(frozen=True)
class CreditRisk:
    risk_score: Decimal
    risk_class: str
    public_risk_score: Decimal
    public_risk_class: str
    factors: dict


def risk_class_of(score: float | Decimal) -> str:
    for upper, name in CLASSES:
        if score < upper:
            return name
    return "very_high"


def score_of(points: float) -> Decimal:
    return Decimal(str(round(100 / (1 + math.exp(-points / POINTS_PER_LOGIT)), 1)))


def score_and_class(factors: dict, *, leave_out: Iterable[str] = ()) -> tuple[Decimal, str]:
    """The model's one function from its factors to score and class: P is the sum of the points
    of every factor not left out; an override status (risk_status's band) gives 100 whatever P."""
    if factors["risk_status"]["band"] == OVERRIDE_BAND:
        score = Decimal("100.0")
    else:
        left_out = frozenset(leave_out)
        score = score_of(sum(factor["points"] for key, factor in factors.items() if key not in left_out))
    return score, risk_class_of(score)


def public_score_and_class(factors: dict) -> tuple[Decimal, str]:
    """The score and class without the role-bound factors: what a caller without their roles gets."""
    return score_and_class(factors, leave_out=FACTOR_ROLES)


def full_score_visible_to(granted_roles: Iterable[str]) -> bool:
    """The one rule for which score a caller gets: the full one (and the role-bound factors) only
    with every role a factor is behind; otherwise the public one."""
    return FULL_SCORE_ROLES <= frozenset(granted_roles)


def score_columns_for(granted_roles: Iterable[str]) -> tuple[str, str, str]:
    """The CompanyCreditRisk score, class and computed-at columns the caller may read (for ORM
    paths). The public score has its own time: one that moved whenever a role-bound factor did
    would tell a caller without the role that the hidden factors changed."""
    if full_score_visible_to(granted_roles):
        return "risk_score", "risk_class", "computed_at"
    return "public_risk_score", "public_risk_class", "public_computed_at"


def public_part(risk_values: tuple) -> tuple:
    """What a caller without the role-bound factors' roles can see of stored or computed values
    (public score, public class, model version, factors): the public time moves only with it."""
    public_score, public_class, model_version, factors = risk_values
    shown = {key: value for key, value in (factors or {}).items() if key not in FACTOR_ROLES}
    return Decimal(public_score), public_class, model_version, shown


def company_age_years(facts: CompanyFacts, today: date) -> float | None:
    dates = [d for d in (facts.company.founded_date, facts.company.registration_date) if d is not None]
    if not dates:
        return None
    return round((today - min(dates)).days / 365.25, 1)


def employee_count(facts: CompanyFacts) -> int | None:
    if facts.company.employees is not None:
        return facts.company.employees
    return facts.employment[-1].employee_count if facts.employment else None


def credit_risk_compute(facts: CompanyFacts, highlights: dict[uuid.UUID, Ratios], *, today: date) -> CreditRisk:
    latest = facts.latest_accounts()
    ratios = highlights.get(latest.uuid, {}) if latest is not None else {}
    balance = related_or_none(latest, "balance_sheet") if latest is not None else None
    total_assets = balance.total_assets if balance is not None else None
    total_equity = balance.total_equity if balance is not None else None
    remarks_amount = sum((Decimal(r.amount) for r in facts.unsettled_remarks), Decimal(0))

    inputs = {
        "equity_ratio": ratios.get("equity_ratio"),
        "return_on_assets": ratios.get("return_on_assets"),
        "current_ratio": ratios.get("current_ratio"),
        "operating_margin": ratios.get("operating_margin"),
        "total_assets": total_assets,
        "employees": employee_count(facts),
        "company_age_years": company_age_years(facts, today),
        "unsettled_payment_remarks_count": len(facts.unsettled_remarks),
        "unsettled_payment_remarks_amount": remarks_amount,
    }
    factors: dict[str, dict] = {"intercept": {"value": None, "points": INTERCEPT, "band": None}}
    for key, bands in FACTOR_BANDS.items():
        points, band = bands.points(inputs[key])
        factors[key] = {"value": json_number(inputs[key]), "points": points, "band": band}

    negative = total_equity is not None and total_equity < 0
    factors["negative_equity"] = {
        "value": negative,
        "points": NEGATIVE_EQUITY_POINTS if negative else 0,
        "band": None,
    }
    missing = missing_accounts(facts, today)
    factors["missing_accounts"] = {
        "value": missing["due_year"] if missing else None,
        "points": MISSING_ACCOUNTS_POINTS if missing else 0,
        "band": None,
    }
    notes = [key for key, _ in facts.notes.get(latest.uuid, ())] if latest is not None else []
    worst = max(notes, key=lambda key: AUDITOR_NOTE_POINTS.get(key, 0), default=None)
    factors["auditor_note"] = {"value": worst, "points": AUDITOR_NOTE_POINTS.get(worst, 0), "band": None}

    statuses = sorted(facts.active_status_keys())
    override = [key for key in statuses if key in OVERRIDE_STATUSES]
    factors["risk_status"] = {
        "value": statuses,
        "points": sum(STATUS_POINTS.get(key, 0) for key in statuses),
        "band": OVERRIDE_BAND if override else None,
    }

    score, risk_class = score_and_class(factors)
    public_score, public_class = public_score_and_class(factors)
    return CreditRisk(score, risk_class, public_score, public_class, factors)


def factors_visible_to(factors: dict, granted_roles: frozenset[str]) -> tuple[dict, list[str]]:
    """The factors the caller may see, and the keys of those left out for a missing role: all
    role-bound ones unless the caller gets the full score, so the shown points always sum to the
    P of the score the caller gets."""
    if full_score_visible_to(granted_roles):
        return factors, []
    hidden = sorted(key for key in FACTOR_ROLES if key in factors)
    return {key: value for key, value in factors.items() if key not in hidden}, hidden


def credit_risk_write(*, batch: list[CompanyFacts], computed: dict[uuid.UUID, CreditRisk]) -> int:
    ids = [facts.uuid for facts in batch]
    values = ["risk_score", "risk_class", "public_risk_score", "public_risk_class", "model_version", "factors"]
    existing = {
        company_id: ((Decimal(score), risk_class, Decimal(public_score), *rest), public_at)
        for company_id, score, risk_class, public_score, *rest, public_at in m.CompanyCreditRisk.objects.filter(
            company_id__in=ids
        ).values_list("company_id", *values, "public_computed_at")
    }
    now = timezone.now()
    rows = []
    for company_id, risk in computed.items():
        new = (
            risk.risk_score, risk.risk_class, risk.public_risk_score, risk.public_risk_class, MODEL_VERSION,
            risk.factors,
        )
        old, public_at = existing.get(company_id, (None, None))
        if old == new:
            continue
        if old is None or public_at is None or public_part(old[2:]) != public_part(new[2:]):
            public_at = now
        rows.append((company_id, *new, now, public_at))
    return upsert(
        model=m.CompanyCreditRisk,
        columns=["company_id", *values, "computed_at", "public_computed_at"],
        rows=rows,
        conflict=["company_id"],
        update=[*values, "computed_at", "public_computed_at"],
        new_uuid=False,
    )
