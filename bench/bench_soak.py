"""Soak: a mixed workload against two gunicorn web processes and two Celery workers on one
PostgreSQL database and Redis, bounded in time and in requests, on 127.0.0.1 only.

    python bench/bench_soak.py --seconds 600          # the ten minutes of issue #25
    python bench/bench_soak.py --seconds 60 --clients 4 --samples-csv /tmp/soak.csv

Workload (weights): company reads, dataset pages, watchlist adds, case list reads, case
reviews (an open case moved pending -> in_review -> escalated or closed), report orders,
screenings (a customer person put under monitoring, screened by a worker; half of them named
like a listed person, so screenings raise the cases the reviews work on). Before the load, a
run over register persons named like listed persons seeds open cases. Prints requests/s,
p50/p99 per operation, errors (target 0), each process's memory (RSS, gunicorn with its
worker) sampled every `--sample-seconds` with its trend (soak_memory.py), the load average,
and whether the queued work (report orders, screenings) was all done at the end.

The web workers are not replaced after `max_requests` (production: 2000) unless
`--web-max-requests` says so: replacing them would hide a leak in the request path.

A scratch database `vakt_bench_soak` (or DATABASE_URL), Redis `BENCH_REDIS_URL` (db 11 by default).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import requests

os.environ.setdefault("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")  # before rescreen_setup reads it
sys.path.insert(0, str(Path(__file__).resolve().parent))
from rescreen_setup import Workers, config_make, environment, listed_names_varied, persons_monitored, run_wait  # noqa: E402
from scratch_db import ROOT  # noqa: E402
from soak_memory import MemorySampler  # noqa: E402

WEIGHTS = {"company": 30, "dataset": 10, "watchlist_add": 10, "cases": 15, "review": 10, "report_order": 10, "screening": 10}
MAX_SECONDS, MAX_REQUESTS = 3600, 200_000
SEEDED_CASE_PERSONS = 300  # register persons named like listed persons, screened before the load
LISTED_SHARE = 0.5  # of the screenings' customer persons named like a listed person
CLOSING = ("confirmed_hit", "false_positive")


def web_start(env: dict, port: int, max_requests: int, log: Path) -> subprocess.Popen:
    """A gunicorn web process (one worker, 4 threads) on 127.0.0.1:`port`, its error log in `log`."""
    with log.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "portal.wsgi:application", "--config", "python:portal.gunicorn_conf",
             "--max-requests", str(max_requests)],
            cwd=ROOT, env={**env, "VAKT_WEB_BIND": f"127.0.0.1:{port}", "VAKT_WEB_WORKERS": "1", "VAKT_WEB_THREADS": "4"},
            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/analysis/v1/partner-report-type", timeout=10)
            return process
        except requests.RequestException:
            time.sleep(0.5)
    os.killpg(process.pid, signal.SIGTERM)
    raise RuntimeError(f"gunicorn on {port} did not answer")


def review_next(case: dict, rng: random.Random) -> tuple[str, str]:
    """The review an officer would add to an open case: (review status, match decision)."""
    reviews = case["screening_case_review_composites"]
    latest = reviews[0]["screening_case_review_status"]["screening_case_review_status_key"] if reviews else None
    if latest is None:
        return "in_review", "possible_match"
    roll = rng.random()
    if latest == "in_review" and roll < 0.3:
        return "escalated", "possible_match"
    return ("confirmed_hit", "match") if roll < 0.5 else ("false_positive", "no_match")


class Workload:
    def __init__(self, bases: list[str], credentials, config_uuid: str, watchlist_uuid: str, companies: list) -> None:
        self.bases, self.config_uuid, self.watchlist_uuid, self.companies = bases, config_uuid, watchlist_uuid, companies
        self.auth = (credentials.basic_auth_id, credentials.basic_auth_secret)
        self.customer = str(credentials.api_user.app_customer_id)
        self.orders: list[str] = []
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.reviews: Counter = Counter()  # what the reviews did: transitions, races, no open case
        self.lock = threading.Lock()
        self.listed_names: list[str] = []
        self.monitoring_type = self.reviewer = ""
        self.review_statuses: dict[str, str] = {}
        self.decisions: dict[str, str] = {}
        self.sequence = 0

    def lookups_load(self, base: str) -> None:
        """The review statuses and match decisions, as an integration reads them."""
        aml = {"Nk-Role-Keys": "aml"}
        statuses = requests.get(f"{base}/analysis/v1/screening-case-review-status", auth=self.auth, headers=aml, timeout=30)
        decisions = requests.get(f"{base}/analysis/v1/entity-match-decision-type", auth=self.auth, headers=aml, timeout=30)
        self.review_statuses = {r["screening_case_review_status_key"]: r["uuid"] for r in statuses.json()}
        self.decisions = {r["entity_match_decision_type_key"]: r["uuid"] for r in decisions.json()}

    def review(self, session, rng, base: str, aml: dict) -> requests.Response:
        """One open case of the config (from the queue's first page) gets its next review."""
        url = f"{base}/analysis/v1/screening-config/{self.config_uuid}"
        page = session.get(f"{url}/screening-case-composite-collection", auth=self.auth, headers=aml, timeout=30,
                           params={"screening_case_status_identifiers": "pending,ongoing", "limit": 50, "sort_order": "oldest_first"})
        if page.status_code != 200:
            return page
        cases = page.json()[0]["elements"]
        if not cases:
            with self.lock:
                self.reviews["no open case"] += 1
            return page
        case = rng.choice(cases)
        status, decision = review_next(case, rng)
        with self.lock:
            self.sequence += 1
            comment = f"soak review {self.sequence}"
        body = {"screening_case_uuid": case["screening_case"]["uuid"], "pep_confirmed_flag": False,
                "screening_case_review_status_uuid": self.review_statuses[status], "reviewer_app_membership_uuid": self.reviewer,
                "entity_match_decision_type_uuid": self.decisions[decision], "screening_case_review_comment": comment}
        response = session.post(f"{url}/screening-case-review", json=body, auth=self.auth, headers=aml, timeout=30)
        if response.status_code == 201:
            # Another client may have reviewed the case since the page was read: the review
            # before ours says what the case was when ours was recorded (reviews are serialised
            # on the case row; one of a complete case is accepted and reopens or closes it again).
            keys = [(r["screening_case_review"]["screening_case_review_comment"],
                     r["screening_case_review_status"]["screening_case_review_status_key"])
                    for r in response.json()["screening_case_review_composites"]]
            ours = next((i for i, (c, _) in enumerate(keys) if c == comment), None)
            if ours is None:
                raise requests.RequestException(f"review {comment} answered 201 but is not in the case's reviews")
            before = keys[ours + 1][1] if ours + 1 < len(keys) else "pending"
            with self.lock:
                self.reviews[f"{before} -> {status}"] += 1
                if before in CLOSING:
                    self.reviews["of a case another client had just closed"] += 1
        return response

    def call(self, session, rng, op: str, base: str) -> None:
        """One operation against `base`: its latency, and an error for an answer >= 400 or no answer."""
        started = time.perf_counter()
        try:
            response = self._request(session, rng, op, base)
            error = f"{response.status_code} {response.text[:120]}" if response.status_code >= 400 else None
        except requests.RequestException as exc:
            error = f"{type(exc).__name__}: {str(exc)[:120]}"
        elapsed = time.perf_counter() - started
        with self.lock:
            self.latencies[op].append(elapsed)
            if error:
                self.errors[op].append(error)

    def _request(self, session, rng, op: str, base: str) -> requests.Response:
        company_uuid, org_nr = rng.choice(self.companies)
        aml = {"Nk-Role-Keys": "aml"}
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
        elif op == "review":
            response = self.review(session, rng, base, aml)
        elif op == "report_order":
            line = {"partner_report": {"company_uuid": company_uuid, "partner_report_type_key": "company_profile"}}
            response = session.post(f"{base}/analysis/v1/app-customer/{self.customer}/partner-report-order-composite",
                                    json={"partner_report_composites": [line]}, auth=self.auth, timeout=30)
            if response.status_code == 201:
                with self.lock:
                    self.orders.append(response.json()["partner_report_order_uuid"])
        else:  # screening: a customer person put under an approved monitoring
            url = f"{base}/analysis/v1/screening-config/{self.config_uuid}"
            name = rng.choice(self.listed_names) if rng.random() < LISTED_SHARE else f"Soak Person {rng.randrange(10**9)}"
            person = session.post(f"{url}/customer-person", json={"full_name": name}, auth=self.auth, headers=aml, timeout=30)
            response = person
            if person.status_code == 201:
                body = {"entity_monitoring": {"entity_monitoring_type_uuid": self.monitoring_type,
                                              "monitoring_customer_person_uuid": person.json()["uuid"]},
                        "entity_monitoring_decision": {"approved_flag": True}}
                response = session.post(f"{url}/entity-monitoring-composite", json=body, auth=self.auth, headers=aml, timeout=30)
        return response


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def broker_backlog() -> int:
    """Tasks queued on the broker or taken and not yet acknowledged (acks_late: until done)."""
    import redis

    client = redis.Redis.from_url(os.environ["BENCH_REDIS_URL"])
    queued = sum(client.llen(key) for key in client.scan_iter("celery*") if client.type(key) == b"list")
    return queued + client.hlen("unacked")


def drain(orders: list[str], seconds: float) -> tuple[int, int]:
    """Waits (at most `seconds`) for the report orders and the queued tasks; (open orders, backlog)."""
    from service.reports.models import PartnerReportOrder

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if broker_backlog() == 0 and not PartnerReportOrder.objects.filter(uuid__in=orders, status__in=("pending", "processing")).exists():
            break
        time.sleep(0.5)
    return PartnerReportOrder.objects.filter(uuid__in=orders).exclude(status="complete").count(), broker_backlog()


def case_statuses(config_uuid: str) -> dict[str, int]:
    from django.db.models import Count

    from service.screening.models import ScreeningCase

    rows = ScreeningCase.objects.filter(screening_config_id=config_uuid).values("case_status_key").annotate(n=Count("pk"))
    return {row["case_status_key"]: row["n"] for row in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=600, help=f"how long the load runs (at most {MAX_SECONDS})")
    parser.add_argument("--requests", type=int, default=50_000, help=f"at most this many operations (at most {MAX_REQUESTS})")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients (threads)")
    parser.add_argument("--companies", type=int, default=500, help="demo companies generated")
    parser.add_argument("--sample-seconds", type=float, default=15, help="memory sampled this often")
    parser.add_argument("--samples-csv", type=Path, help="write the memory samples here (seconds, MB per process)")
    parser.add_argument("--web-max-requests", type=int, default=0,
                        help="gunicorn replaces a web worker after this many requests (0: never; production: 2000)")
    args = parser.parse_args()
    seconds, budget = min(args.seconds, MAX_SECONDS), min(args.requests, MAX_REQUESTS)

    print("Setting up a scratch database ...", flush=True)
    env = environment("vakt_bench_soak")
    env["VAKT_LOG_LEVEL"] = "WARNING"
    env["VAKT_RATE_LIMIT_PER_MINUTE"] = "0"
    from django.core.management import call_command

    from service.auth.services import api_user_create, app_membership_create
    from service.companies.models import Company
    from service.screening.list_import import screening_list_import
    from service.screening.models import EntityMonitoringType, ScreeningListCategory
    from service.screening.rescreen import full_rescreen_plan
    from service.watchlists.models import Watchlist

    call_command("generate_demo", "--companies", str(args.companies), "--seed", "7", "--quiet", "--no-analysis")
    un = ROOT.parent / "shared" / "data" / "sanctions" / "un" / "UN_consolidated.xml"
    print(" ", screening_list_import(category=ScreeningListCategory.objects.get(key="un_security_council"), path=un).summary_line())
    config = config_make("Soak Bank ASA", "un_security_council")
    credentials = api_user_create(app_customer=config.app_customer, name="soak", role_keys=["aml", "credit_check"])
    reviewer = app_membership_create(app_customer=config.app_customer, email="officer@soak.test", full_name="Soak Officer")
    watchlist = Watchlist.objects.create(app_customer=config.app_customer, watchlist_name="Soak")
    companies = [(str(u), n) for u, n in Company.objects.exclude(org_nr="").values_list("uuid", "org_nr")[:5000]]
    persons_monitored(config, SEEDED_CASE_PERSONS, listed=SEEDED_CASE_PERSONS)

    ports = [18431, 18432]
    log_dir = Path(tempfile.mkdtemp(prefix="vakt-soak-"))
    logs = [log_dir / f"web{i + 1}.log" for i in range(len(ports))]
    webs: list[subprocess.Popen] = []
    try:
        for port, log in zip(ports, logs):
            webs.append(web_start(env, port, args.web_max_requests, log))
        with Workers(env, count=2) as workers:
            run = full_rescreen_plan(chunk_size=50)  # the seeded persons' cases; loads the engine in both workers
            run_wait(run.uuid, timeout=600)
            print(f"  seeded cases: {case_statuses(str(config.uuid)).get('pending', 0)} pending (run {run.uuid})", flush=True)
            processes = {f"web{i + 1}": w.pid for i, w in enumerate(webs)}
            processes |= {f"worker{i + 1}": w.pid for i, w in enumerate(workers.processes)}
            load = Workload([f"http://127.0.0.1:{p}" for p in ports], credentials, str(config.uuid), str(watchlist.uuid), companies)
            load.monitoring_type = str(EntityMonitoringType.objects.get(key="other").uuid)
            load.reviewer = str(reviewer.uuid)
            load.listed_names = listed_names_varied(10_000, random.Random(2))
            load.lookups_load(load.bases[0])
            # A short warm-up (first requests load the URL conf, the first screening the engine), then the soak.
            warm_rng = random.Random(1)
            with requests.Session() as session:
                for base in load.bases:
                    for op in WEIGHTS:
                        load.call(session, warm_rng, op, base)
            load.latencies.clear()
            load.errors.clear()
            load.reviews.clear()
            cases_before = case_statuses(str(config.uuid))
            sampler = MemorySampler(processes, args.sample_seconds)
            ops, weights = list(WEIGHTS), list(WEIGHTS.values())
            done = [0]
            deadline = time.monotonic() + seconds

            def client(seed: int) -> None:
                # Each client keeps one connection to one web process, as behind a load
                # balancer; its connection never idles long enough for the server's keep-alive
                # (gunicorn: 2 s) to close it under a request.
                rng, base = random.Random(seed), load.bases[seed % len(load.bases)]
                with requests.Session() as session:
                    while time.monotonic() < deadline:
                        with load.lock:
                            if done[0] >= budget:
                                return
                            done[0] += 1
                        load.call(session, rng, rng.choices(ops, weights)[0], base)

            load_before = os.getloadavg()
            sampler.start()
            started = time.perf_counter()
            threads = [threading.Thread(target=client, args=(seed,)) for seed in range(args.clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            sampler.stop()
            load_after = os.getloadavg()
            open_orders, backlog = drain(load.orders, 300)
            cases_after = case_statuses(str(config.uuid))
    finally:  # no server left behind, whatever happened
        for web in webs:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(timeout=30)

    total = sum(len(v) for v in load.latencies.values())
    errors = sum(len(v) for v in load.errors.values())
    everything = [x for v in load.latencies.values() for x in v]
    print(f"\nSoak: {total} operations in {elapsed:.0f} s by {args.clients} clients: {total / elapsed:.1f} ops/s; "
          f"p50 {percentile(everything, 0.5) * 1000:.0f} ms, p99 {percentile(everything, 0.99) * 1000:.0f} ms; errors {errors}")
    print(f"load average (1, 5, 15 min) before {' '.join(f'{x:.2f}' for x in load_before)}, "
          f"after {' '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} CPUs)")
    print(f"{'operation':<14} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for op in WEIGHTS:
        values = load.latencies[op]
        print(f"{op:<14} {len(values):>7} {percentile(values, 0.5) * 1000:>8.0f} {percentile(values, 0.99) * 1000:>8.0f} "
              f"{len(load.errors[op]):>7}")
    print("(review and screening are two requests each: the queue page and the review; the person and its monitoring)")
    for op, messages in load.errors.items():
        for message in sorted(set(messages))[:3]:
            print(f"  {op}: {message}")
    print("reviews: " + ", ".join(f"{key} {n}" for key, n in sorted(load.reviews.items())))
    print(f"cases of the config: before {dict(sorted(cases_before.items()))}, after {dict(sorted(cases_after.items()))}")
    flat = sampler.report()
    if args.samples_csv:
        sampler.csv_write(args.samples_csv)
        print(f"samples written to {args.samples_csv}")
    logged = [line.strip() for log in logs for line in log.read_text().splitlines()
              if any(word in line for word in ("ERROR", "CRITICAL", "Traceback", "WORKER TIMEOUT"))]
    print(f"\nweb error logs ({', '.join(map(str, logs))}): {len(logged)} error lines")
    for line in logged[:5]:
        print(f"  {line[:160]}")
    print(f"report orders: {len(load.orders)} placed, {open_orders} not complete after the drain; "
          f"tasks left on the broker: {backlog}")
    return 1 if errors or open_orders or backlog or not flat else 0


if __name__ == "__main__":
    sys.exit(main())
