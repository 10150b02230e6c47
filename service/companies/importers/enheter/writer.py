"""Writing one batch of Company rows atomically, with the history rows their changes imply.

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
from datetime import date, datetime

from django.db import transaction

from service.companies.importers.bulk import rows_insert
from service.companies.importers.enheter.references import EnhetReferences, PendingReferences
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


def companies_batch_write(
    *, rows: list[dict], refs: EnhetReferences, pending: PendingReferences, now: datetime
) -> UpsertOutcome:
    with transaction.atomic():
        refs.pending_create(pending)
        for row in rows:
            for prefix in ("business", "postal"):
                if (key := row[f"{prefix}_postal_code_id"]) is not None:
                    row[f"{prefix}_postal_code_id"] = refs.postal_codes[key]
                if (code := row[f"{prefix}_country_id"]) is not None:
                    row[f"{prefix}_country_id"] = refs.countries[code]
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
        _risk_status_changes_write(outcome, now.date())
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
