"""Collection cases and payment remarks (spec §4.2 `collection-case-composite`; both need credit_check)."""

from __future__ import annotations

from datetime import date
from uuid import UUID

from ninja import Field, Schema

from service.companies import models as m
from service.companies.references import CompanyRef, company_part_url, company_ref, number


class PaymentRemarkOut(Schema):
    """A payment remark (needs the credit_check role)."""

    uuid: UUID
    company_uuid: UUID
    collection_case_uuid: UUID | None
    remark_type: str = Field(description="debt_collection, legal_collection or distraint")
    registered_date: date
    amount: float
    currency_code: str
    creditor_name: str
    settled_date: date | None
    settled_flag: bool



def payment_remark_out(remark: m.PaymentRemark) -> dict:
    return {
        "uuid": remark.uuid,
        "company_uuid": remark.company_id,
        "collection_case_uuid": remark.collection_case_id,
        "remark_type": remark.remark_type,
        "registered_date": remark.registered_date,
        "amount": number(remark.amount),
        "currency_code": remark.currency_code,
        "creditor_name": remark.creditor_name,
        "settled_date": remark.settled_date,
        "settled_flag": remark.settled_date is not None,
    }


class CollectionCaseOut(Schema):
    uuid: UUID
    debtor_company_uuid: UUID
    creditor_name: str
    case_reference: str
    amount: float
    currency_code: str
    opened_date: date
    closed_date: date | None
    collection_case_status_key: str = Field(description="open, settled, legal_collection or written_off")
    app_url: str | None


class CollectionCaseComposite(Schema):
    collection_case: CollectionCaseOut
    company_payment_remarks: list[PaymentRemarkOut] = Field(description="Payment remarks that came from the case")
    debtor_company: CompanyRef


def collection_case_composite_out(case: m.CollectionCase, company: m.Company) -> dict:
    return {
        "collection_case": {
            "uuid": case.uuid,
            "debtor_company_uuid": case.debtor_company_id,
            "creditor_name": case.creditor_name,
            "case_reference": case.case_reference,
            "amount": number(case.amount),
            "currency_code": case.currency_code,
            "opened_date": case.opened_date,
            "closed_date": case.closed_date,
            "collection_case_status_key": case.status,
            "app_url": company_part_url(company.uuid, "credit-risk"),
        },
        "company_payment_remarks": [payment_remark_out(r) for r in case.payment_remarks.all()],
        "debtor_company": company_ref(company),
    }

