"""The JSON-lines record types (docs/importers.md), validated with pydantic.

Statement fields are taken from the models, so a field added to
AccountsIncomeStatement or AccountsBalanceSheet is importable at once; unknown
fields are refused (a typo must not silently drop a figure).
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Literal

from django.db.models import DecimalField
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model, model_validator

from service.companies import catalog
from service.companies.models import AccountsBalanceSheet, AccountsIncomeStatement

Money = Annotated[Decimal, Field(max_digits=20, decimal_places=2)]
OrgNr = Annotated[str, Field(pattern=r"^\d{9}$")]
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    org_nr: OrgNr
    org_nr_schema: Literal["NO"] = "NO"


def _statement(name: str, model) -> type[BaseModel]:
    fields = {f.name: (Money | None, None) for f in model._meta.fields if isinstance(f, DecimalField)}
    return create_model(name, __config__=ConfigDict(extra="forbid"), **fields)


IncomeStatement = _statement("IncomeStatement", AccountsIncomeStatement)
BalanceSheet = _statement("BalanceSheet", AccountsBalanceSheet)
STATEMENT_FIELDS = {"income_statement": list(IncomeStatement.model_fields), "balance_sheet": list(BalanceSheet.model_fields)}


class AuditorNote(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal[tuple(catalog.AUDITOR_NOTE_TYPES)]  # type: ignore[valid-type]
    note: str = Field(min_length=1)


class AccountsRecord(Record):
    type: Literal["accounts"]
    accounting_year: int = Field(ge=1900, le=2100)
    accounts_type: Literal[tuple(catalog.ACCOUNTS_TYPES)]  # type: ignore[valid-type]
    accounting_announcement_date: date
    accounting_from_date: date | None = None
    accounting_to_date: date | None = None
    accounting_schema: str = Field("NO-GAAP", max_length=30)
    currency_code: Currency = "NOK"
    audited: bool = True
    estimated_accounting_period: bool = False
    replaces_previous: bool = False
    income_statement: IncomeStatement = Field(default_factory=IncomeStatement)  # type: ignore[valid-type]
    balance_sheet: BalanceSheet = Field(default_factory=BalanceSheet)  # type: ignore[valid-type]
    auditor_notes: list[AuditorNote] = Field(default_factory=list)


class PersonIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    full_name: str = Field(min_length=1, max_length=300)
    first_name: str = Field("", max_length=150)
    last_name: str = Field("", max_length=150)
    birth_date: date | None = None
    nationality: str = Field("", pattern=r"^([a-z]{2})?$")
    gender: Literal["male", "female", ""] = ""
    national_id: str = Field("", max_length=20)
    national_id_schema: str = Field("", max_length=4)


class RoleRecord(Record):
    type: Literal["role"]
    role_type: Literal[tuple(catalog.ROLE_TYPES)]  # type: ignore[valid-type]
    person: PersonIn | None = None
    holder_org_nr: OrgNr | None = None
    share_percentage: Decimal | None = Field(None, gt=0, le=100, max_digits=7, decimal_places=4)
    from_date: date | None = None
    to_date: date | None = None

    @model_validator(mode="after")
    def _one_holder(self):
        if (self.person is None) == (self.holder_org_nr is None):
            raise ValueError("give exactly one holder: person or holder_org_nr")
        return self


class PaymentRemarkRecord(Record):
    type: Literal["payment_remark"]
    remark_type: Literal["debt_collection", "legal_collection", "distraint"]
    registered_date: date
    amount: Money
    currency_code: Currency = "NOK"
    creditor_name: str = Field("", max_length=300)
    settled_date: date | None = None
    case_reference: str = Field("", max_length=100)


class CollectionCaseRecord(Record):
    type: Literal["collection_case"]
    case_reference: str = Field(min_length=1, max_length=100)
    creditor_name: str = Field(min_length=1, max_length=300)
    amount: Money
    currency_code: Currency = "NOK"
    opened_date: date
    closed_date: date | None = None
    status: Literal["open", "settled", "legal_collection", "written_off"] = "open"


class EmploymentRecord(Record):
    type: Literal["employment"]
    employee_count: int = Field(ge=0)
    employee_date: datetime | None = None
    from_date: datetime
    to_date: datetime | None = None
    employee_count_from: int | None = Field(None, ge=0)
    employee_count_to: int | None = Field(None, ge=0)


AnyRecord = TypeAdapter(
    Annotated[
        AccountsRecord | RoleRecord | PaymentRemarkRecord | CollectionCaseRecord | EmploymentRecord,
        Field(discriminator="type"),
    ]
)
