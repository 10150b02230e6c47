"""Benchmark: beneficial_owners and persons_to_screen over a layered synthetic register.

Prints figures; it is not a test. Against PostgreSQL (DATABASE_URL when it names
PostgreSQL, else the database `vakt_ownership_bench` on 127.0.0.1, made anew):

1. data: --companies companies in --layers layers; each company below the top is owned
   by --fan-in companies of the layer above and one or two persons (random shares), the
   top layer by persons only; every company has a board chair and a CEO;
2. calls: beneficial_owners and persons_to_screen (extended setting) for --samples
   random companies of the bottom layer, with the queries each call ran, p50 and p99.

    .venv/bin/python bench/bench_ownership.py
    .venv/bin/python bench/bench_ownership.py --companies 50000 --layers 8 --fan-in 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid
from decimal import Decimal

from scratch_db import django_setup, scratch_database_url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=20_000)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--fan-in", type=int, default=2)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    django_setup(scratch_database_url("vakt_ownership_bench", reuse=False))

    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from service.companies.ownership import beneficial_owners, persons_to_screen

    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    started = time.perf_counter()
    layers = _register_make(rng, companies=args.companies, layers=args.layers, fan_in=args.fan_in)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh statistics, as autovacuum would give a real register
    print(f"register: {args.companies:,} companies in {args.layers} layers, fan-in {args.fan_in}, "
          f"made in {time.perf_counter() - started:.1f} s")

    samples = rng.sample(layers[0], min(args.samples, len(layers[0])))
    for name, call in (
        ("beneficial_owners", lambda company: beneficial_owners(company_uuid=company)),
        (
            "persons_to_screen (extended)",
            lambda company: persons_to_screen(
                company_uuid=company, setting_key="enin_calculated_extended_beneficial_owners"
            ),
        ),
    ):
        times, queries, found = [], [], []
        for company in samples:
            with CaptureQueriesContext(connection) as captured:
                begin = time.perf_counter()
                result = call(company)
                times.append((time.perf_counter() - begin) * 1000)
            queries.append(len(captured))
            found.append(len(result))
        times.sort()
        print(
            f"{name}: {len(samples)} calls, queries per call {min(queries)}-{max(queries)}, "
            f"persons per call {statistics.mean(found):.1f}, "
            f"p50 {times[len(times) // 2]:.1f} ms, p99 {times[int(len(times) * 0.99)]:.1f} ms"
        )


def _register_make(rng: random.Random, *, companies: int, layers: int, fan_in: int) -> list[list[uuid.UUID]]:
    from service.companies.models import Company, CompanyRole, CompanyRoleType, Person

    types = dict(CompanyRoleType.objects.values_list("key", "uuid"))
    per_layer = companies // layers
    by_layer = [[uuid.uuid4() for _ in range(per_layer)] for _ in range(layers)]
    Company.objects.bulk_create(
        (Company(uuid=c, org_nr=f"{n:09d}", name=f"Company {n} AS") for n, c in enumerate(_flat(by_layer))),
        batch_size=5000,
    )
    persons, roles = [], []

    def person() -> uuid.UUID:
        persons.append(Person(uuid=uuid.uuid4(), full_name=f"Person {len(persons)}"))
        return persons[-1].uuid

    def role(company, key, share=None, *, holder_person=None, holder_company=None):
        roles.append(
            CompanyRole(
                company_id=company,
                company_role_type_id=types[key],
                holder_person_id=holder_person,
                holder_company_id=holder_company,
                share_percentage=share,
            )
        )

    for level, layer in enumerate(by_layer):
        for company in layer:
            if level + 1 < layers:
                for owner in rng.sample(by_layer[level + 1], fan_in):
                    role(company, "shareholder", Decimal(rng.randint(20, 60)), holder_company=owner)
            for _ in range(rng.randint(1, 2)):
                role(company, "shareholder", Decimal(rng.randint(5, 40)), holder_person=person())
            role(company, "board_chair", holder_person=person())
            role(company, "ceo", holder_person=person())
    Person.objects.bulk_create(persons, batch_size=5000)
    CompanyRole.objects.bulk_create(roles, batch_size=5000)
    return by_layer


def _flat(layers):
    return [company for layer in layers for company in layer]


if __name__ == "__main__":
    main()
