"""Client calls for company data, measures and sector benchmarks (spec §4.2, §4.3, §4.6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from portal.service.client import ServiceClient


def _path_id(identifier: str) -> str:
    return quote(str(identifier), safe="")


class CompaniesApi:
    def __init__(self, client: ServiceClient) -> None:
        self.client = client

    def get(self, identifier: str) -> dict:
        return self.client.get("analysis", f"v1/company/{_path_id(identifier)}")

    def credit_risk(self, identifier: str) -> dict | None:
        rows = self.client.get("analysis", f"v1/company/{_path_id(identifier)}/company-credit-risk-composite")
        return rows[0] if rows else None

    def flags(self, identifier: str) -> list[dict]:
        return self.client.get("analysis", f"v1/company/{_path_id(identifier)}/company-flag-composite")

    def employment(self, identifier: str) -> list[dict]:
        return self.client.get("analysis", f"v1/company/{_path_id(identifier)}/company-employment")

    def accounts(
        self, identifier: str, *, years: Sequence[int] | None = None, accounts_type: str | None = None
    ) -> list[dict]:
        return self.client.get(
            "analysis",
            f"v1/company/{_path_id(identifier)}/accounts-composite",
            params={"accounting_years": years, "accounts_type_identifier": accounts_type},
        )

    def auditor_notes(self, identifier: str) -> list[dict]:
        return self.client.get("analysis", f"v1/company/{_path_id(identifier)}/accounts-auditor-note-composite")

    def roles(self, identifier: str) -> list[dict]:
        return self.client.get("analysis", "v1/company-role", params={"company_identifier": identifier})

    def search(self, query: str, *, limit: int = 20) -> list[dict]:
        """By organisation number when the query is one, else by name: names that start with
        the query first, then names that contain it, each alphabetically (datasets API)."""
        text = query.strip()
        digits = text.replace(" ", "")
        if digits.isdigit():
            return self._company_rows({"company.org_nr": f"EQ:{digits}"}, limit)
        words = text.replace("%", "").replace("_", " ")
        starting = self._company_rows({"company.name": f"LIKE:{words}%"}, limit)
        containing = self._company_rows({"company.name": f"LIKE:%{words}%"}, limit) if len(starting) < limit else []
        seen: set[str] = set()
        ranked = []
        for group in (starting, containing):
            for row in sorted(group, key=lambda r: r["company"]["name"]):
                if row["company"]["uuid"] not in seen:
                    seen.add(row["company"]["uuid"])
                    ranked.append(row)
        return ranked[:limit]

    def _company_rows(self, filters: dict, limit: int) -> list[dict]:
        return self.client.get(
            "datasets",
            "v1/dataset/company-composite",
            params={
                **filters,
                "keep_only_fields": "company,organization_type,geo_municipality,company_credit_risk",
                "limit": limit,
                "response_file_type": "json",
            },
        )

    def measure_types(self) -> list[dict]:
        return self.client.get("analysis", "v1/company-measure-type")

    def measures(self, identifier: str, *, year: int | None = None, types: Sequence[str] | None = None) -> list[dict]:
        return self.client.get(
            "analysis",
            "v1/company-measure-yearly-composite",
            params={"company_identifier": identifier, "measure_year": year, "company_measure_type_identifiers": types},
        )

    def sector_aggregate(self, **params: Any) -> dict | None:
        rows = self.client.get("analysis", "v1/sector-measure-yearly-aggregate-composite", params=params)
        return rows[0] if rows else None
