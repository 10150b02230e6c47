"""Benchmark: the company endpoints under concurrent load from a real multi-process server.

Prints figures; it is not a test. Against PostgreSQL (DATABASE_URL when it names
PostgreSQL, else the database `vakt_company_bench` on 127.0.0.1, created if missing):

1. data: `generate_demo` companies with accounts, roles, remarks, statuses and
   employment (--rich, default 20,000, analysis included), then minimal companies
   inserted with COPY until the register holds --companies (default 1,000,000),
   each with the credit risk and flags of one of them analysed (copied in SQL), so
   the analysis tables are as large as the register; a re-run reuses what is there
   (1,000,000 with --rich 5000: about 9 minutes the first time on the shared 2-core machine);
2. server: gunicorn on 127.0.0.1 (--workers processes x --threads threads) serving
   the project's WSGI application with bench/bench_company_api_settings.py: the
   project's URLs plus a minimal JSON view (no auth, no database) at /bench/minimal,
   rate limit off;
3. load: --clients processes x --client-threads threads of `requests` sessions,
   each endpoint for at most --seconds or --requests, whichever comes first, over
   random analysed companies (basic auth, with `Nk-Role-Keys: credit_check`):
   GET /analysis/v1/company/{id}, .../company-credit-risk-composite,
   .../accounts-composite, .../company-flag-composite, plus /analysis/v1/auth-status
   (auth alone) and the minimal view. After a warm-up of each, the endpoints are
   measured in turn in --rounds rounds, each round with its share of the time and
   requests, so that a change in the machine's other load falls on all of them alike
   (by default the time binds, so each endpoint is measured for equally long).

For each it prints requests/s (over the time its rounds took), p50 and p99 latency,
errors, and the throughput as a share of the minimal view's (the target is at least
half). The load average is printed too: on a shared 2-core machine the figures move
with it.

    .venv/bin/python bench/bench_company_api.py
    .venv/bin/python bench/bench_company_api.py --companies 100000 --rich 5000 --seconds 10
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from datetime import date, datetime, timezone
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_DB = "vakt_company_bench"
SETTINGS = "bench.bench_company_api_settings"
FILL_NAME = "Benchmark Fyll"
FILL_PREFIX = 70_000_000  # demo numbers start at 80000000: no collisions


# --- database and data -------------------------------------------------------------------------


def data_ensure(*, companies: int, rich: int, seed: int) -> None:
    from django.core.management import call_command

    from service.companies import models as m

    call_command("migrate", verbosity=0)
    analysed = m.CompanyCreditRisk.objects.count()
    if analysed < rich:
        started = time.monotonic()
        print(f"generating {rich - analysed} demo companies (generate_demo, analysis included) ...", flush=True)
        call_command("generate_demo", companies=rich - analysed, seed=seed + analysed, quiet=True)
        print(f"  done in {time.monotonic() - started:.0f} s", flush=True)
    total = m.Company.objects.count()
    if total < companies:
        started = time.monotonic()
        fill_companies(companies - total)
        print(f"inserted {companies - total} minimal companies with COPY in {time.monotonic() - started:.0f} s")
    started = time.monotonic()
    if analysed := fill_analysis():
        print(f"copied the analysis of a minimal company to {analysed} others in {time.monotonic() - started:.0f} s")
    if total < companies or analysed:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # the planner's statistics for the tables as they are now


def _org_nr(index: int) -> str | None:
    base = str(FILL_PREFIX + index)
    weights = (3, 2, 7, 6, 5, 4, 3, 2)
    check = -sum(w * int(d) for w, d in zip(weights, base)) % 11
    return None if check == 10 else base + str(check)


def fill_companies(count: int) -> None:
    from django.db import connection

    from service.companies import models as m

    organization_type = m.OrganizationType.objects.filter(key="NO-AS").values_list("uuid", flat=True).first()
    start = m.Company.objects.filter(name__startswith=FILL_NAME).count() * 2  # past the used indexes
    now = datetime.now(timezone.utc)
    fields = m.Company._meta.concrete_fields
    columns = ", ".join(f'"{field.column}"' for field in fields)
    made, index = 0, start
    rng = random.Random(start)
    with connection.cursor() as cursor:
        with cursor.copy(f'COPY "{m.Company._meta.db_table}" ({columns}) FROM STDIN') as copy:
            while made < count:
                org_nr = _org_nr(index)
                index += 1
                if org_nr is None:
                    continue
                row = {
                    "uuid": uuid.uuid4(),
                    "org_nr": org_nr,
                    "org_nr_schema": "NO",
                    "name": f"{FILL_NAME} {org_nr} AS",
                    "organization_type_id": organization_type,
                    "registration_date": date(1990 + rng.randrange(35), 1 + rng.randrange(12), 1),
                    "employees": rng.randrange(0, 50),
                    "create_timestamp": now,
                    "update_timestamp": now,
                }
                copy.write_row([row.get(f.attname, _default(f)) for f in fields])
                made += 1


def fill_analysis() -> int:
    """Give the minimal companies the credit risk and flags a full refresh would, so those tables
    are as large as the register: one is analysed, its rows copied to the others in SQL (a
    refresh of a million companies takes ~12 minutes). Gives how many were copied to."""
    from django.db import connection

    from service.companies import models as m
    from service.companies.analysis import analysis_refresh

    unanalysed = m.Company.objects.filter(name__startswith=FILL_NAME, credit_risk__isnull=True)
    first = unanalysed.values_list("uuid", flat=True).first()
    if first is None:
        return 0
    analysis_refresh(company_uuids=[first])
    fills = "c.name LIKE %s AND c.uuid <> %s AND NOT EXISTS (SELECT 1 FROM {table} x WHERE x.company_id = c.uuid)"
    params = [first, f"{FILL_NAME}%", first]
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO service_companies_companycreditrisk "
            "(company_id, risk_score, risk_class, public_risk_score, public_risk_class, model_version, factors, "
            "computed_at) "
            "SELECT c.uuid, t.risk_score, t.risk_class, t.public_risk_score, t.public_risk_class, t.model_version, "
            "t.factors, t.computed_at "
            "FROM service_companies_companycreditrisk t, service_companies_company c "
            "WHERE t.company_id = %s AND " + fills.format(table="service_companies_companycreditrisk"),
            params,
        )
        copied = cursor.rowcount
        cursor.execute(
            "INSERT INTO service_companies_companyflag (uuid, company_id, company_flag_type_id, flag_date, "
            "flag_end_date, flag_context, flag_url, update_timestamp) "
            "SELECT gen_random_uuid(), c.uuid, f.company_flag_type_id, f.flag_date, f.flag_end_date, "
            "f.flag_context, replace(f.flag_url, f.company_id::text, c.uuid::text), f.update_timestamp "
            "FROM service_companies_companyflag f, service_companies_company c "
            "WHERE f.company_id = %s AND " + fills.format(table="service_companies_companyflag"),
            params,
        )
    return copied


def _default(field):
    if field.has_default():
        return field.get_default()
    return "" if field.get_internal_type() == "CharField" and not field.null else None


def sample_companies(n: int) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT company_id FROM service_companies_companycreditrisk "
            "WHERE company_id IN (SELECT company_id FROM service_companies_accounts) ORDER BY random() LIMIT %s",
            [n],
        )
        sample = [str(row[0]) for row in cursor.fetchall()]
        # the same warmth for every endpoint: the sampled company rows are read once up front
        # (otherwise the first endpoint measured pays for reading them from disk)
        cursor.execute("SELECT count(*) FROM service_companies_company WHERE uuid = ANY(%s::uuid[])", [sample])
        return sample


def api_user() -> tuple[str, str]:
    from service.auth.models import ROLE_KEYS
    from service.auth.services import api_user_create, app_customer_create

    customer = app_customer_create(name="Company API benchmark")
    creds = api_user_create(app_customer=customer, name="bench", role_keys=[key for key, _ in ROLE_KEYS])
    return creds.basic_auth_id, creds.basic_auth_secret


# --- server ---------------------------------------------------------------------------------------


def server_start(*, url: str, port: int, workers: int, threads: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": SETTINGS, "VAKT_RATE_LIMIT_PER_MINUTE": "0"}
    command = [
        sys.executable, "-m", "gunicorn", "portal.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", "gthread",
        "--threads", str(threads), "--chdir", str(ROOT), "--log-level", "warning", "--timeout", "60",
    ]
    process = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)
    import requests

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/bench/minimal", timeout=2).status_code == 200:
                return process
        except requests.RequestException:
            time.sleep(0.3)
    server_stop(process)
    raise SystemExit("the server did not start within 300 s")


def server_stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


# --- load -----------------------------------------------------------------------------------------


def _client(args: tuple) -> tuple[list[float], int, float]:
    """One client process: `threads` sessions until the deadline or the request budget is spent."""
    base, paths, headers, threads, budget, seconds, seed = args
    import requests

    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    remaining = [budget]
    deadline = time.monotonic() + seconds
    rng = random.Random(seed)
    chosen = [rng.choice(paths) for _ in range(budget)]

    def worker() -> None:
        nonlocal errors
        session = requests.Session()
        while time.monotonic() < deadline:
            with lock:
                if remaining[0] <= 0:
                    return
                remaining[0] -= 1
                path = chosen[remaining[0]]
            started = time.perf_counter()
            try:
                response = session.get(base + path, headers=headers, timeout=30)
                ok = response.status_code == 200
                response.content
            except requests.RequestException:
                ok = False
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                errors += 0 if ok else 1

    started = time.monotonic()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return latencies, errors, time.monotonic() - started


def warm_up(*, base: str, paths: list[str], headers: dict, clients: int, executor: ProcessPoolExecutor) -> None:
    """Connections, caches, the first query plans (prepared statements) of every server thread."""
    list(executor.map(_client, [(base, paths, headers, 2, 20, 10, i) for i in range(clients)]))


def load(*, base: str, paths: list[str], headers: dict, clients: int, threads: int, requests_total: int,
         seconds: float, executor: ProcessPoolExecutor, seed: int = 0) -> dict:
    """One measurement: raw latencies, errors and the elapsed time."""
    per_client = max(1, requests_total // clients)
    jobs = [(base, paths, headers, threads, per_client, seconds, 1000 + seed * clients + i) for i in range(clients)]
    results = list(executor.map(_client, jobs))
    return {
        "latencies": [latency for result in results for latency in result[0]],
        "errors": sum(result[1] for result in results),
        "elapsed": max(result[2] for result in results),
    }


def summary(rounds: list[dict]) -> dict:
    """Figures over an endpoint's rounds: requests/s over the time its rounds took together."""
    latencies = sorted(latency for r in rounds for latency in r["latencies"])
    elapsed = sum(r["elapsed"] for r in rounds)
    return {
        "requests": len(latencies),
        "errors": sum(r["errors"] for r in rounds),
        "rps": len(latencies) / elapsed if elapsed else 0.0,
        "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--companies", type=int, default=1_000_000)
    parser.add_argument("--rich", type=int, default=20_000, help="demo companies with accounts etc.")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--clients", type=int, default=2, help="load generator processes")
    parser.add_argument("--client-threads", type=int, default=4, help="threads (sessions) per load process")
    parser.add_argument(
        "--requests", type=int, default=100_000,
        help="at most this many requests per endpoint (by default --seconds binds: every endpoint is measured "
        "for the same time, in the same rounds)",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="at most this long per endpoint")
    parser.add_argument(
        "--rounds", type=int, default=8,
        help="measure the endpoints in turn this many times, each with its share of --requests and --seconds, "
        "so that a change in the machine's other load falls on every endpoint alike",
    )
    args = parser.parse_args()

    url = scratch_database_url(SCRATCH_DB, reuse=True)
    django_setup(url, settings_module=SETTINGS)
    data_ensure(companies=args.companies, rich=args.rich, seed=args.seed)
    from django.db import connection

    from service.companies import models as m

    total = m.Company.objects.count()
    sample = sample_companies(2000)
    client_id, secret = api_user()
    connection.close()
    token = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    headers = {"Authorization": f"Basic {token}", "Nk-Role-Keys": "credit_check", "Accept": "application/json"}

    endpoints = {
        "minimal JSON view (no auth, no db)": ["/bench/minimal"],
        "auth-status (basic auth only)": ["/analysis/v1/auth-status"],
        "company/{id}": [f"/analysis/v1/company/{c}" for c in sample],
        "company-credit-risk-composite": [f"/analysis/v1/company/{c}/company-credit-risk-composite" for c in sample],
        "accounts-composite": [f"/analysis/v1/company/{c}/accounts-composite" for c in sample],
        "company-flag-composite": [f"/analysis/v1/company/{c}/company-flag-composite" for c in sample],
    }
    print(
        f"\ncompanies in the register: {total:,}; requests over {len(sample)} random analysed companies; "
        f"server: gunicorn {args.workers} workers x {args.threads} threads; load: {args.clients} processes x "
        f"{args.client_threads} threads; per endpoint at most {args.requests} requests or {args.seconds:g} s, in {args.rounds} rounds"
    )
    process = server_start(url=url, port=args.port, workers=args.workers, threads=args.threads)
    rounds: dict[str, list[dict]] = {name: [] for name in endpoints}
    load_before = os.getloadavg()
    try:
        base = f"http://127.0.0.1:{args.port}"
        with ProcessPoolExecutor(max_workers=args.clients) as executor:
            for paths in endpoints.values():
                warm_up(base=base, paths=paths, headers=headers, clients=args.clients, executor=executor)
            for round_index in range(args.rounds):
                for name, paths in endpoints.items():
                    rounds[name].append(
                        load(
                            base=base, paths=paths, headers=headers, clients=args.clients,
                            threads=args.client_threads, requests_total=max(1, args.requests // args.rounds),
                            seconds=args.seconds / args.rounds, executor=executor, seed=round_index,
                        )
                    )
                print(
                    f"  round {round_index + 1}/{args.rounds}: "
                    + ", ".join(f"{name.split(' ')[0]} {summary(rounds[name][-1:])['rps']:.0f}" for name in endpoints)
                    + " req/s",
                    flush=True,
                )
    finally:
        server_stop(process)
    results = {name: summary(measured) for name, measured in rounds.items()}

    floor = results["minimal JSON view (no auth, no db)"]["rps"]
    print(
        f"\nload average (1, 5, 15 min) before: {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"{'endpoint':40} {'requests':>8} {'errors':>6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'vs minimal':>10}")
    for name, r in results.items():
        print(
            f"{name:40} {r['requests']:>8} {r['errors']:>6} {r['rps']:>8.0f} {r['p50']:>8.1f} {r['p99']:>8.1f} "
            f"{r['rps'] / floor if floor else 0:>10.2f}"
        )


if __name__ == "__main__":
    main()
