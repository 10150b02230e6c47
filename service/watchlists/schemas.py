"""Request and response shapes of the watchlist endpoints (see /work CONTRACT: Watchlists)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

from ninja import Field, Schema
from pydantic import StringConstraints

from service.companies.references import app_url, company_ref_of_row
from service.companies.references import CompanyRef, number
from service.watchlists.selectors import MAX_COMPANIES_PER_REQUEST, WatchlistCompanyRow

WatchlistName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class WatchlistIn(Schema):
    watchlist_name: WatchlistName


class WatchlistOut(Schema):
    uuid: UUID
    app_customer_uuid: UUID
    watchlist_name: str
    company_count: int
    create_timestamp: datetime
    update_timestamp: datetime
    app_url: str | None


def watchlist_out(watchlist) -> dict:
    """`watchlist` carries `company_count` (annotated by the selector, or set by the service)."""
    return {
        "uuid": watchlist.uuid,
        "app_customer_uuid": watchlist.app_customer_id,
        "watchlist_name": watchlist.watchlist_name,
        "company_count": watchlist.company_count,
        "create_timestamp": watchlist.create_timestamp,
        "update_timestamp": watchlist.update_timestamp,
        "app_url": app_url(f"/watchlists/{watchlist.uuid}/"),
    }


class WatchlistCompanyIn(Schema):
    """One company to add: `{"org_nr": "912345678", "org_nr_schema": "NO"}` (spaces allowed)."""

    org_nr: str = Field(description="Organisation number; spaces and separators are ignored")
    org_nr_schema: str = Field(description="Country schema: NO, SE, DK or FI")


ADD_BODY_DOC = (
    f"A JSON array of at most {MAX_COMPANIES_PER_REQUEST:,} `{{org_nr, org_nr_schema}}`; numbers are checked "
    "with python-stdnum and must be in the register. All or nothing: a 400 lists every bad entry "
    '(`errors[].loc = ["body", <index>, "org_nr" | "org_nr_schema"]`) and changes nothing.'
)


class CreditRiskBrief(Schema):
    risk_score: float | None = Field(
        description="0-100, higher is riskier; without credit_check computed without the payment-remark factors"
    )
    risk_class: str | None = Field(description="very_low, low, medium, high, very_high: the class of risk_score")


class WatchlistCompanyOut(Schema):
    uuid: UUID = Field(description="The membership's uuid")
    watchlist_uuid: UUID
    added_timestamp: datetime
    company: CompanyRef
    company_credit_risk: CreditRiskBrief | None = Field(description="null until the risk is computed")
    company_flag_type_keys: list[str] = Field(
        description="Active flags, most severe first; role-protected ones (payment_remarks: credit_check) only with the role"
    )


def watchlist_company_out(row: WatchlistCompanyRow) -> dict:
    return {
        "uuid": row.uuid,
        "watchlist_uuid": row.watchlist_uuid,
        "added_timestamp": row.added_timestamp,
        "company": company_ref_of_row(row.company),
        "company_credit_risk": (
            None
            if row.risk_class is None
            else {"risk_score": number(row.risk_score), "risk_class": row.risk_class}
        ),
        "company_flag_type_keys": row.flag_type_keys,
    }


class AddCompaniesOut(Schema):
    added_count: int = Field(description="Companies this request added")
    ignored_count: int = Field(description="Entries already on the watchlist or repeated in the body")
    company_count: int = Field(description="Companies on the watchlist afterwards")


class ReplaceCompaniesOut(Schema):
    added_count: int = Field(description="Companies this request added")
    removed_count: int = Field(description="Companies this request removed (those the body does not name)")
    kept_count: int = Field(description="Companies the body names that were already on the watchlist")
    company_count: int = Field(description="Companies on the watchlist afterwards")


class RemovedOut(Schema):
    removed_count: int
