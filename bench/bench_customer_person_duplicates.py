"""Benchmark: finding the customers possibly entered twice (GET .../customer-person-duplicate's
selector, `person_selectors.customer_person_duplicate_groups`) among --persons customer persons
of one config (default 100,000; Norwegian names and birth dates from faker, so a few share both).

Prints figures; it is not a test. On a fresh scratch database (SQLite in a temporary directory, or
PostgreSQL: DATABASE_URL when it names PostgreSQL, else `vakt_person_duplicates_bench` on 127.0.0.1).
No target was set: the dashboard asks for it on request ("Find customers possibly entered twice"),
not with every page, because it is one pass over every name of the config.

    .venv/bin/python bench/bench_customer_person_duplicates.py --database sqlite
    .venv/bin/python bench/bench_customer_person_duplicates.py --database postgres
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

SCRATCH_DB = "vakt_person_duplicates_bench"
PAGE_SAMPLE = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--persons", type=int, default=100_000)
    args = parser.parse_args()
    if args.database == "sqlite":
        database_url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='vakt-bench-')) / 'bench.sqlite3'}"
    else:
        database_url = scratch_database_url(SCRATCH_DB, reuse=False)
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from faker import Faker

    from service.auth.services import app_customer_create
    from service.screening.config_services import config_create
    from service.screening.models import CustomerPerson
    from service.screening.person_selectors import customer_person_duplicate_groups

    fake = Faker("no_NO")
    fake.seed_instance(1)
    customer = app_customer_create(name="Benchmark Bank ASA")
    config = config_create(app_customer_uuid=customer.uuid, suggestion_setting=None, auto_approve_monitoring_flag=False,
                           subscribe_to_email_notifications_flag=False)
    CustomerPerson.objects.bulk_create(
        (CustomerPerson(screening_config=config, full_name=fake.name(), birth_date=fake.date_of_birth())
         for _ in range(args.persons)),
        batch_size=5000,
    )
    for run in (1, 2):
        start = time.perf_counter()
        groups = customer_person_duplicate_groups(config=config)
        kinds = Counter(group.match_key for group in groups)
        print(f"{args.database}: {args.persons:,} customer persons, {len(groups)} groups "
              f"({', '.join(f'{n} {kind}' for kind, n in sorted(kinds.items()))}), run {run}: "
              f"{time.perf_counter() - start:.2f} s")
    # What a customer person's page asks with every view: one person's groups.
    sample = list(CustomerPerson.objects.filter(screening_config=config).order_by("uuid")[:PAGE_SAMPLE])
    start = time.perf_counter()
    for person in sample:
        customer_person_duplicate_groups(config=config, of=person)
    print(f"{args.database}: one person's groups: {(time.perf_counter() - start) / len(sample) * 1000:.1f} ms "
          f"(mean of {len(sample)})")


if __name__ == "__main__":
    main()
