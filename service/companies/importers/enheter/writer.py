"""The ORM writer (SQLite, where `make run` and most tests live): checked blocks written in batches
through the portable upsert, with the history rows their changes imply. postgres.py applies the
same history rules in SQL.

- Employment: when the head count differs from the stored one, the open
  CompanyEmployment period is closed and a new one opened (`employee_count_from` ->
  `employee_count_to` record the change). A count that disappears (the register hides
  counts under five) closes the open period without opening one.
- Risk statuses: a register status (konkurs, underAvvikling, tvangsavvikling) that
  turns on opens a CompanyRiskStatus from the register's date (today when it gives
  none); one that turns off is closed today.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

import pyarrow as pa

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.importers.bulk import rows_insert
from service.companies.importers.enheter.references import EnhetReferences
from service.companies.importers.result import ImportResult
from service.companies.importers.upsert import UpsertOutcome, rows_upsert_changed
from service.companies.models import Company, CompanyEmployment, CompanyRiskStatus, CompanyRiskStatusType

COMPANY_FIELDS = (
    "name",
    "organization_type_id",
    "nace_code_1_id",
    "nace_code_2_id",
    "nace_code_3_id",
    "business_address",
    "business_postal_code_id",
    "business_municipality_id",
    "business_country_id",
    "postal_address",
    "postal_postal_code_id",
    "postal_municipality_id",
    "postal_country_id",
    "website",
    "employees",
    "registration_date",
    "founded_date",
    "last_submitted_accounts_year",
    "parent_org_nr",
    "is_bankrupt",
    "bankrupt_date",
    "is_under_liquidation",
    "under_liquidation_date",
    "is_under_forced_dissolution",
    "forced_dissolution_date",
)
# risk status type key -> (Company flag, Company date)
STATUSES = {
    "bankrupt": ("is_bankrupt", "bankrupt_date"),
    "under_liquidation": ("is_under_liquidation", "under_liquidation_date"),
    "forced_dissolution": ("is_under_forced_dissolution", "forced_dissolution_date"),
}


_UUID_FIELDS = [name for name in COMPANY_FIELDS if name.endswith("_id")]


class RowsWriter:
    """Rows go in batches of `batch_size`; a company repeated in the file starts a new batch, so the later
    row is written after the earlier one (and wins), each counted."""

    def __init__(
        self, *, now: datetime, batch_size: int, refs: EnhetReferences, result: ImportResult, affected: AffectedCompanies
    ) -> None:
        self.now, self.batch_size, self.refs, self.result, self.affected = now, batch_size, refs, result, affected
        self.renamed: set[uuid.UUID] = set()  # stored companies whose name this import changed

    def write(self, rows: pa.Table) -> None:
        moved = self.refs.pending_create()  # the postal codes and countries these rows point at
        batch: dict[str, dict] = {}  # org nr -> row
        for row in _company_rows(rows, moved):
            if row["org_nr"] in batch or len(batch) >= self.batch_size:
                self._flush(batch)
            batch[row["org_nr"]] = row
        self._flush(batch)

    def finish(self) -> None:
        """(Every block is written as it comes.)"""

    def abort(self, exc: BaseException) -> None:
        """(The transaction's rollback undoes it all.)"""

    def _flush(self, batch: dict[str, dict]) -> None:
        if not batch:
            return
        outcome = companies_batch_write(rows=list(batch.values()), now=self.now)
        self.result.tally(**outcome.counts())
        self.affected.add(row["uuid"] for row in outcome.created)
        self.affected.add(row["uuid"] for row, _ in outcome.updated)
        self.renamed.update(row["uuid"] for row, before in outcome.updated if row["name"] != before["name"])
        batch.clear()


def _company_rows(rows: pa.Table, moved: dict[uuid.UUID, uuid.UUID]) -> Iterator[dict]:
    for values in rows.select(["org_nr", *COMPANY_FIELDS]).to_pylist():
        for name in _UUID_FIELDS:
            if values[name] is not None:
                chosen = uuid.UUID(bytes=values[name])
                values[name] = moved.get(chosen, chosen)
        yield {"org_nr_schema": "NO", **values}


def companies_batch_write(*, rows: list[dict], now: datetime) -> UpsertOutcome:
    with transaction.atomic():
        for row in rows:
            row["uuid"] = uuid.uuid4()
            row["create_timestamp"] = row["update_timestamp"] = now
        outcome = rows_upsert_changed(
            model=Company,
            rows=rows,
            key_fields=("org_nr_schema", "org_nr"),
            compare_fields=COMPANY_FIELDS,
            touch_fields=("update_timestamp",),
        )
        _employment_changes_write(outcome, now)
        _risk_status_changes_write(outcome, timezone.localdate(now))  # the day in Oslo, not in UTC
    return outcome


def _employment_changes_write(outcome: UpsertOutcome, now: datetime) -> None:
    changes = [(row, None) for row in outcome.created if row["employees"] is not None]
    changes += [(row, before["employees"]) for row, before in outcome.updated if row["employees"] != before["employees"]]
    CompanyEmployment.objects.filter(
        company_id__in=[row["uuid"] for row, before in changes if before is not None], to_date__isnull=True
    ).update(to_date=now)
    rows_insert(
        model=CompanyEmployment,
        rows=[
            {
                "uuid": uuid.uuid4(),
                "company_id": row["uuid"],
                "employee_count": row["employees"],
                "employee_date": now,
                "from_date": now,
                "to_date": None,
                "employee_count_from": before,
                "employee_count_to": row["employees"],
            }
            for row, before in changes
            if row["employees"] is not None
        ],
    )


def _risk_status_changes_write(outcome: UpsertOutcome, today: date) -> None:
    type_uuids = dict(CompanyRiskStatusType.objects.filter(key__in=STATUSES).values_list("key", "uuid"))
    opened = []
    for key, (flag, date_field) in STATUSES.items():
        turned_on = [row for row in outcome.created if row[flag]]
        turned_on += [row for row, before in outcome.updated if row[flag] and not before[flag]]
        turned_off = [row["uuid"] for row, before in outcome.updated if before[flag] and not row[flag]]
        CompanyRiskStatus.objects.filter(
            company_id__in=turned_off, company_risk_status_type_id=type_uuids[key], to_date__isnull=True
        ).update(to_date=today)
        opened += [
            {
                "uuid": uuid.uuid4(),
                "company_id": row["uuid"],
                "company_risk_status_type_id": type_uuids[key],
                "from_date": row[date_field] or today,
                "to_date": None,
            }
            for row in turned_on
        ]
    rows_insert(model=CompanyRiskStatus, rows=opened)
