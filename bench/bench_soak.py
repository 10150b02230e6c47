"""Soak: a mixed workload against two gunicorn web processes and two Celery workers on one
PostgreSQL database and Redis, bounded in time and in requests, on 127.0.0.1 only.

    python bench/bench_soak.py --seconds 600          # the ten minutes of issue #25
    python bench/bench_soak.py --seconds 60 --clients 4

Workload (weights): company reads, dataset pages, watchlist adds, case list reads, report
orders, screenings (a customer person put under monitoring, screened by a worker). Prints
requests/s, p50/p99 per operation, errors (target 0), each process's memory (RSS, gunicorn with
its worker) at start and end, and whether the queued work was all done at the end.

A scratch database `vakt_bench_soak` (or DATABASE_URL), Redis `BENCH_REDIS_URL` (db 11 by default).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rescreen_setup import Workers, config_make, environment  # noqa: E402
from scratch_db import ROOT  # noqa: E402

os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
WEIGHTS = {"company": 30, "dataset": 10, "watchlist_add": 10, "cases": 15, "report_order": 10, "screening": 10}
MAX_SECONDS, MAX_REQUESTS = 3600, 200_000


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (a gunicorn master and its worker)."""
    total, pids = 0, [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in child.read_text().split()]
    for p in pids:
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def web_start(env: dict, port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "portal.wsgi:application", "--config", "python:portal.gunicorn_conf"],
        cwd=ROOT, env={**env, "VAKT_WEB_BIND": f"127.0.0.1:{port}", "VAKT_WEB_WORKERS": "1", "VAKT_WEB_THREADS": "4"},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/analysis/v1/partner-report-type", timeout=10)
            return process
        except requests.RequestException:
            time.sleep(0.5)
    raise RuntimeError(f"gunicorn on {port} did not answer")


class Workload:
    def __init__(self, bases: list[str], credentials, config_uuid: str, watchlist_uuid: str, companies: list) -> None:
        self.bases, self.config_uuid, self.watchlist_uuid, self.companies = bases, config_uuid, watchlist_uuid, companies
        self.auth = (credentials.basic_auth_id, credentials.basic_auth_secret)
        self.customer = str(credentials.api_user.app_customer_id)
        self.orders: list[str] = []
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.lock = threading.Lock()

    def call(self, session, rng, op: str) -> None:
        base = rng.choice(self.bases)
        company_uuid, org_nr = rng.choice(self.companies)
        aml = {"Nk-Role-Keys": "aml"}
        started = time.perf_counter()
        if op == "company":
            response = session.get(f"{base}/analysis/v1/company/{company_uuid}", auth=self.auth, timeout=30)
        elif op == "dataset":
            offset = rng.randrange(0, max(1, len(self.companies) - 100))
            response = session.get(f"{base}/datasets/v1/dataset/company", params={"limit": 100, "offset": offset},
                                   auth=self.auth, timeout=30)
        elif op == "watchlist_add":
            response = session.post(f"{base}/analysis/v1/watchlist/{self.watchlist_uuid}/company",
                                    json=[{"org_nr": org_nr, "org_nr_schema": "NO"}], auth=self.auth, timeout=30)
        elif op == "cases":
            response = session.get(f"{base}/analysis/v1/screening-config/{self.config_uuid}/screening-case-composite-collection",
                                   auth=self.auth, headers=aml, timeout=30)
        elif op == "report_order":
            line = {"partner_report": {"company_uuid": company_uuid, "partner_report_type_key": "company_profile"}}
            response = session.post(f"{base}/analysis/v1/app-customer/{self.customer}/partner-report-order-composite",
                                    json={"partner_report_composites": [line]}, auth=self.auth, timeout=30)
            if response.status_code == 201:
                with self.lock:
                    self.orders.append(response.json()["partner_report_order_uuid"])
        else:  # screening: a customer person put under an approved monitoring
            url = f"{base}/analysis/v1/screening-config/{self.config_uuid}"
            person = session.post(f"{url}/customer-person", json={"full_name": f"Soak Person {rng.randrange(10**9)}"},
                                  auth=self.auth, headers=aml, timeout=30)
            response = person
            if person.status_code == 201:
                body = {"entity_monitoring": {"entity_monitoring_type_uuid": self.monitoring_type,
                                              "monitoring_customer_person_uuid": person.json()["uuid"]},
                        "entity_monitoring_decision": {"approved_flag": True}}
                response = session.post(f"{url}/entity-monitoring-composite", json=body, auth=self.auth, headers=aml, timeout=30)
        elapsed = time.perf_counter() - started
        with self.lock:
            self.latencies[op].append(elapsed)
            if response.status_code >= 400:
                self.errors[op].append(f"{response.status_code} {response.text[:120]}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=600, help=f"how long the load runs (at most {MAX_SECONDS})")
    parser.add_argument("--requests", type=int, default=50_000, help=f"at most this many operations (at most {MAX_REQUESTS})")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients (threads)")
    parser.add_argument("--companies", type=int, default=500, help="demo companies generated")
    args = parser.parse_args()
    seconds, budget = min(args.seconds, MAX_SECONDS), min(args.requests, MAX_REQUESTS)

    print("Setting up a scratch database ...", flush=True)
    env = environment("vakt_bench_soak")
    env["VAKT_LOG_LEVEL"] = "WARNING"
    env["VAKT_RATE_LIMIT_PER_MINUTE"] = "0"
    from django.core.management import call_command

    from service.auth.services import api_user_create
    from service.companies.models import Company
    from service.screening.list_import import screening_list_import
    from service.screening.models import EntityMonitoringType, ScreeningListCategory
    from service.watchlists.models import Watchlist

    call_command("generate_demo", "--companies", str(args.companies), "--seed", "7", "--quiet", "--no-analysis")
    un = ROOT.parent / "shared" / "data" / "sanctions" / "un" / "UN_consolidated.xml"
    print(" ", screening_list_import(category=ScreeningListCategory.objects.get(key="un_security_council"), path=un).summary_line())
    config = config_make("Soak Bank ASA", "un_security_council")
    credentials = api_user_create(app_customer=config.app_customer, name="soak", role_keys=["aml", "credit_check"])
    watchlist = Watchlist.objects.create(app_customer=config.app_customer, watchlist_name="Soak")
    companies = [(str(u), n) for u, n in Company.objects.exclude(org_nr="").values_list("uuid", "org_nr")[:5000]]

    ports = [18431, 18432]
    webs = [web_start(env, port) for port in ports]
    with Workers(env, count=2) as workers:
        processes = {f"web{i + 1}": w.pid for i, w in enumerate(webs)}
        processes |= {f"worker{i + 1}": w.pid for i, w in enumerate(workers.processes)}
        load = Workload([f"http://127.0.0.1:{p}" for p in ports], credentials, str(config.uuid), str(watchlist.uuid), companies)
        load.monitoring_type = str(EntityMonitoringType.objects.get(key="other").uuid)
        # A short warm-up (first requests load the URL conf, the first screening the engine), then the soak.
        warm_rng = random.Random(1)
        with requests.Session() as session:
            for op in WEIGHTS:
                load.call(session, warm_rng, op)
        load.latencies.clear()
        load.errors.clear()
        memory_start = {name: rss_mb(pid) for name, pid in processes.items()}
        ops, weights = list(WEIGHTS), list(WEIGHTS.values())
        done = [0]
        deadline = time.monotonic() + seconds

        def client(seed: int) -> None:
            rng = random.Random(seed)
            with requests.Session() as session:
                while time.monotonic() < deadline:
                    with load.lock:
                        if done[0] >= budget:
                            return
                        done[0] += 1
                    load.call(session, rng, rng.choices(ops, weights)[0])

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(seed,)) for seed in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        memory_end = {name: rss_mb(pid) for name, pid in processes.items()}
        from service.reports.models import PartnerReportOrder

        drain_deadline = time.monotonic() + 120
        while PartnerReportOrder.objects.filter(uuid__in=load.orders, status__in=("pending", "processing")).exists():
            if time.monotonic() > drain_deadline:
                break
            time.sleep(0.5)
        open_orders = PartnerReportOrder.objects.filter(uuid__in=load.orders).exclude(status="complete").count()

    for web in webs:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=30)

    total = sum(len(v) for v in load.latencies.values())
    errors = sum(len(v) for v in load.errors.values())
    everything = [x for v in load.latencies.values() for x in v]
    print(f"\nSoak: {total} operations in {elapsed:.0f} s by {args.clients} clients: {total / elapsed:.1f} ops/s; "
          f"p50 {percentile(everything, 0.5) * 1000:.0f} ms, p99 {percentile(everything, 0.99) * 1000:.0f} ms; errors {errors}")
    print(f"{'operation':<14} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for op in WEIGHTS:
        values = load.latencies[op]
        print(f"{op:<14} {len(values):>7} {percentile(values, 0.5) * 1000:>8.0f} {percentile(values, 0.99) * 1000:>8.0f} "
              f"{len(load.errors[op]):>7}")
    for op, messages in load.errors.items():
        for message in sorted(set(messages))[:3]:
            print(f"  {op}: {message}")
    print("memory (RSS MB)  start    end")
    for name in processes:
        print(f"{name:<14} {memory_start[name]:>7.0f} {memory_end[name]:>6.0f}")
    print(f"report orders: {len(load.orders)} placed, {open_orders} not complete after the drain")
    print(f"(mean {statistics.mean(everything) * 1000:.0f} ms)" if everything else "")
    return 1 if errors or open_orders else 0


if __name__ == "__main__":
    sys.exit(main())
