"""Benchmark: a config following a watchlist of N companies (service/screening/subscription.py).

Prints figures; it is not a test. On a fresh scratch database (PostgreSQL: DATABASE_URL
when it names PostgreSQL, else `vakt_subscription_bench` on 127.0.0.1, made anew; or
SQLite in a temporary directory):

1. data: N companies, each 60% held by its own holding company that one person holds 80%
   of (a beneficial owner through a chain of two links), and a board chair;
2. the first sync of an auto-approve config, in the task's batches (200 companies), as
   the Celery task runs it: 2 monitorings per company (the owner and the company itself),
   each with its auto_approve decision;
3. the second sync of the same companies (nothing changed, nothing written): the
   idempotent re-run a redelivered task or a config change costs;
4. the baseline: `persons_to_screen` alone for the same companies (the ownership reads
   every sync needs), so the ratio shows what the monitoring writes add.

    .venv/bin/python bench/bench_watchlist_subscription.py --database postgres --companies 2000
"""

from __future__ import annotations

import argparse
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_subscription_bench"


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="postgres")
    parser.add_argument("--companies", type=int, default=2_000)
    return parser.parse_args()


def _register(count: int):
    from service.companies.models import Company, CompanyRole, CompanyRoleType, Person

    shareholder = CompanyRoleType.objects.get(key="shareholder")
    chair = CompanyRoleType.objects.get(key="board_chair")
    companies = [Company(org_nr=f"8{i:08d}", name=f"Kunde {i} AS") for i in range(count)]
    holdings = [Company(org_nr=f"7{i:08d}", name=f"Holding {i} AS") for i in range(count)]
    owners = [Person(full_name=f"Eier Nummer {i}") for i in range(count)]
    chairs = [Person(full_name=f"Styre Leder {i}") for i in range(count)]
    Company.objects.bulk_create(companies + holdings, batch_size=2000)
    Person.objects.bulk_create(owners + chairs, batch_size=2000)
    roles = []
    for company, holding, owner, leader in zip(companies, holdings, owners, chairs):
        roles.append(CompanyRole(company=company, company_role_type=shareholder, holder_company=holding, share_percentage=Decimal(60)))
        roles.append(CompanyRole(company=holding, company_role_type=shareholder, holder_person=owner, share_percentage=Decimal(80)))
        roles.append(CompanyRole(company=company, company_role_type=chair, holder_person=leader))
    CompanyRole.objects.bulk_create(roles, batch_size=2000)
    return companies


class _QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _batches(items, size):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def main() -> None:
    args = _parse_args()
    if args.database == "postgres":
        database_url = scratch_database_url(SCRATCH_DB, reuse=False)
    else:
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='vakt-sub-bench-')) / 'db.sqlite3'}"
    django_setup(database_url)
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from service.auth.services import app_customer_create
    from service.companies.ownership import persons_to_screen
    from service.screening.config_services import config_create
    from service.screening.models import EntityMonitoring, ScreeningConfigWatchlist
    from service.screening.subscription import SYNC_BATCH, config_companies_sync
    from service.watchlists.models import Watchlist, WatchlistCompany

    organisation = app_customer_create(name="Bench Bank ASA")
    companies = _register(args.companies)
    config = config_create(
        app_customer_uuid=organisation.uuid, suggestion_setting=None,
        auto_approve_monitoring_flag=True, subscribe_to_email_notifications_flag=False,
    )
    watchlist = Watchlist.objects.create(app_customer=organisation, watchlist_name="Kunder")
    WatchlistCompany.objects.bulk_create([WatchlistCompany(watchlist=watchlist, company=c) for c in companies], batch_size=2000)
    ScreeningConfigWatchlist.objects.create(screening_config=config, watchlist=watchlist)
    ids = [c.uuid for c in companies]

    started = time.perf_counter()
    for batch in _batches(ids, 200):
        [persons_to_screen(company_uuid=u, setting_key="enin_calculated_beneficial_owners") for u in batch]
    baseline = time.perf_counter() - started

    counter = _QueryCounter()
    with connection.execute_wrapper(counter):
        started = time.perf_counter()
        for batch in _batches(ids, SYNC_BATCH):
            config_companies_sync(config_uuid=config.uuid, company_uuids=batch)
        first = time.perf_counter() - started
    first_queries, counter.count = counter.count, 0
    with connection.execute_wrapper(counter):
        started = time.perf_counter()
        for batch in _batches(ids, SYNC_BATCH):
            result = config_companies_sync(config_uuid=config.uuid, company_uuids=batch)
            assert result.created == result.removed == result.updated == 0
        second = time.perf_counter() - started
    second_queries = counter.count

    monitorings = EntityMonitoring.objects.filter(screening_config=config, removed_flag=False).count()
    n = args.companies
    print(f"database: {connection.vendor}; companies: {n}; monitorings made: {monitorings}")
    print(f"persons_to_screen alone : {baseline:7.2f} s  ({n / baseline:7.0f} companies/s)")
    print(f"first sync (creates)    : {first:7.2f} s  ({n / first:7.0f} companies/s, {monitorings / first:7.0f} monitorings/s, "
          f"{first_queries / n:.1f} queries/company)  = {first / baseline:.2f}x persons_to_screen")
    print(f"second sync (no change) : {second:7.2f} s  ({n / second:7.0f} companies/s, {second_queries / n:.1f} queries/company)"
          f"  = {second / baseline:.2f}x persons_to_screen")


if __name__ == "__main__":
    main()
