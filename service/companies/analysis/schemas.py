"""Output shapes of what the analysis computed (spec §4.2 credit risk and flags, §4.3 company
measures), with the functions that fill them from the selectors' model instances."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from ninja import Field, Schema

from service.companies import models as m
from service.companies.analysis.credit_risk import HIDDEN_FACTOR_NOTE
from service.companies.analysis.selectors import ActiveFlag, CreditRiskView
from service.companies.references import CompanyRef, app_url, company_part_url, company_ref, number
from service.companies.register.schemas.collection_cases import PaymentRemarkOut, payment_remark_out
from service.companies.register.schemas.company import CompanyRiskStatusOut, risk_status_out

# --- credit risk ---------------------------------------------------------------------------------


class CreditRiskFactorOut(Schema):
    value: Any = Field(description="The input the factor scored (number, boolean, key, list or null when missing)")
    points: int = Field(description="Points added to the linear predictor (positive is riskier)")
    band: str | None = Field(description="The band of the input that gave the points")


class CompanyCreditRiskOut(Schema):
    company_uuid: UUID
    risk_score: float | None = Field(
        description=(
            "0-100, higher is riskier: 100 / (1 + exp(-P / 10)), P the sum of the points of `factors` as "
            "returned (100 with a bankrupt, forced_dissolution, liquidated or deleted status). Without "
            "credit_check the payment-remark factors are left out of both, so the score says nothing of "
            "payment remarks; null until analysed"
        )
    )
    risk_class: str | None = Field(
        description="very_low (<20), low (<40), medium (<60), high (<80), very_high: the class of risk_score"
    )
    has_company_risk_status: bool
    company_risk_statuses: list[CompanyRiskStatusOut] = Field(description="Active risk statuses")
    company_risk_status_history: list[CompanyRiskStatusOut] = Field(description="Every status period, newest first")
    factors: dict[str, CreditRiskFactorOut] = Field(
        description=(
            "Each factor's input value and points (extension). Factors whose input needs a role the caller "
            "did not send (the payment remarks' count and amount: credit_check) are left out, and the score is "
            "computed without them; see hidden_factors"
        )
    )
    hidden_factors: list[str] = Field(
        description=(
            "Keys of the factors left out for a missing role; the score and class leave them out too (extension)"
        )
    )
    hidden_factor_note: str | None = Field(
        description="Why factors are missing, when some are; null when every factor is shown (extension)"
    )
    model_version: str | None = Field(description="Version of the scoring model (extension)")
    computed_timestamp: datetime | None = Field(description="When the score was computed (extension)")


class CompanyCreditRiskComposite(Schema):
    company_credit_risk: CompanyCreditRiskOut
    company_payment_remarks: list[PaymentRemarkOut] = Field(
        description="All payment remarks, newest first; empty unless the caller holds credit_check"
    )
    company: CompanyRef



def credit_risk_composite_out(view: CreditRiskView) -> dict:
    company, risk = view.company, view.credit_risk
    history = [risk_status_out(status, status_type) for status, status_type in view.risk_statuses]
    active = [s for s in history if s["active_flag"]]
    return {
        "company_credit_risk": {
            "company_uuid": company.uuid,
            "risk_score": number(risk.risk_score) if risk else None,
            "risk_class": risk.risk_class if risk else None,
            "has_company_risk_status": bool(active),
            "company_risk_statuses": active,
            "company_risk_status_history": history,
            "factors": view.factors,
            "hidden_factors": view.hidden_factors,
            "hidden_factor_note": (
                HIDDEN_FACTOR_NOTE.format(factors=", ".join(view.hidden_factors)) if view.hidden_factors else None
            ),
            "model_version": risk.model_version if risk else None,
            "computed_timestamp": risk.computed_at if risk else None,
        },
        "company_payment_remarks": [payment_remark_out(remark) for remark in view.payment_remarks or ()],
        "company": company_ref(company),
    }


# --- flags -------------------------------------------------------------------------------------------


class CompanyFlagOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_flag_type_uuid: UUID
    flag_date: datetime = Field(description="When the condition began (the evidence's date)")
    flag_context: dict[str, Any] = Field(description="The evidence, e.g. {accounting_year, total_equity}")
    flag_url: str = Field(description="Where the evidence is shown in the dashboard")
    flag_end_date: datetime | None = Field(description="When the flag ends or ended; null while open-ended")
    app_url: str | None


class CompanyFlagTypeOut(Schema):
    uuid: UUID
    company_flag_type_key: str
    company_flag_type_description: str
    app_hidden_flag: bool
    default_lookback_days: int | None
    flag_rank: int = Field(description="1 is the most severe")
    app_feature_uuid: UUID | None
    app_role_uuid: UUID | None = Field(description="The role needed to see flags of this type, if any")
    persist_flag: bool = Field(description="Flags of this type stay once raised")
    app_icon_uuid: UUID | None
    default_flag_end_days: int | None
    app_url: str | None


class CompanyFlagComposite(Schema):
    uuid: UUID = Field(description="The flag's uuid")
    company: CompanyRef
    company_flag: CompanyFlagOut
    company_flag_type: CompanyFlagTypeOut
    app_url: str | None




def flag_type_out(flag_type: m.CompanyFlagType, required_role_uuid: UUID | None) -> dict:
    return {
        "uuid": flag_type.uuid,
        "company_flag_type_key": flag_type.key,
        "company_flag_type_description": flag_type.description,
        "app_hidden_flag": flag_type.app_hidden_flag,
        "default_lookback_days": flag_type.default_lookback_days,
        "flag_rank": flag_type.flag_rank,
        "app_feature_uuid": None,
        "app_role_uuid": required_role_uuid,
        "persist_flag": flag_type.persist_flag,
        "app_icon_uuid": None,
        "default_flag_end_days": flag_type.default_flag_end_days,
        "app_url": None,
    }


def flag_composite_out(active: ActiveFlag, company: m.Company) -> dict:
    flag = active.flag
    url = company_part_url(company.uuid, "flags")
    return {
        "uuid": flag.uuid,
        "company": company_ref(company),
        "company_flag": {
            "uuid": flag.uuid,
            "company_uuid": company.uuid,
            "company_flag_type_uuid": flag.company_flag_type_id,
            "flag_date": flag.flag_date,
            "flag_context": flag.flag_context,
            "flag_url": app_url(flag.flag_url) if flag.flag_url else url,
            "flag_end_date": flag.flag_end_date,
            "app_url": url,
        },
        "company_flag_type": flag_type_out(active.flag_type, active.required_role.uuid if active.required_role else None),
        "app_url": url,
    }


# --- measures -------------------------------------------------------------------------------------------------


class CompanyMeasureTypeOut(Schema):
    uuid: UUID
    company_measure_type_key: str = Field(description="Identifier of the measure, e.g. return_on_assets")
    company_measure_type_description: str | None
    unit: str = Field(description="NOK, ratio or count (extension)")
    app_url: str | None


class CompanyMeasureYearlyOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_measure_type_uuid: UUID
    measure_year: int
    measure_value: float | None = Field(description="Null when the company's accounts lack an input")
    app_url: str | None


class CompanyMeasureYearlyComposite(Schema):
    uuid: UUID = Field(description="The yearly measure's uuid")
    company_measure_yearly: CompanyMeasureYearlyOut
    company_measure_type: CompanyMeasureTypeOut


def measure_type_out(measure_type: m.CompanyMeasureType) -> dict:
    return {
        "uuid": measure_type.uuid,
        "company_measure_type_key": measure_type.key,
        "company_measure_type_description": measure_type.description or None,
        "unit": measure_type.unit,
        "app_url": None,
    }


def measure_composite_out(measure: m.CompanyMeasureYearly) -> dict:
    return {
        "uuid": measure.uuid,
        "company_measure_yearly": {
            "uuid": measure.uuid,
            "company_uuid": measure.company_id,
            "company_measure_type_uuid": measure.company_measure_type_id,
            "measure_year": measure.measure_year,
            "measure_value": number(measure.measure_value),
            "app_url": company_part_url(measure.company_id, f"measures-{measure.measure_year}"),
        },
        "company_measure_type": measure_type_out(measure.company_measure_type),
    }

