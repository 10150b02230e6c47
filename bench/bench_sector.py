"""Benchmark: the sector aggregate over 1,000,000 company-year values on PostgreSQL.

Prints figures; it is not a test. It creates a scratch database (dropped and made
anew each run) unless DATABASE_URL points at a PostgreSQL database to use, loads
one sector with COPY, then times repeated calls of the aggregate beside the time
PostgreSQL itself takes for `percentile_cont` over the same filtered rows.

    .venv/bin/python bench/bench_sector.py                  # 1,000,000 rows, 20 calls
    .venv/bin/python bench/bench_sector.py --rows 200000 --calls 10
    .venv/bin/python bench/bench_sector.py --reuse          # keep the loaded scratch data
"""

from __future__ import annotations

import argparse
import base64
import os
import time
import uuid
from pathlib import Path

import numpy as np

from scratch_db import django_setup, scratch_database_url

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_DB = "vakt_sector_bench"
YEAR = 2024
MEASURE_KEY = "return_on_assets"
NULL_VALUE_SHARE = 0.02  # rows whose value is empty
MISSING_ROW_SHARE = 0.02  # companies in the sector with no row for the year
OTHER_SECTOR_COMPANIES = 100_000  # noise the filter must skip
COPY_NULL = "\\N"
URL = "/analysis/v1/sector-measure-yearly-aggregate-composite"


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000, help="company-year values in the sector")
    parser.add_argument("--calls", type=int, default=20, help="timed calls of each query")
    parser.add_argument("--reuse", action="store_true", help="reuse the scratch database if already loaded")
    return parser.parse_args()




def _reference_rows():
    """The sector, organisation type and address every benchmark company shares."""
    from service.companies import models as m

    country, _ = m.GeoCountry.objects.get_or_create(key="NO", defaults={"name": "Norway"})
    county, _ = m.GeoSubdivision.objects.get_or_create(
        key="NO-03", defaults={"country": country, "code": "03", "name": "Oslo"}
    )
    municipality, _ = m.GeoMunicipality.objects.get_or_create(
        key="NO-0301", defaults={"subdivision": county, "code": "0301", "name": "Oslo"}
    )
    postal_code, _ = m.GeoPostalCode.objects.get_or_create(
        key="NO-0150", defaults={"country": country, "municipality": municipality, "code": "0150"}
    )
    organization_type, _ = m.OrganizationType.objects.get_or_create(
        key="NO-AS", defaults={"code": "AS", "name": "Aksjeselskap"}
    )
    parent = None
    for level, (code, path) in enumerate(
        [("J", "J"), ("62", "J.62"), ("62.0", "J.62.0"), ("62.01", "J.62.0.1"), ("62.010", "J.62.0.1.0")], start=1
    ):
        parent, _ = m.NaceCode.objects.get_or_create(
            key=f"NO-{code}", defaults={"code": code, "level": level, "path": path, "name": code, "parent": parent}
        )
    sector = parent
    other_sector, _ = m.NaceCode.objects.get_or_create(
        key="NO-A", defaults={"code": "A", "level": 1, "path": "A", "name": "Agriculture"}
    )
    measure_type = m.CompanyMeasureType.objects.get(key=MEASURE_KEY)
    return {
        "country": country,
        "municipality": municipality,
        "postal_code": postal_code,
        "organization_type": organization_type,
        "sector": sector,
        "other_sector": other_sector,
        "measure_type": measure_type,
    }


def _copy(cursor, table: str, columns: list[str], lines: list[str]) -> None:
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for start in range(0, len(lines), 50_000):
            copy.write("".join(lines[start : start + 50_000]))


def _load(*, rows: int, refs: dict) -> None:
    """COPY `rows` sector company-year values (plus sector companies without a row, and noise)."""
    from django.db import connection, transaction

    rng = np.random.default_rng(2024)
    sector_companies = int(rows / (1 - MISSING_ROW_SHARE))
    total_companies = sector_companies + OTHER_SECTOR_COMPANIES
    company_uuids = [str(uuid.UUID(bytes=bytes(b))) for b in rng.integers(0, 256, (total_companies, 16), np.uint8)]
    now = "2025-01-01 00:00:00+00"
    fixed = (
        f"\t\t\t\t\tf\tf\tf\t{now}\t{now}\t{refs['country'].uuid}\t{refs['municipality'].uuid}"
        f"\t{refs['postal_code'].uuid}\t{refs['organization_type'].uuid}"
    )
    company_lines = [
        f"{company_uuids[i]}\t{800000000 + i}\tNO\tBench company {i}"
        f"\t{refs['sector'].uuid if i < sector_companies else refs['other_sector'].uuid}{fixed}\n"
        for i in range(total_companies)
    ]
    company_columns = [
        "uuid", "org_nr", "org_nr_schema", "name", "nace_code_1_id", "business_address", "postal_address",
        "website", "parent_org_nr", "is_bankrupt", "is_under_liquidation", "is_under_forced_dissolution",
        "create_timestamp", "update_timestamp", "business_country_id", "business_municipality_id",
        "business_postal_code_id", "organization_type_id",
    ]  # fmt: skip
    # A return on assets: mostly small ratios, a long tail both ways, 6 decimals as stored.
    values = np.round(rng.standard_t(3, total_companies) * 0.08 + 0.05, 6)
    empty = rng.random(total_companies) < NULL_VALUE_SHARE
    with_row = np.ones(total_companies, bool)
    with_row[rows:sector_companies] = False  # the sector's companies without a row this year
    measure_uuids = [str(uuid.UUID(bytes=bytes(b))) for b in rng.integers(0, 256, (total_companies, 16), np.uint8)]
    measure_lines = [
        f"{measure_uuids[i]}\t{YEAR}\t{COPY_NULL if empty[i] else f'{values[i]:.6f}'}\t{now}"
        f"\t{company_uuids[i]}\t{refs['measure_type'].uuid}\n"
        for i in np.flatnonzero(with_row)
    ]
    with transaction.atomic(), connection.cursor() as cursor:
        try:  # the rows are consistent by construction: skip the deferred foreign-key triggers (superuser only)
            with transaction.atomic():
                cursor.execute("SET LOCAL session_replication_role = replica")
        except Exception:
            pass
        raw = cursor.cursor  # psycopg's own cursor, for COPY
        _copy(raw, "service_companies_company", company_columns, company_lines)
        _copy(
            raw,
            "service_companies_companymeasureyearly",
            ["uuid", "measure_year", "measure_value", "update_timestamp", "company_id", "company_measure_type_id"],
            measure_lines,
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE service_companies_company")
        cursor.execute("ANALYZE service_companies_companymeasureyearly")


def _percentile_cont_sql(query) -> tuple[str, tuple]:
    """PostgreSQL's own percentile_cont over exactly the rows the service reads (same ORM SQL)."""
    from django.db.models import FilteredRelation, FloatField, Q
    from django.db.models.functions import Cast

    from service.companies.sector.aggregate import sector_companies

    rows = (
        sector_companies(query=query)
        .annotate(
            yearly=FilteredRelation(
                "measures",
                condition=Q(measures__company_measure_type=query.measure_type, measures__measure_year=query.measure_year),
            )
        )
        .values_list(Cast("yearly__measure_value", FloatField()), "uuid")
    )
    sql, params = rows.query.sql_with_params()
    fractions = f"ARRAY[{query.lower_percentile}, 0.5, {query.upper_percentile}]"
    return f"SELECT percentile_cont({fractions}) WITHIN GROUP (ORDER BY value) FROM ({sql}) AS f (value, company_uuid)", params


def _timed(function) -> tuple[float, object]:
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def _figures(seconds: list[float]) -> str:
    p50, p99 = np.percentile(seconds, [50, 99])
    return f"p50 {p50 * 1000:8.1f} ms   p99 {p99 * 1000:8.1f} ms   min {min(seconds) * 1000:8.1f} ms"


def main() -> None:
    args = _parse_args()
    database_url = scratch_database_url(SCRATCH_DB, reuse=args.reuse)
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection
    from django.test import Client

    from service.auth.services import api_user_create, app_customer_create
    from service.companies import models as m
    from service.companies.sector.aggregate import sector_aggregate
    from service.companies.sector.columns import measure_columns_fetch
    from service.companies.sector.aggregate import sector_companies
    from service.companies.sector.parameters import SectorParameters, sector_query_resolve

    refs = _reference_rows()
    if not m.CompanyMeasureYearly.objects.filter(measure_year=YEAR).exists():
        seconds, _ = _timed(lambda: _load(rows=args.rows, refs=refs))
        print(f"loaded {args.rows:,} company-year values (+ noise) with COPY in {seconds:.1f} s")

    credentials = api_user_create(
        app_customer=app_customer_create(name="Bench bank"), name="Bench API user", role_keys=[]
    )
    client = Client()
    auth = base64.b64encode(f"{credentials.basic_auth_id}:{credentials.basic_auth_secret}".encode()).decode()
    http_params = {
        "measure_year": YEAR,
        "company_measure_type_identifier": MEASURE_KEY,
        "nace_code_identifiers": "NO-62",  # the section's division: the 62.010 companies and none of the noise
        "round_digits": 3,
    }
    query = sector_query_resolve(parameters=SectorParameters(**http_params))
    baseline_sql, baseline_params = _percentile_cont_sql(query)

    def http_call():
        response = client.get(URL, http_params, HTTP_AUTHORIZATION=f"Basic {auth}")
        assert response.status_code == 200, response.content[:500]
        return response.json()[0]

    def baseline_call():
        with connection.cursor() as cursor:
            cursor.execute(baseline_sql, baseline_params)
            return cursor.fetchone()[0]

    def service_call():
        return sector_aggregate(query=query)

    def fetch_call():
        return measure_columns_fetch(
            companies=sector_companies(query=query), measure_type_uuid=query.measure_type.uuid, measure_year=YEAR
        )

    calls = {"endpoint (HTTP)": http_call, "service function": service_call, "one-pass fetch only": fetch_call,
             "PostgreSQL percentile_cont": baseline_call}  # fmt: skip
    for function in calls.values():  # warm the caches once
        function()
    load_before = os.getloadavg()
    seconds: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(args.calls):  # interleaved, so a busy neighbour slows every kind alike
        for name, function in calls.items():
            elapsed, _ = _timed(function)
            seconds[name].append(elapsed)
    load_after = os.getloadavg()

    body = http_call()
    aggregate = body["sector_measure_yearly_aggregate"]
    p_low, median, p_high = baseline_call()
    print(f"PostgreSQL {connection.pg_version // 10000}, {aggregate['total_count']:,} companies in the filtered set, "
          f"{aggregate['not_null_count']:,} with a value, {args.calls} calls each (interleaved)")  # fmt: skip
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} cores)")
    for name, values in seconds.items():
        print(f"  {name:28s} {_figures(values)}")
    endpoint_p50 = float(np.percentile(seconds["endpoint (HTTP)"], 50))
    baseline_p50 = float(np.percentile(seconds["PostgreSQL percentile_cont"], 50))
    endpoint_p99 = float(np.percentile(seconds["endpoint (HTTP)"], 99))
    baseline_p99 = float(np.percentile(seconds["PostgreSQL percentile_cont"], 99))
    print(f"ratio endpoint / percentile_cont: p50 {endpoint_p50 / baseline_p50:.2f}x, p99 {endpoint_p99 / baseline_p99:.2f}x "
          "(target: within 2x)")  # fmt: skip
    print(
        f"check: percentile_cont p10 {p_low:.6f} p50 {median:.6f} p90 {p_high:.6f}; service p10 "
        f"{aggregate['lower_percentile_value']} median {aggregate['median_value']} p90 {aggregate['upper_percentile_value']}"
    )


if __name__ == "__main__":
    main()
