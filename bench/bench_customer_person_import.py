"""Benchmark: importing a file of 10,000 customer persons in one request, against a bare
bulk_create of the same persons and monitorings.

Prints figures; it is not a test. In one run, on a fresh scratch database (SQLite in a
temporary directory, or PostgreSQL: DATABASE_URL when it names PostgreSQL, else the database
`vakt_person_import_bench` on 127.0.0.1, made anew):

1. data: --existing customer persons already in the config (default 50,000), for the import to
   look its rows up among;
2. the request: POST /analysis/v1/screening-config/{uuid}/customer-person-import with --rows
   new customers (default 10,000; Nordic names from faker, each with a valid Norwegian
   fødselsnummer, a nationality and an address), through the real URL with Django's test client,
   the monitorings pending; then the same file again (every row found, nothing written), and
   a dry run of a fresh file;
3. the baseline: `bulk_create` of the same persons, numbers, addresses and monitorings, in a
   transaction, with nothing checked, looked up or audited.

    .venv/bin/python bench/bench_customer_person_import.py --database sqlite
    .venv/bin/python bench/bench_customer_person_import.py --database postgres
"""

from __future__ import annotations

import argparse
import base64
import csv
import datetime as dt
import io
import os
import random
import tempfile
import time
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_person_import_bench"


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--rows", type=int, default=10_000, help="customers in the file")
    parser.add_argument("--existing", type=int, default=50_000, help="customer persons already in the config")
    return parser.parse_args()


def _people(count: int, seed: int) -> list[dict]:
    """Customers with distinct valid Norwegian numbers (born 1940-1999, individual numbers 000-499)."""
    from faker import Faker
    from stdnum.no import fodselsnummer

    fake, rng = Faker("no_NO"), random.Random(seed)
    fake.seed_instance(seed)
    people, numbers = [], set()
    while len(people) < count:
        born = dt.date(1940, 1, 1) + dt.timedelta(days=rng.randrange(60 * 365))
        stem = f"{born:%d%m%y}{rng.randrange(500):03d}"
        first = fodselsnummer.calc_check_digit1(stem)
        number = stem + first + fodselsnummer.calc_check_digit2(stem + first)
        if number in numbers or not fodselsnummer.is_valid(number):  # a check digit of 10: none with this stem
            continue
        numbers.add(number)
        people.append({
            "id": f"K-{seed}-{len(people)}", "name": fake.name(), "birth_date": born.isoformat(), "nationality": "NO",
            "national_id": number, "national_id_country": "NO", "street_address": fake.street_address(),
            "postal_code": fake.postcode(), "postal_place": fake.city(), "address_country": "NO",
        })
    return people


def _csv(rows: list[dict]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def _timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main() -> None:
    args = _parse_args()
    if args.database == "sqlite":
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='vakt-bench-')) / 'bench.sqlite3'}"
    else:
        database_url = scratch_database_url(SCRATCH_DB, reuse=False)
    os.environ.setdefault("VAKT_RATE_LIMIT_PER_MINUTE", "0")
    os.environ.setdefault("VAKT_MAX_BODY_BYTES", str(50 * 1024 * 1024))
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import setup_test_environment

    from service.auth.services import api_user_create, app_customer_create
    from service.screening.models import (
        CustomerPerson,
        CustomerPersonLocation,
        CustomerPersonNationalIdentification,
        EntityMonitoring,
        EntityMonitoringType,
    )
    from service.screening.config_services import config_create

    setup_test_environment()
    customer = app_customer_create(name="Bench bank")
    credentials = api_user_create(app_customer=customer, name="Bench", role_keys=["aml", "person_national_identification"])
    auth = base64.b64encode(f"{credentials.basic_auth_id}:{credentials.basic_auth_secret}".encode()).decode()
    headers = {"HTTP_AUTHORIZATION": f"Basic {auth}", "HTTP_NK_ROLE_KEYS": "aml,person_national_identification"}
    def config_make():
        return config_create(app_customer_uuid=customer.uuid, suggestion_setting=None, auto_approve_monitoring_flag=False,
                             subscribe_to_email_notifications_flag=False)

    config, other = config_make(), config_make()

    existing = _people(args.existing, seed=1)
    CustomerPerson.objects.bulk_create(
        [CustomerPerson(screening_config=config, full_name=p["name"], birth_date=p["birth_date"]) for p in existing],
        batch_size=5000,
    )
    new, fresh = _people(args.rows, seed=2), _people(args.rows, seed=3)
    content = _csv(new)
    print(f"{connection.vendor}: {args.existing:,} customer persons in the config; a file of {args.rows:,} new ones "
          f"({len(content):,} bytes)")
    client = Client()
    url = f"/analysis/v1/screening-config/{config.uuid}/customer-person-import"

    def post(data: bytes, query: str = ""):
        response = client.post(url + query, {"file": SimpleUploadedFile("customers.csv", data, content_type="text/csv")}, **headers)
        assert response.status_code in (200, 201), response.content[:500]
        return response.json()

    post(_csv(fresh[:10]), "?dry_run=true")  # warm-up: imports, the country names, connections
    dry, _ = _timed(lambda: post(_csv(fresh), "?dry_run=true"))
    first, answer = _timed(lambda: post(content))
    # A few faker names meet an existing customer's name and birth date: those rows are that customer.
    print(f"  the import: {answer['created_count']:,} created, {answer['monitored_count'] - answer['created_count']:,} "
          f"existing ones put under monitoring, {answer['national_ids_added_count']:,} numbers added to existing ones")
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.enable()
        post(content)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)
    again, answer = _timed(lambda: post(content))
    assert answer["already_monitored_count"] == args.rows

    other_type = EntityMonitoringType.objects.get(key="other")

    def baseline():
        with transaction.atomic():
            people = [CustomerPerson(screening_config=other, full_name=p["name"], birth_date=p["birth_date"], nationalities=["NO"])
                      for p in fresh]
            CustomerPerson.objects.bulk_create(people, batch_size=1000)
            CustomerPersonNationalIdentification.objects.bulk_create([
                CustomerPersonNationalIdentification(customer_person=person, national_identification_schema="NO",
                                                     national_identification_number=p["national_id"])
                for person, p in zip(people, fresh)], batch_size=1000)
            CustomerPersonLocation.objects.bulk_create([
                CustomerPersonLocation(customer_person=person, street_address=p["street_address"], postal_code=p["postal_code"],
                                       postal_place=p["postal_place"], country_code_two="NO")
                for person, p in zip(people, fresh)], batch_size=1000)
            EntityMonitoring.objects.bulk_create([
                EntityMonitoring(screening_config=other, entity_monitoring_type=other_type, monitoring_origin_key="api",
                                 entity_key="customer_person", entity_uuid=person.uuid, customer_person=person)
                for person in people], batch_size=1000)

    bare, _ = _timed(baseline)
    print(f"import of {args.rows:,} new customers (real URL, checked, looked up, audited): {first:6.2f} s "
          f"= {args.rows / first:,.0f} rows/s")
    print(f"the same file again (every row found, nothing written):        {again:6.2f} s")
    print(f"a dry run of another {args.rows:,}:                              {dry:6.2f} s")
    print(f"bare bulk_create of the same rows (nothing checked):          {bare:6.2f} s; the import is {first / bare:.1f}x it")


if __name__ == "__main__":
    main()
