"""Benchmark: a large file of customer persons imported as a background job
(`POST .../customer-person-import-job`), its time and the worker's memory.

Prints figures; it is not a test. On a fresh scratch database (SQLite in a temporary directory,
or PostgreSQL: DATABASE_URL when it names PostgreSQL, else `vakt_person_import_job_bench` on
127.0.0.1, made anew), with --existing customer persons in the config (default 50,000):

1. a file of --rows new customers (default 100,000; the same generator as
   bench_customer_person_import.py: faker names, valid Norwegian numbers, addresses) sent to the
   job endpoint through the real URL; the task runs in this process (Celery eager), so the
   request's time is the job's, from the upload until the persons, monitorings and audit
   records are committed;
2. the process's peak resident memory before and after (the job holds the file's rows until
   it commits, and writes them a chunk at a time);
3. the synchronous import's rate on 10,000 rows in the same run, for comparison.

    .venv/bin/python bench/bench_customer_person_import_job.py --database postgres
"""

from __future__ import annotations

import argparse
import base64
import os
import resource
import tempfile
from pathlib import Path

from bench_customer_person_import import _csv, _people, _timed
from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_person_import_job_bench"


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--existing", type=int, default=50_000)
    args = parser.parse_args()
    if args.database == "sqlite":
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='vakt-bench-')) / 'bench.sqlite3'}"
    else:
        database_url = scratch_database_url(SCRATCH_DB, reuse=False)
    os.environ.setdefault("VAKT_RATE_LIMIT_PER_MINUTE", "0")
    os.environ["VAKT_CELERY_EAGER"] = "true"
    os.environ.setdefault("VAKT_DATA_DIR", tempfile.mkdtemp(prefix="vakt-bench-files-"))
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from service.auth.services import api_user_create, app_customer_create
    from service.screening.config_services import config_create
    from service.screening.models import CustomerPerson, CustomerPersonImportJob

    setup_test_environment()
    customer = app_customer_create(name="Bench bank")
    credentials = api_user_create(app_customer=customer, name="Bench", role_keys=["aml", "person_national_identification"])
    auth = base64.b64encode(f"{credentials.basic_auth_id}:{credentials.basic_auth_secret}".encode()).decode()
    headers = {"HTTP_AUTHORIZATION": f"Basic {auth}", "HTTP_NK_ROLE_KEYS": "aml,person_national_identification"}
    config = config_create(app_customer_uuid=customer.uuid, suggestion_setting=None, auto_approve_monitoring_flag=False,
                           subscribe_to_email_notifications_flag=False)
    existing = _people(args.existing, seed=1)
    CustomerPerson.objects.bulk_create(
        [CustomerPerson(screening_config=config, full_name=p["name"], birth_date=p["birth_date"]) for p in existing],
        batch_size=5000,
    )
    # New customers only: of 100,000 faker rows some share a name and birth date with an existing
    # customer or another row, or a number with the synchronous import's customers (the import
    # takes those for one customer, and refuses two rows of one or a number of someone else).
    small = _people(10_000, seed=3)
    seen = {(p["name"], p["birth_date"]) for p in existing} | {p["national_id"] for p in small}
    fresh = []
    for person in _people(args.rows + args.rows // 50, seed=2):
        keys = {(person["name"], person["birth_date"]), person["national_id"]}
        if not keys & seen:
            seen |= keys
            fresh.append(person)
    fresh = fresh[: args.rows]
    client = Client()

    def post(tail: str, data: bytes) -> dict:
        response = client.post(f"/analysis/v1/screening-config/{config.uuid}/{tail}",
                               {"file": SimpleUploadedFile("customers.csv", data, content_type="text/csv")}, **headers)
        assert response.status_code in (201, 202), response.content[:500]
        return response.json()

    post("customer-person-import", _csv(small[:10]))  # warm-up
    sync_s, _ = _timed(lambda: post("customer-person-import", _csv(small[10:])))
    content = _csv(fresh)
    print(f"{connection.vendor}: {args.existing:,} customer persons in the config; a file of {args.rows:,} new ones "
          f"({len(content) / 1e6:.1f} MB)")
    before = _peak_mb()
    job_s, started = _timed(lambda: post("customer-person-import-job", content))
    job = CustomerPersonImportJob.objects.get(uuid=started["uuid"])
    assert job.status == "complete", (job.status, job.failure_code, job.failure_detail, job.failure_errors[:3])
    print(f"the job: {job.created_count:,} created in {job_s:.1f} s = {args.rows / job_s:,.0f} rows/s "
          f"(the synchronous import of {len(small) - 10:,}: {(len(small) - 10) / sync_s:,.0f} rows/s)")
    print(f"peak resident memory: {before:,.0f} MB before the job, {_peak_mb():,.0f} MB after")


if __name__ == "__main__":
    main()
