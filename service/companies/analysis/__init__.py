"""The analysis the service computes itself from the register data (docs/analysis.md).

    analysis_refresh(company_uuids=[...])   # some companies
    analysis_refresh()                       # every company, in batches

For each batch of companies, in one transaction with the company rows locked
(PostgreSQL): register statuses are reconciled into CompanyRiskStatus rows, then
AccountsHighlights, CompanyMeasureYearly, CompanyFlag and CompanyCreditRisk are
recomputed and written with bulk upserts, skipping rows whose values did not change.
A batch costs a fixed number of queries (about 15) whatever its size, so a million
companies take a thousand batches, not millions of queries.

Writes do not call it themselves: services.py, the importers and the demo generator
enqueue the Celery task (service.companies.tasks.analysis_refresh_on_commit) once the
write commits, with the uuids they touched (or None past 100,000).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from service.companies import models as m
from service.companies.analysis.credit_risk import MODEL_VERSION, credit_risk_compute, credit_risk_write
from service.companies.analysis.facts import CompanyFacts, facts_load
from service.companies.analysis.flags import flags_desired, flags_write, moment_of
from service.companies.analysis.highlights import highlights_for, highlights_write
from service.companies.analysis.measures import measures_compute, measures_write
from service.companies.analysis.statuses import risk_statuses_reconcile

__all__ = ["MODEL_VERSION", "AnalysisSummary", "analysis_refresh", "analysis_refresh_batch"]

logger = logging.getLogger(__name__)
BATCH_SIZE = 1000


@dataclass
class AnalysisSummary:
    companies: int = 0
    batches: int = 0
    rows_written: dict[str, int] = field(
        default_factory=lambda: {"risk_statuses": 0, "highlights": 0, "measures": 0, "flags": 0, "credit_risk": 0}
    )
    seconds: float = 0.0

    def __str__(self) -> str:
        written = ", ".join(f"{key} {value}" for key, value in self.rows_written.items())
        return f"analysed {self.companies} companies in {self.batches} batches ({self.seconds:.1f} s); written: {written}"


def analysis_refresh(
    *,
    company_uuids: Iterable[uuid.UUID] | None = None,
    today: date | None = None,
    batch_size: int = BATCH_SIZE,
    progress: Callable[[int], None] | None = None,
) -> AnalysisSummary:
    """Recompute highlights, measures, flags and credit risk for the companies (None: all).

    `today` pins the date the rules look from (tests, replays). Without it each batch looks
    from the day in the service's time zone when it runs, and ends flags at that moment: a
    run that goes on past midnight neither ends flags at the start of the day before nor
    mixes one day's rules with another day's moment. `progress` is called with the number of
    companies done after each batch.
    """
    started = time.monotonic()
    summary = AnalysisSummary()
    for batch in _batches(company_uuids, batch_size):
        now = None if today else timezone.now()
        written = analysis_refresh_batch(
            company_uuids=batch, today=today or timezone.localdate(now), contiguous=company_uuids is None, now=now
        )
        summary.companies += written.pop("companies")
        summary.batches += 1
        for key, value in written.items():
            summary.rows_written[key] += value
        if progress is not None:
            progress(len(batch))
    summary.seconds = time.monotonic() - started
    if summary.batches > 1:
        logger.info("%s", summary)
    return summary


def _batches(company_uuids: Iterable[uuid.UUID] | None, size: int) -> Iterator[list[uuid.UUID]]:
    if company_uuids is not None:
        unique = sorted({uuid.UUID(str(value)) for value in company_uuids})
        for start in range(0, len(unique), size):
            yield unique[start : start + size]
        return
    last = None  # keyset pagination over the primary key: no OFFSET scans over a million rows
    while True:
        queryset = m.Company.objects.order_by("uuid")
        if last is not None:
            queryset = queryset.filter(uuid__gt=last)
        batch = list(queryset.values_list("uuid", flat=True)[:size])
        if not batch:
            return
        yield batch
        last = batch[-1]


def analysis_refresh_batch(
    *, company_uuids: list[uuid.UUID], today: date, contiguous: bool = False, now: datetime | None = None
) -> dict[str, int]:
    """One batch in one transaction. `contiguous`: the uuids are every company from the first to the last.
    `now`: the moment `today` was read at, which flags end at (default: flags.moment_of(today))."""
    with transaction.atomic():
        batch = facts_load(company_uuids=company_uuids, lock=True, contiguous=contiguous)
        if not batch:
            return {"companies": 0}
        flag_types = {flag_type.key: flag_type for flag_type in m.CompanyFlagType.objects.all()}
        written = {"companies": len(batch), "risk_statuses": risk_statuses_reconcile(batch=batch, today=today)}
        highlights = {}
        for facts in batch:
            highlights.update(highlights_for(facts))
        written["highlights"] = highlights_write(batch=batch, computed=highlights)
        written["measures"] = measures_write(
            batch=batch,
            computed={facts.uuid: measures_compute(facts, highlights) for facts in batch},
            contiguous=contiguous,
        )
        written["flags"] = flags_write(
            batch=batch,
            desired={facts.uuid: flags_desired(facts, today=today, flag_types=flag_types) for facts in batch},
            flag_types=flag_types,
            now=now or moment_of(today),
        )
        written["credit_risk"] = credit_risk_write(
            batch=batch, computed={facts.uuid: credit_risk_compute(facts, highlights, today=today) for facts in batch}
        )
        return written


def facts_for(company_uuid: uuid.UUID) -> CompanyFacts | None:
    """The facts of one company (for debugging and tests)."""
    loaded = facts_load(company_uuids=[company_uuid])
    return loaded[0] if loaded else None
