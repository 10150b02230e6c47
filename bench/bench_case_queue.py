"""Benchmark: the dashboard's case queue page against the API calls it makes, in the same run.

Prints figures; it is not a test. Against PostgreSQL (DATABASE_URL when it names PostgreSQL,
else the database `vakt_bench_case_queue` on 127.0.0.1, made anew unless --reuse keeps the cases of the
last run and only issues the dashboard new API credentials):

1. data, bulk-inserted with the ORM for setup speed (not through screening runs): one
   organisation with a screening config, --cases cases (default 100,000) on half as many
   register persons, each person monitored for one of 300 companies, over a synthetic UN
   and PEP list; 15 % pending, 5 % ongoing, 80 % complete (one review each), 5 % assigned
   to the benchmark's officer, raised over the last two years;
2. the process's collector tuned as a web worker's is (portal/gc_tuning.py, gunicorn's
   post_worker_init);
3. for each scenario, --repeat rounds (after a warm-up), each round timing
   - the page: GET /screening/cases/?... as a logged-in officer (Django test client: the
     whole dashboard stack, the API reached in-process as in the embedded default), and
   - the API calls that page makes, one after the other as the page makes them (the
     organisation's configs, the lists, one page of the case collection, the counts per status),
     through the same Django stack with a bearer token;
   scenarios: the first page of the open queue (oldest first), and a filtered page
   (sanction hits of one related company, assigned to nobody, newest first).

For each it prints p50 and p95 of the page and of the API calls (each call and their sum per
round) and the ratio page p95 / API p95 (target at most 1.5).

    .venv/bin/python bench/bench_case_queue.py --cases 2000
    .venv/bin/python bench/bench_case_queue.py            # 100,000 cases
    .venv/bin/python bench/bench_case_queue.py --reuse    # measure again on the cases there
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import time
import uuid
from datetime import timedelta

from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_bench_case_queue"
COMPANIES = 300
ENTRIES_PER_LIST = 2000
BATCH = 5000


def _batches(items, size):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def data_make(*, cases: int, seed: int):
    """The organisation, its officer and `cases` cases; answers (member, credentials, config, companies)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from portal.models import Member, Organisation
    from service.auth.services import api_user_create, app_customer_create, app_membership_create
    from service.companies.models import Company, Person
    from service.screening.config_services import config_create
    from service.screening.models import (
        EntityInquiry, EntityMatchDecisionType, EntityMonitoring, EntityMonitoringDecision, EntityMonitoringType,
        ScreeningCase, ScreeningCaseReview, ScreeningCaseReviewStatus, ScreeningListCategory, ScreeningListEntry,
        ScreeningListVersion,
    )

    rng = random.Random(seed)
    organisation = app_customer_create(name="Bench Bank ASA")
    credentials = api_user_create(app_customer=organisation, name="Bench dashboard", role_keys=["aml"])
    dashboard_org = Organisation(name="Bench Bank ASA", app_customer_uuid=organisation.uuid,
                                 api_client_id=credentials.token_auth_id, api_role_keys="aml")
    dashboard_org.api_client_secret = credentials.token_auth_secret
    dashboard_org.save()
    user = get_user_model().objects.create_user("bench-officer", email="officer@bench.no", password="bench-password-123")
    membership = app_membership_create(app_customer=organisation, email="officer@bench.no")
    member = Member.objects.create(user=user, organisation=dashboard_org, role=Member.Role.OFFICER,
                                   app_membership_uuid=membership.uuid)
    config = config_create(app_customer_uuid=organisation.uuid, suggestion_setting=None,
                           auto_approve_monitoring_flag=True, subscribe_to_email_notifications_flag=False)

    companies = Company.objects.bulk_create(
        [Company(name=f"Benk Kunde {i} AS", org_nr=str(800_000_000 + i)) for i in range(COMPANIES)]
    )
    entries = {}
    for key in ("un_security_council", "pep"):
        category = ScreeningListCategory.objects.get(key=key)
        version = ScreeningListVersion.objects.create(category=category, number=1, source_name="bench", source_sha256="0" * 64)
        entries[key] = ScreeningListEntry.objects.bulk_create([
            ScreeningListEntry(
                version=version, source_id=f"{key[:3].upper()}.{i}", schema="Person", primary_name=f"Listed Person {i}",
                names=[{"name": f"Listed Person {i}", "quality": "strong", "kind": "primary"}],
                birth_dates=[f"{1940 + i % 50}"], nationalities=["ru" if key != "pep" else "no"], gender="male",
                programmes=["DPRK"] if key != "pep" else [], listed_date="2017-06-02", content_hash=f"{i:064d}",
            )
            for i in range(ENTRIES_PER_LIST)
        ], batch_size=BATCH)

    persons_needed = max(1, cases // 2)
    persons = Person.objects.bulk_create(
        [Person(full_name=f"Skjermet Person {i}", birth_date=f"{1940 + i % 60}-01-15", nationality="no") for i in range(persons_needed)],
        batch_size=BATCH,
    )
    owner_type = EntityMonitoringType.objects.get(key="beneficial_owners")
    monitorings = EntityMonitoring.objects.bulk_create([
        EntityMonitoring(screening_config=config, related_company=companies[i % COMPANIES], entity_key="person",
                         entity_uuid=p.uuid, person=p, entity_monitoring_type=owner_type, monitoring_origin_key="auto_approve")
        for i, p in enumerate(persons)
    ], batch_size=BATCH)
    EntityMonitoringDecision.objects.bulk_create(
        [EntityMonitoringDecision(entity_monitoring=m, approved_flag=True, decision_origin_key="auto_approve") for m in monitorings],
        batch_size=BATCH,
    )
    inquiries = EntityInquiry.objects.bulk_create(
        [EntityInquiry(screening_config=config, inquiry_entity_key="person", inquiry_entity_uuid=p.uuid, person=p) for p in persons],
        batch_size=BATCH,
    )
    categories = {key: ScreeningListCategory.objects.get(key=key) for key in entries}
    statuses = {s.key: s for s in ScreeningCaseReviewStatus.objects.all()}
    decisions = {d.key: d for d in EntityMatchDecisionType.objects.all()}
    rows, reviews = [], []
    for n in range(cases):
        inquiry = inquiries[n // 2]
        key = "pep" if rng.random() < 0.3 else "un_security_council"
        entry = entries[key][(n * 7 + (n % 2) * 1000) % ENTRIES_PER_LIST]
        roll = rng.random()
        status = "pending" if roll < 0.15 else "ongoing" if roll < 0.20 else "complete"
        case = ScreeningCase(
            screening_config=config, entity_inquiry=inquiry, list_category=categories[key],
            list_source_id=f"{entry.source_id}-{n % 2}", list_entry=entry, list_content_hash=entry.content_hash,
            pep_flag=key == "pep", sanction_flag=key != "pep", score=round(0.7 + 0.3 * rng.random(), 3),
            explanation={"query_name": inquiry.person.full_name, "matched_name": entry.primary_name,
                         "matched_name_quality": "strong", "name_score": 0.9, "birth_date_adjustment": 0.0,
                         "nationality_adjustment": 0.0, "gender_adjustment": 0.0, "final": 0.9,
                         "aligned": [{"query": "person", "listed": "person", "similarity": 1.0, "reason": "exact"}],
                         "unmatched_query_parts": ["skjermet"], "unmatched_list_parts": ["listed"], "notes": []},
            explanation_summary="bench", case_status_key=status,
            assignee_app_membership_id=membership.uuid if rng.random() < 0.05 else None,
        )
        rows.append(case)
        if status != "pending":
            review_key = rng.choice(["in_review", "escalated"]) if status == "ongoing" else rng.choice(["false_positive", "false_positive", "confirmed_hit"])
            reviews.append(ScreeningCaseReview(screening_case=case, reviewer_app_membership_id=membership.uuid,
                                               screening_case_review_status=statuses[review_key],
                                               entity_match_decision_type=decisions["no_match"],
                                               screening_case_review_comment="bench review"))
    for batch in _batches(rows, BATCH):
        ScreeningCase.objects.bulk_create(batch)
    for batch in _batches(reviews, BATCH):
        ScreeningCaseReview.objects.bulk_create(batch)
    with connection.cursor() as cursor:
        table = ScreeningCase._meta.db_table
        cursor.execute(
            f"UPDATE {table} SET created_timestamp = %s - (random() * interval '730 days')", [timezone.now() - timedelta(minutes=1)]
        )
        review_table = ScreeningCaseReview._meta.db_table
        cursor.execute(f"UPDATE {table} c SET latest_review_id = r.uuid FROM {review_table} r WHERE r.screening_case_id = c.uuid")
        monitoring_table, decision_table = EntityMonitoring._meta.db_table, EntityMonitoringDecision._meta.db_table
        cursor.execute(f"UPDATE {monitoring_table} m SET latest_decision_id = d.uuid FROM {decision_table} d "
                       "WHERE d.entity_monitoring_id = m.uuid")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # as autovacuum leaves a table in use: statistics and the visibility map
            cursor.execute("VACUUM ANALYZE")
    return member, credentials, config, companies


def data_reuse():
    """The last run's officer, config and companies, with new API credentials for the dashboard
    (the old secrets were never stored in the clear)."""
    from portal.models import Member
    from service.auth.models import AppCustomer
    from service.auth.services import api_user_create
    from service.companies.models import Company
    from service.screening.models import ScreeningConfig

    member = Member.objects.select_related("organisation", "user").get(user__username="bench-officer")
    organisation = member.organisation
    credentials = api_user_create(app_customer=AppCustomer.objects.get(uuid=organisation.app_customer_uuid),
                                  name=f"Bench dashboard {uuid.uuid4().hex[:8]}", role_keys=["aml"])
    organisation.api_client_id = credentials.token_auth_id
    organisation.api_client_secret = credentials.token_auth_secret
    organisation.save()
    config = ScreeningConfig.objects.get(app_customer_id=organisation.app_customer_uuid)
    companies = list(Company.objects.filter(name__startswith="Benk Kunde ").order_by("org_nr"))
    return member, credentials, config, companies


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(*, member, credentials, config, scenario: dict, repeat: int) -> dict:
    from django.test import Client

    from screening.queue_filters import QueueFilters

    page_client = Client()
    page_client.force_login(member.user)
    api = Client()
    token = api.post("/oauth/token", {"grant_type": "client_credentials", "client_id": credentials.token_auth_id,
                                      "client_secret": credentials.token_auth_secret, "audience": "http://testserver/analysis"},
                     content_type="application/json").json()["access_token"]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_NK_ROLE_KEYS": "aml"}

    filters = QueueFilters.from_query(scenario["query"])
    service_filters = filters.service_filters(me=member.app_membership_uuid)
    base = f"/analysis/v1/screening-config/{config.uuid}"
    filter_params = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in service_filters.params().items() if v is not None}
    calls = {
        "configs": (f"/analysis/v1/app-customer/{member.organisation.app_customer_uuid}/screening-config", {}),
        "lists": ("/analysis/v1/screening-list-category", {}),  # the List filter's choices
        "collection": (f"{base}/screening-case-composite-collection", {
            **filter_params, "screening_case_status_identifiers": ",".join(service_filters.status_keys),
            "sort_order": filters.sort_order, "limit": filters.page_size, "offset": filters.offset}),
        "counts": (f"{base}/screening-case-status-count", filter_params),
    }
    url = "/screening/cases/" + ("?" + "&".join(f"{k}={v}" for k, v in scenario["query"].items()) if scenario["query"] else "")

    def page_once() -> float:
        started = time.perf_counter()
        response = page_client.get(url)
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, (response.status_code, response.content[:500])
        return elapsed

    def api_once() -> dict[str, float]:
        times = {}
        for name, (path, params) in calls.items():
            started = time.perf_counter()
            response = api.get(path, params, **headers)
            times[name] = time.perf_counter() - started
            assert response.status_code == 200, (name, response.status_code, response.content[:500])
        return times

    for _ in range(3):  # warm-up: tokens, caches, the database's buffers
        page_once(), api_once()
    page_times, api_times = [], []
    for _ in range(repeat):
        page_times.append(page_once())
        api_times.append(api_once())
    count = api.get(calls["collection"][0], calls["collection"][1], **headers).json()[0]["count"]
    return {"page": page_times, "api": api_times, "count": count, "url": url}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=100)  # p95 of 40 rounds is the 2nd-slowest: one stall decides it
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="measure on the cases of the last run (new credentials only)")
    args = parser.parse_args()

    database_url = scratch_database_url(SCRATCH_DB, reuse=args.reuse)
    os.environ.setdefault("VAKT_SERVICE_URL", "")  # the API in-process, as in the embedded default
    os.environ.setdefault("VAKT_SECRET_KEY", secrets.token_urlsafe(32))  # this run's own: nothing outlives it
    # Rounds of the page and of its API calls, back to back, exceed a caller's per-minute limit on an
    # idle machine; the limit is not what is measured.
    os.environ.setdefault("VAKT_RATE_LIMIT_PER_MINUTE", "0")
    django_setup(database_url)
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.ALLOWED_HOSTS = ["testserver", "localhost"]
    call_command("migrate", verbosity=0)
    from service.screening.models import ScreeningCase

    started = time.monotonic()
    if args.reuse and ScreeningCase.objects.exists():
        member, credentials, config, companies = data_reuse()
    else:
        member, credentials, config, companies = data_make(cases=args.cases, seed=args.seed)
    print(f"database: {connection.vendor}; cases: {ScreeningCase.objects.filter(screening_config=config).count():,}; "
          f"made in {time.monotonic() - started:.0f} s", flush=True)

    scenarios = [
        {"name": "first page (open, oldest first)", "query": {}},
        {"name": "filtered page (sanction, one company, nobody, newest)",
         "query": {"hit": "sanction", "company": str(companies[0].uuid), "assignee": "nobody", "sort": "newest"}},
    ]
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    from portal.gc_tuning import gc_tune_after_startup

    gc_tune_after_startup()  # as each gunicorn worker does once the app is loaded (portal/gunicorn_conf.py)
    print(f"load average: {load:.2f}; {args.repeat} rounds each, after 3 warm-up rounds")
    for scenario in scenarios:
        result = measure(member=member, credentials=credentials, config=config, scenario=scenario, repeat=args.repeat)
        sums = [sum(t.values()) for t in result["api"]]
        page_p95, api_p95 = _p(result["page"], 0.95), _p(sums, 0.95)
        print(f"\n{scenario['name']}: {result['url']}  ({result['count']:,} matching cases)")
        print(f"  page            p50 {statistics.median(result['page']) * 1000:7.1f} ms   p95 {page_p95 * 1000:7.1f} ms")
        for name in result["api"][0]:
            values = [t[name] for t in result["api"]]
            print(f"  api {name:<11} p50 {statistics.median(values) * 1000:7.1f} ms   p95 {_p(values, 0.95) * 1000:7.1f} ms")
        print(f"  api calls (sum) p50 {statistics.median(sums) * 1000:7.1f} ms   p95 {api_p95 * 1000:7.1f} ms")
        verdict = "ok" if page_p95 <= 1.5 * api_p95 else "MISSED"
        print(f"  page p95 / api p95 = {page_p95 / api_p95:.2f}  (target <= 1.50: {verdict})")


if __name__ == "__main__":
    main()
