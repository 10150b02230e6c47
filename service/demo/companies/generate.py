"""generate_demo: N demo companies in batches, bulk-inserted, in constant memory.

Each batch is generated whole, then written in one transaction (COPY on PostgreSQL).
Re-running with the same seed regenerates the same units; a unit whose organisation
number is already in the database is skipped whole, so a re-run adds nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db import transaction
from django.utils import timezone

from service.demo.companies.builder import DemoBuilder
from service.demo.companies.org_numbers import org_numbers
from service.demo.companies.randomness import DemoRandom
from service.demo.companies.register import register_accounts_write
from service.demo.companies.references import demo_references_ensure, demo_references_load
from service.demo.companies.rows import TABLES, DemoRows
from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.bulk import rows_insert
from service.companies.importers.source import progress_bar
from service.companies.models import Company

BATCH_SIZE = 2000


@dataclass
class DemoSummary:
    companies: int = 0
    skipped: int = 0  # already present (a re-run with the same seed)
    register_companies: int = 0  # companies of the real register given accounts
    rows: dict[str, int] = field(default_factory=dict)
    references: list[str] = field(default_factory=list)

    def line(self) -> str:
        written = ", ".join(f"{table} {count}" for table, count in self.rows.items())
        return (
            f"generate_demo: companies {self.companies}, skipped (already present) {self.skipped}, "
            f"register companies given accounts {self.register_companies}; rows: {written}"
        )


def demo_generate(
    *,
    companies: int,
    seed: int,
    today: date | None = None,
    batch_size: int = BATCH_SIZE,
    quiet: bool = True,
    refresh_analysis: bool = True,
    register: bool = True,
) -> DemoSummary:
    """`companies` demo companies; with `register`, also accounts for the real register's filing
    companies that have none (register.py)."""
    summary = DemoSummary(references=demo_references_ensure(), rows=dict.fromkeys(TABLES, 0))
    today = today or timezone.localdate()
    r = DemoRandom(seed, now=timezone.now())
    builder = DemoBuilder(r, demo_references_load(), today=today)
    numbers = org_numbers(seed)
    affected = AffectedCompanies()
    made = 0
    with progress_bar(total=companies, description="companies", quiet=quiet) as bar:
        while made < companies:
            units = []
            size = 0
            while size < batch_size and made + size < companies:
                unit = builder.unit(numbers, room=companies - made - size)
                units.append(unit)
                size += len(unit.companies)
            written = _units_write(units, summary)
            affected.add(company["uuid"] for company in written.companies)
            made += size
            bar.update(size)
    if register:
        written = register_accounts_write(builder, seed=seed, today=today)
        summary.register_companies = len({row["company_id"] for row in written.accounts})
        for table, count in written.counts().items():
            summary.rows[table] += count
        affected.add({row["company_id"] for row in written.accounts} | {row["company_id"] for row in written.employment})
    if refresh_analysis:
        affected.refresh()
    return summary


def _units_write(units: list[DemoRows], summary: DemoSummary) -> DemoRows:
    present = set(
        Company.objects.filter(
            org_nr_schema="NO", org_nr__in=[c["org_nr"] for unit in units for c in unit.companies]
        ).values_list("org_nr", flat=True)
    )
    batch = DemoRows()
    for unit in units:
        if any(company["org_nr"] in present for company in unit.companies):
            summary.skipped += len(unit.companies)
        else:
            batch.extend(unit)
    with transaction.atomic():
        for table, model in TABLES.items():
            rows_insert(model=model, rows=getattr(batch, table))
    for table, count in batch.counts().items():
        summary.rows[table] += count
    summary.companies += len(batch.companies)
    return batch
