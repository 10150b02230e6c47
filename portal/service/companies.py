"""Companies: register facts, credit risk, flags, employment, accounts, measures, sector benchmarks
(spec §4.2, §4.3, §4.6), as typed objects."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from portal.service.common import Area, CompanyRef, day, decimal_or_none, moment, path_segment

MEASURE_TYPES_TTL_SECONDS = 600  # a fixed catalogue: read once in a while, not on every company page


# --- the company page --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NaceCode:
    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Address:
    street: str
    postal_code: str
    postal_place: str
    municipality: str
    county: str

    @classmethod
    def from_json(cls, data: dict) -> Address:
        return cls(
            street=data.get("address") or "",
            postal_code=(data.get("geo_postal_code") or {}).get("code") or "",
            postal_place=(data.get("geo_postal_code") or {}).get("place_name") or "",
            municipality=(data.get("geo_municipality") or {}).get("name") or "",
            county=(data.get("geo_subdivision") or {}).get("name") or "",
        )


@dataclass(frozen=True, slots=True)
class RiskStatus:
    key: str
    description: str
    from_date: date | None

    @classmethod
    def from_json(cls, data: dict) -> RiskStatus:
        return cls(
            key=data.get("company_risk_status_type_key") or "",
            description=data.get("company_risk_status_type_description") or "",
            from_date=day(data.get("from_date")),
        )


@dataclass(frozen=True, slots=True)
class Company:
    uuid: UUID
    name: str
    org_nr: str
    org_nr_schema: str
    organization_type: str  # the form's name ("Aksjeselskap"), "" when unknown
    nace_codes: tuple[NaceCode, ...]
    business_address: Address | None
    employees: int | None
    registration_date: date | None
    risk_statuses: tuple[RiskStatus, ...]
    app_url: str | None

    @property
    def ref(self) -> CompanyRef:
        return CompanyRef(self.uuid, self.name, self.org_nr, self.org_nr_schema, self.app_url)

    @classmethod
    def from_json(cls, data: dict) -> Company:
        business = next((a for a in data.get("addresses") or [] if a.get("address_type_key") == "business"), None)
        return cls(
            uuid=UUID(str(data["uuid"])),
            name=data.get("name") or "",
            org_nr=data.get("org_nr") or "",
            org_nr_schema=data.get("org_nr_schema") or "",
            organization_type=(data.get("organization_type") or {}).get("name") or "",
            nace_codes=tuple(NaceCode(n.get("code") or "", n.get("name") or "") for n in data.get("nace_codes") or []),
            business_address=Address.from_json(business) if business else None,
            employees=data.get("employees"),
            registration_date=day(data.get("registration_date")),
            risk_statuses=tuple(RiskStatus.from_json(s) for s in data.get("company_risk_statuses") or []),
            app_url=data.get("app_url"),
        )


@dataclass(frozen=True, slots=True)
class RiskFactor:
    key: str
    value: Any  # number, boolean, key, list, or None when the input is missing
    points: int
    band: str | None


@dataclass(frozen=True, slots=True)
class PaymentRemark:
    """Only in answers to a caller holding `credit_check`."""

    uuid: UUID
    remark_type: str
    registered_date: date | None
    amount: Decimal | None
    currency_code: str
    creditor_name: str
    settled_date: date | None

    @classmethod
    def from_json(cls, data: dict) -> PaymentRemark:
        return cls(
            uuid=UUID(str(data["uuid"])),
            remark_type=data.get("remark_type") or "",
            registered_date=day(data.get("registered_date")),
            amount=decimal_or_none(data.get("amount")),
            currency_code=data.get("currency_code") or "",
            creditor_name=data.get("creditor_name") or "",
            settled_date=day(data.get("settled_date")),
        )


@dataclass(frozen=True, slots=True)
class CreditRisk:
    score: float | None
    risk_class: str | None
    factors: tuple[RiskFactor, ...]  # as the service sends them; fewer without the roles they need
    payment_remarks: tuple[PaymentRemark, ...]
    hidden_factor_count: int  # factors the service left out because they need a role the caller lacks
    model_version: str | None
    computed_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> CreditRisk:
        risk = data.get("company_credit_risk") or {}
        factors = risk.get("factors") or {}
        return cls(
            score=risk.get("risk_score"),
            risk_class=risk.get("risk_class"),
            factors=tuple(
                RiskFactor(key, f.get("value"), int(f.get("points") or 0), f.get("band"))
                for key, f in factors.items()
                if isinstance(f, dict)
            ),
            payment_remarks=tuple(PaymentRemark.from_json(r) for r in data.get("company_payment_remarks") or []),
            hidden_factor_count=len(risk.get("hidden_factors") or ()),
            model_version=risk.get("model_version"),
            computed_at=moment(risk.get("computed_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class Flag:
    uuid: UUID
    key: str
    description: str
    rank: int
    flag_date: datetime | None
    end_date: datetime | None
    evidence: tuple[tuple[str, Any], ...]  # (what, value), as the service recorded it; ids left out
    url: str | None

    @classmethod
    def from_json(cls, data: dict) -> Flag:
        flag, flag_type = data.get("company_flag") or {}, data.get("company_flag_type") or {}
        context = flag.get("flag_context") or {}
        return cls(
            uuid=UUID(str(data.get("uuid") or flag["uuid"])),
            key=flag_type.get("company_flag_type_key") or "",
            description=flag_type.get("company_flag_type_description") or "",
            rank=int(flag_type.get("flag_rank") or 0),
            flag_date=moment(flag.get("flag_date")),
            end_date=moment(flag.get("flag_end_date")),
            evidence=tuple((k, v) for k, v in context.items() if not k.endswith("uuid")),
            url=flag.get("flag_url"),
        )


@dataclass(frozen=True, slots=True)
class EmploymentPeriod:
    count: int | None
    from_date: datetime | None
    to_date: datetime | None
    reported_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> EmploymentPeriod:
        return cls(
            count=data.get("employee_count"),
            from_date=moment(data.get("from_date")),
            to_date=moment(data.get("to_date")),
            reported_at=moment(data.get("employee_date")),
        )


@dataclass(frozen=True, slots=True)
class Accounts:
    """One filed set of annual accounts, with the figures the dashboard shows."""

    uuid: UUID
    year: int | None
    type_key: str  # annual_company_accounts | annual_corporate_group_accounts
    replaced: bool  # replaced by corrected accounts
    total_operating_income: Decimal | None
    operating_result: Decimal | None
    result_before_tax: Decimal | None
    total_assets: Decimal | None
    total_equity: Decimal | None
    equity_ratio: float | None
    return_on_assets: float | None

    @property
    def is_group(self) -> bool:
        return self.type_key == "annual_corporate_group_accounts"

    @classmethod
    def from_json(cls, data: dict) -> Accounts:
        accounts = data.get("accounts") or {}
        income = data.get("accounts_income_statement") or {}
        balance = data.get("accounts_balance_sheet") or {}
        highlights = data.get("accounts_highlights") or {}
        return cls(
            uuid=UUID(str(accounts["uuid"])),
            year=accounts.get("accounting_year"),
            type_key=(data.get("accounts_type") or {}).get("accounts_type_key") or "",
            replaced=bool(accounts.get("replaced_by_accounts_uuid")),
            total_operating_income=decimal_or_none(income.get("total_operating_income")),
            operating_result=decimal_or_none(income.get("operating_result")),
            result_before_tax=decimal_or_none(income.get("result_before_tax")),
            total_assets=decimal_or_none(balance.get("total_assets")),
            total_equity=decimal_or_none(balance.get("total_equity")),
            equity_ratio=highlights.get("equity_ratio"),
            return_on_assets=highlights.get("return_on_assets"),
        )


@dataclass(frozen=True, slots=True)
class AuditorNote:
    year: int | None
    type_key: str
    type_description: str
    text: str

    @classmethod
    def from_json(cls, data: dict) -> AuditorNote:
        note = data.get("accounts_auditor_note") or {}
        note_type = data.get("accounts_auditor_note_type") or {}
        return cls(
            year=note.get("accounting_year") or (data.get("accounts") or {}).get("accounting_year"),
            type_key=note_type.get("accounts_auditor_note_type_key") or "",
            type_description=note_type.get("description") or "",
            text=note.get("auditor_note") or "",
        )


@dataclass(frozen=True, slots=True)
class CompanyPage:
    """Everything the company page shows, read in one go."""

    company: Company
    credit_risk: CreditRisk | None
    flags: tuple[Flag, ...]
    employment: tuple[EmploymentPeriod, ...]
    accounts: tuple[Accounts, ...]
    auditor_notes: tuple[AuditorNote, ...]


# --- search, measures, benchmarks ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SearchHit:
    company: CompanyRef
    organization_type_code: str
    municipality: str
    risk_class: str | None

    @classmethod
    def from_json(cls, data: dict) -> SearchHit:
        return cls(
            company=CompanyRef.from_json(data["company"]),
            organization_type_code=(data.get("organization_type") or {}).get("code") or "",
            municipality=(data.get("geo_municipality") or {}).get("name") or "",
            risk_class=(data.get("company_credit_risk") or {}).get("risk_class"),
        )


@dataclass(frozen=True, slots=True)
class MeasureType:
    key: str
    description: str
    unit: str  # ratio | NOK | count

    @classmethod
    def from_json(cls, data: dict) -> MeasureType:
        return cls(
            key=data["company_measure_type_key"],
            description=data.get("company_measure_type_description") or data["company_measure_type_key"],
            unit=data.get("unit") or "",
        )


@dataclass(frozen=True, slots=True)
class Bucket:
    """One bar of the sector histogram; `name` is a number, or null, underflow or overflow."""

    id: int
    name: str
    lower: float | None
    upper: float | None
    count: int

    @classmethod
    def from_json(cls, data: dict) -> Bucket:
        return cls(
            id=data["bucket_id"],
            name=str(data["bucket_name"]),
            lower=data.get("bucket_lower_bound"),
            upper=data.get("bucket_upper_bound"),
            count=data.get("company_count") or 0,
        )


@dataclass(frozen=True, slots=True)
class RankedValue:
    company: CompanyRef
    value: float | None

    @classmethod
    def from_json(cls, data: dict) -> RankedValue:
        return cls(CompanyRef.from_json(data["company"]), (data.get("company_measure_yearly") or {}).get("measure_value"))


@dataclass(frozen=True, slots=True)
class SectorStatistics:
    total_count: int
    not_null_count: int
    average: float | None
    median: float | None
    standard_deviation: float | None
    min: float | None
    max: float | None
    average_zero_imputed: float | None
    median_zero_imputed: float | None
    highest: tuple[RankedValue, ...]
    lowest: tuple[RankedValue, ...]

    @classmethod
    def from_json(cls, data: dict) -> SectorStatistics:
        return cls(
            total_count=data.get("total_count") or 0,
            not_null_count=data.get("not_null_count") or 0,
            average=data.get("average_value"),
            median=data.get("median_value"),
            standard_deviation=data.get("standard_deviation"),
            min=data.get("min_value"),
            max=data.get("max_value"),
            average_zero_imputed=data.get("average_zero_imputed"),
            median_zero_imputed=data.get("median_zero_imputed"),
            highest=tuple(RankedValue.from_json(r) for r in data.get("highest_company_measure_yearly_composites") or []),
            lowest=tuple(RankedValue.from_json(r) for r in data.get("lowest_company_measure_yearly_composites") or []),
        )


@dataclass(frozen=True, slots=True)
class SectorBenchmark:
    """A company among its peers for one measure and year; `statistics` None when the sector is empty."""

    measure: str
    year: int
    statistics: SectorStatistics | None
    buckets: tuple[Bucket, ...]
    own_value: float | None


# --- the area --------------------------------------------------------------------------------------

_measure_types: dict[str, tuple[float, tuple[MeasureType, ...]]] = {}  # base URL -> (read at, types)
_measure_types_lock = threading.Lock()


class CompaniesArea(Area):
    def get(self, identifier: str) -> Company:
        return Company.from_json(self.client.get("analysis", f"v1/company/{path_segment(identifier)}"))

    def page(self, identifier: str) -> CompanyPage:
        """The company page's six reads, gathered (at once against a remote service)."""
        base = f"v1/company/{path_segment(identifier)}"
        get = self.client.get
        company, risk, flags, employment, accounts, notes = self.client.gather(
            lambda: get("analysis", base),
            lambda: get("analysis", f"{base}/company-credit-risk-composite"),
            lambda: get("analysis", f"{base}/company-flag-composite"),
            lambda: get("analysis", f"{base}/company-employment"),
            lambda: get("analysis", f"{base}/accounts-composite"),
            lambda: get("analysis", f"{base}/accounts-auditor-note-composite"),
        )
        credit_risk = CreditRisk.from_json(risk[0]) if risk else None
        flags = tuple(Flag.from_json(f) for f in flags)
        return CompanyPage(
            company=Company.from_json(company),
            credit_risk=credit_risk,
            flags=flags,
            employment=tuple(EmploymentPeriod.from_json(e) for e in employment),
            accounts=tuple(Accounts.from_json(a) for a in accounts),
            auditor_notes=tuple(AuditorNote.from_json(n) for n in notes),
        )

    def search(self, query: str, *, limit: int = 20) -> list[SearchHit]:
        """By organisation number when the query is one, else by name: names that start with
        the query first, then names that contain it, each alphabetically (datasets API)."""
        text = query.strip()
        digits = text.replace(" ", "")
        if digits.isdigit():
            return self._hits({"company.org_nr": f"EQ:{digits}"}, limit)
        words = text.replace("%", "").replace("_", " ")
        starting = self._hits({"company.name": f"LIKE:{words}%"}, limit)
        containing = self._hits({"company.name": f"LIKE:%{words}%"}, limit) if len(starting) < limit else []
        seen: set[UUID] = set()
        ranked = []
        for group in (starting, containing):
            for hit in sorted(group, key=lambda h: h.company.name):
                if hit.company.uuid not in seen:
                    seen.add(hit.company.uuid)
                    ranked.append(hit)
        return ranked[:limit]

    def _hits(self, filters: dict, limit: int) -> list[SearchHit]:
        rows = self.client.get(
            "datasets",
            "v1/dataset/company-composite",
            params={
                **filters,
                "keep_only_fields": "company,organization_type,geo_municipality,company_credit_risk",
                "limit": limit,
                "response_file_type": "json",
            },
        )
        return [SearchHit.from_json(row) for row in rows]

    def measure_types(self) -> tuple[MeasureType, ...]:
        """The catalogue of measure types, kept for a few minutes per service."""
        key = self.client.base_url
        cached = _measure_types.get(key)
        if cached and time.monotonic() - cached[0] < MEASURE_TYPES_TTL_SECONDS:
            return cached[1]
        types = tuple(MeasureType.from_json(t) for t in self.client.get("analysis", "v1/company-measure-type"))
        with _measure_types_lock:
            _measure_types[key] = (time.monotonic(), types)
        return types

    def benchmark(self, identifier: str, *, measure: str, year: int, round_digits: int) -> SectorBenchmark:
        """The company's sector for a measure and year, and its own value (two reads, gathered)."""
        aggregate, own = self.client.gather(
            lambda: self.client.get(
                "analysis",
                "v1/sector-measure-yearly-aggregate-composite",
                params={
                    "measure_year": year,
                    "company_measure_type_identifier": measure,
                    "benchmark_company_identifier": identifier,
                    "round_digits": round_digits,
                },
            ),
            lambda: self.client.get(
                "analysis",
                "v1/company-measure-yearly-composite",
                params={"company_identifier": identifier, "measure_year": year, "company_measure_type_identifiers": [measure]},
            ),
        )
        first = aggregate[0] if aggregate else None
        return SectorBenchmark(
            measure=measure,
            year=year,
            statistics=SectorStatistics.from_json(first["sector_measure_yearly_aggregate"]) if first else None,
            buckets=tuple(Bucket.from_json(b) for b in (first or {}).get("company_measure_yearly_buckets") or []),
            own_value=own[0]["company_measure_yearly"]["measure_value"] if own else None,
        )
