"""Benchmark: adding 10,000 companies to a watchlist in one request, against a bare bulk_create.

Prints figures; it is not a test. In one run, on a fresh scratch database (SQLite in a
temporary directory, or PostgreSQL: DATABASE_URL when it names PostgreSQL, else the
database `vakt_watchlist_bench` on 127.0.0.1, made anew):

1. data: --register companies (default 20,000) bulk-inserted with valid org numbers;
2. the request: POST /analysis/v1/watchlist/{uuid}/company with --companies entries
   (default 10,000) through the real URL with Django's test client (basic auth, the
   whole middleware stack), into a fresh watchlist each round;
3. the baseline: `WatchlistCompany.objects.bulk_create` of the same rows into a fresh
   watchlist, in a transaction like the request's;
4. the request's parts timed alone: reading the body against the register (stdnum and
   the lookups), and the insert (INSERT ... ON CONFLICT DO NOTHING RETURNING);
5. for scale, the GET of the filled watchlist's company composites.

Rounds alternate the two so that the machine's other load falls on both alike; the
medians and their ratio are printed (target: the request within 3x of the baseline).

    .venv/bin/python bench/bench_watchlist_add.py --database sqlite
    .venv/bin/python bench/bench_watchlist_add.py --database postgres --rounds 7
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_watchlist_bench"


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--companies", type=int, default=10_000, help="entries in the request")
    parser.add_argument("--register", type=int, default=20_000, help="companies in the register")
    parser.add_argument("--rounds", type=int, default=5)
    return parser.parse_args()


def _org_numbers(count: int) -> list[str]:
    from stdnum.no import orgnr

    found, serial = [], 0
    while len(found) < count:
        base = f"8{serial:07d}"
        serial += 1
        for digit in "0123456789":
            if orgnr.is_valid(base + digit):
                found.append(base + digit)
                break
    return found


def _timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    args = _parse_args()
    if args.database == "sqlite":
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='vakt-bench-')) / 'bench.sqlite3'}"
    else:
        database_url = scratch_database_url(SCRATCH_DB, reuse=False)
    os.environ.setdefault("VAKT_RATE_LIMIT_PER_MINUTE", "0")
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import setup_test_environment

    from service.auth.services import api_user_create, app_customer_create
    from service.companies.models import Company
    from service.watchlists import selectors, services
    from service.watchlists.models import WatchlistCompany

    setup_test_environment()  # the test client's host is allowed
    org_numbers = _org_numbers(args.register)
    Company.objects.bulk_create(
        [Company(org_nr=org_nr, name=f"Benk {i} AS") for i, org_nr in enumerate(org_numbers)], batch_size=2000
    )
    chosen = org_numbers[:: max(1, args.register // args.companies)][: args.companies]
    body = [{"org_nr": org_nr, "org_nr_schema": "NO"} for org_nr in chosen]
    payload = json.dumps(body)
    company_uuids = list(Company.objects.filter(org_nr__in=chosen).values_list("uuid", flat=True))
    assert len(company_uuids) == args.companies
    print(
        f"{connection.vendor}: register {args.register:,} companies; request of {args.companies:,} entries, "
        f"{len(payload):,} bytes; {args.rounds} rounds"
    )

    credentials = api_user_create(app_customer=app_customer_create(name="Bench bank"), name="Bench", role_keys=[])
    customer = credentials.api_user.app_customer_id
    auth = base64.b64encode(f"{credentials.basic_auth_id}:{credentials.basic_auth_secret}".encode()).decode()
    client = Client()

    filled: list = []

    def request_round() -> float:
        watchlist = services.watchlist_create(app_customer_uuid=customer, watchlist_name="Benk")
        filled.append(watchlist.uuid)
        url = f"/analysis/v1/watchlist/{watchlist.uuid}/company"

        def post():
            response = client.post(url, payload, content_type="application/json", HTTP_AUTHORIZATION=f"Basic {auth}")
            assert response.status_code == 200, response.content[:500]
            assert response.json()["added_count"] == args.companies

        return _timed(post)

    def baseline_round() -> float:
        watchlist = services.watchlist_create(app_customer_uuid=customer, watchlist_name="Grunnlinje")

        def insert():
            with transaction.atomic():
                WatchlistCompany.objects.bulk_create(
                    [WatchlistCompany(watchlist=watchlist, company_id=company_uuid) for company_uuid in company_uuids]
                )

        return _timed(insert)

    def parts_round() -> tuple[float, float]:
        watchlist = services.watchlist_create(app_customer_uuid=customer, watchlist_name="Deler")
        resolved: list = []
        resolve = _timed(lambda: resolved.extend(selectors.company_entries_resolve(entries=json.loads(payload))))

        def insert():
            with transaction.atomic():
                services._insert_ignoring_present(watchlist, resolved)

        return resolve, _timed(insert)

    request_round(), baseline_round()  # warm-up: imports, connections, caches
    requests, baselines, resolves, inserts = [], [], [], []
    for round_number in range(args.rounds):
        if round_number % 2:
            baselines.append(baseline_round())
            requests.append(request_round())
        else:
            requests.append(request_round())
            baselines.append(baseline_round())
        resolve, insert = parts_round()
        resolves.append(resolve)
        inserts.append(insert)

    request, baseline = statistics.median(requests), statistics.median(baselines)
    print(f"POST {args.companies:,} companies (real URL): median {request * 1000:7.1f} ms  (rounds: "
          + ", ".join(f"{t * 1000:.0f}" for t in requests) + ")")
    print(f"bare bulk_create of the same rows:        median {baseline * 1000:7.1f} ms  (rounds: "
          + ", ".join(f"{t * 1000:.0f}" for t in baselines) + ")")
    print(f"  of the request: body against the register {statistics.median(resolves) * 1000:.1f} ms, "
          f"insert ON CONFLICT DO NOTHING RETURNING {statistics.median(inserts) * 1000:.1f} ms")
    print(f"ratio request / bulk_create: {request / baseline:.2f}x (target: within 3x)")

    def listing():
        response = client.get(f"/analysis/v1/watchlist/{filled[-1]}/company", HTTP_AUTHORIZATION=f"Basic {auth}")
        assert response.status_code == 200 and len(response.json()) == args.companies

    listings = [_timed(listing) for _ in range(3)]
    print(f"GET the {args.companies:,}-company watchlist's composites: median {statistics.median(listings) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
