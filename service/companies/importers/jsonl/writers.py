"""Writing one validated JSON-lines record, keyed on its natural key so a re-import is a no-op.

Each writer returns "created", "updated" or "unchanged", or raises RowRejected when
the record points at something that is not there. Natural keys:

- accounts: company, accounts type, year, announcement date. A record with
  `replaces_previous` marks the current set of that company, type and year
  `replaced_by` the new one; without it, a second current set is refused.
- role: company, role type, holder, from_date. Persons are found by national id
  when given, else by full name and birth date.
- payment_remark: company, remark type, registered date, creditor, amount.
- collection_case: debtor company and case reference.
- employment: company and from_date.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db.models import Model
from django.utils import timezone

from service.companies.importers.jsonl import schemas
from service.companies.importers.values import RowRejected
from service.companies.models import (
    Accounts,
    AccountsAuditorNote,
    AccountsAuditorNoteType,
    AccountsBalanceSheet,
    AccountsIncomeStatement,
    AccountsType,
    CollectionCase,
    Company,
    CompanyEmployment,
    CompanyRole,
    CompanyRoleType,
    PaymentRemark,
    Person,
)

GROUP_ACCOUNTS = "annual_corporate_group_accounts"


def company_uuid(*, org_nr: str, org_nr_schema: str, field: str = "org_nr") -> uuid.UUID:
    found = Company.objects.filter(org_nr_schema=org_nr_schema, org_nr=org_nr).values_list("uuid", flat=True).first()
    if found is None:
        raise RowRejected(f"{field}: company {org_nr_schema}{org_nr} is not in the register")
    return found


def _save_changed(instance: Model, values: dict) -> bool:
    """Set `values` on the instance and save it when any differs; True when it did."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    for name in changed:
        setattr(instance, name, values[name])
    if changed:
        instance.save()
    return bool(changed)


def _upsert(model: type[Model], *, key: dict, values: dict) -> tuple[Model, str]:
    instance = model.objects.filter(**key).first()
    if instance is None:
        return model.objects.create(**key, **values), "created"
    return instance, "updated" if _save_changed(instance, values) else "unchanged"


def accounts_write(record: schemas.AccountsRecord, company: uuid.UUID) -> str:
    accounts_type = AccountsType.objects.get(key=record.accounts_type)
    same_year = Accounts.objects.filter(company_id=company, accounts_type=accounts_type, accounting_year=record.accounting_year)
    accounts = same_year.filter(accounting_announcement_date=record.accounting_announcement_date).first()
    values = {
        "accounting_schema": record.accounting_schema,
        "accounting_from_date": record.accounting_from_date,
        "accounting_to_date": record.accounting_to_date,
        "corporate_group_accounts_flag": record.accounts_type == GROUP_ACCOUNTS,
        "estimated_accounting_period_flag": record.estimated_accounting_period,
        "currency_code": record.currency_code,
        "audited_flag": record.audited,
    }
    if accounts is None:
        current = same_year.filter(replaced_by__isnull=True)
        if current.exists() and not record.replaces_previous:
            raise RowRejected(
                f"{record.accounts_type} {record.accounting_year} already exist with another announcement date; "
                "set replaces_previous to replace them"
            )
        accounts = Accounts.objects.create(
            company_id=company,
            accounts_type=accounts_type,
            accounting_year=record.accounting_year,
            accounting_announcement_date=record.accounting_announcement_date,
            **values,
        )
        current.exclude(uuid=accounts.uuid).update(replaced_by=accounts)
        outcome = "created"
    else:
        outcome = "updated" if _save_changed(accounts, values) else "unchanged"
    statements = (
        (AccountsIncomeStatement, record.income_statement),
        (AccountsBalanceSheet, record.balance_sheet),
    )
    for model, statement in statements:
        _, written = _upsert(model, key={"accounts": accounts}, values={"currency_code": record.currency_code, **statement.model_dump()})
        if written != "unchanged" and outcome == "unchanged":
            outcome = "updated"
    if _auditor_notes_write(accounts, record.auditor_notes) and outcome == "unchanged":
        outcome = "updated"
    return outcome


def _auditor_notes_write(accounts: Accounts, notes: list[schemas.AuditorNote]) -> bool:
    """Make the set's notes exactly these; True when they changed."""
    wanted = [(note.type, note.note) for note in notes]
    stored = list(
        accounts.auditor_notes.order_by("accounts_auditor_note_type__key", "auditor_note").values_list(
            "accounts_auditor_note_type__key", "auditor_note"
        )
    )
    if sorted(wanted) == stored:
        return False
    types = dict(AccountsAuditorNoteType.objects.values_list("key", "uuid"))
    accounts.auditor_notes.all().delete()
    AccountsAuditorNote.objects.bulk_create(
        AccountsAuditorNote(accounts=accounts, accounts_auditor_note_type_id=types[key], auditor_note=text) for key, text in wanted
    )
    return True


def role_write(record: schemas.RoleRecord, company: uuid.UUID, *, persons_changed: set[uuid.UUID] | None = None) -> str:
    """The role's outcome; a holder person whose stored details changed is added to `persons_changed`."""
    holder: dict
    person_outcome = None
    if record.person is not None:
        person, person_outcome = _person(record.person)
        holder = {"holder_person": person, "holder_company": None}
    else:
        holder_company = company_uuid(org_nr=record.holder_org_nr, org_nr_schema=record.org_nr_schema, field="holder_org_nr")
        holder = {"holder_person": None, "holder_company_id": holder_company}
    _, outcome = _upsert(
        CompanyRole,
        key={
            "company_id": company,
            "company_role_type": CompanyRoleType.objects.get(key=record.role_type),
            "from_date": record.from_date,
            **holder,
        },
        values={"share_percentage": record.share_percentage, "to_date": record.to_date},
    )
    if person_outcome == "updated" and persons_changed is not None:
        persons_changed.add(holder["holder_person"].uuid)
    return outcome


def _person(person: schemas.PersonIn) -> tuple[Person, str]:
    values = {
        "full_name": person.full_name,
        "first_name": person.first_name,
        "last_name": person.last_name,
        "birth_date": person.birth_date,
        "nationality": person.nationality,
        "gender": person.gender,
        "national_identification_number": person.national_id,
        "national_identification_schema": person.national_id_schema,
    }
    if person.national_id:
        key = {"national_identification_schema": person.national_id_schema, "national_identification_number": person.national_id}
    else:
        key = {"full_name": person.full_name, "birth_date": person.birth_date}
    return _upsert(Person, key=key, values={k: v for k, v in values.items() if k not in key})


def payment_remark_write(record: schemas.PaymentRemarkRecord, company: uuid.UUID) -> str:
    case = None
    if record.case_reference:
        case = CollectionCase.objects.filter(debtor_company_id=company, case_reference=record.case_reference).first()
        if case is None:
            raise RowRejected(f"case_reference: no collection case {record.case_reference!r} for this company")
    _, outcome = _upsert(
        PaymentRemark,
        key={
            "company_id": company,
            "remark_type": record.remark_type,
            "registered_date": record.registered_date,
            "creditor_name": record.creditor_name,
            "amount": record.amount,
        },
        values={"currency_code": record.currency_code, "settled_date": record.settled_date, "collection_case": case},
    )
    return outcome


def collection_case_write(record: schemas.CollectionCaseRecord, company: uuid.UUID) -> str:
    _, outcome = _upsert(
        CollectionCase,
        key={"debtor_company_id": company, "case_reference": record.case_reference},
        values={
            "creditor_name": record.creditor_name,
            "amount": record.amount,
            "currency_code": record.currency_code,
            "opened_date": record.opened_date,
            "closed_date": record.closed_date,
            "status": record.status,
        },
    )
    return outcome


def _aware(moment: datetime | None) -> datetime | None:
    """A time without an offset is read in the service's time zone (Europe/Oslo)."""
    if moment is None or timezone.is_aware(moment):
        return moment
    return timezone.make_aware(moment)


def employment_write(record: schemas.EmploymentRecord, company: uuid.UUID) -> str:
    _, outcome = _upsert(
        CompanyEmployment,
        key={"company_id": company, "from_date": _aware(record.from_date)},
        values={
            "employee_count": record.employee_count,
            "employee_date": _aware(record.employee_date),
            "to_date": _aware(record.to_date),
            "employee_count_from": record.employee_count_from,
            "employee_count_to": record.employee_count_to,
        },
    )
    return outcome


# Roles are not here: role_write also reports the persons whose details changed (_record_write).
WRITERS = {
    "accounts": accounts_write,
    "payment_remark": payment_remark_write,
    "collection_case": collection_case_write,
    "employment": employment_write,
}
