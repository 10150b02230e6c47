"""What the re-screening benchmarks share: a PostgreSQL database with the real lists, a config
screening N register persons, and two real Celery worker processes on Redis.

The persons are realistic Nordic names (faker no_NO, sv_SE, da_DK) with birth dates and
nationalities, and some listed names with one spelling change each (so a run has hits). They
are written in bulk straight into the tables (monitorings with an approving decision): the
setup is not what is measured.
"""

from __future__ import annotations

import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from scratch_db import ROOT, django_setup, scratch_database_url

SHARED = ROOT.parent / "shared" / "data"
LISTS = (
    ("un_security_council", SHARED / "sanctions" / "un" / "UN_consolidated.xml"),
    ("us_ofac_sdn", SHARED / "sanctions" / "ofac" / "sdn.csv"),
    ("pep", SHARED / "pep" / "us_congress_senzing.json"),
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
SEED = 20261126


def environment(db_name: str) -> dict:
    """Django set up on a fresh scratch database, Redis db 8 as the broker, a temporary data
    directory (the engine's index cache, shared with the workers)."""
    database_url = scratch_database_url(db_name, reuse=False)
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ.setdefault("VAKT_SECRET_KEY", secrets.token_urlsafe(48))
    os.environ["VAKT_DATA_DIR"] = tempfile.mkdtemp(prefix="vakt-rescreen-bench-")
    django_setup(database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return {**os.environ, "DATABASE_URL": database_url}


def lists_import() -> None:
    from service.screening.list_import import screening_list_import
    from service.screening.models import ScreeningListCategory

    for key, path in LISTS:
        result = screening_list_import(category=ScreeningListCategory.objects.get(key=key), path=path)
        print(f"  {result.summary_line()}")


def _variant(name: str, rng: random.Random) -> str:
    """One spelling change: a letter dropped, doubled or two swapped."""
    letters = [i for i, c in enumerate(name) if c.isalpha()]
    i = rng.choice(letters[1:-1] or letters)
    change = rng.choice(("drop", "double", "swap"))
    if change == "drop":
        return name[:i] + name[i + 1 :]
    if change == "double":
        return name[:i] + name[i] + name[i:]
    return name[: i - 1] + name[i] + name[i - 1] + name[i + 1 :] if i > 0 else name


def listed_names_varied(count: int, rng: random.Random) -> list[str]:
    from service.screening.models import ScreeningListCategory, ScreeningListEntry

    current = ScreeningListCategory.objects.exclude(current_version=None).values_list("current_version", flat=True)
    names = list(
        ScreeningListEntry.objects.filter(version__in=current, schema="Person").values_list("primary_name", flat=True)
    )
    return [_variant(n.title(), rng) for n in rng.sample(sorted(names), min(count, len(names)))]


def persons_monitored(config, count: int, *, listed: int, extra_names: list[str] = ()) -> int:
    """`count` register persons under active monitorings of `config`: Nordic names, `listed`
    of them listed names with a spelling change, then `extra_names` (no birth date)."""
    from django.db import transaction
    from faker import Faker

    from service.companies.models import Person
    from service.screening.models import EntityMonitoring, EntityMonitoringDecision, EntityMonitoringType

    rng = random.Random(SEED)
    fakers = [(Faker(locale), country) for locale, country in (("no_NO", "no"), ("sv_SE", "se"), ("da_DK", "dk"))]
    for faker, _ in fakers:
        faker.seed_instance(SEED)
    persons = []
    for i in range(count - listed):
        faker, country = fakers[i % 3]
        male = rng.random() < 0.5
        name = faker.name_male() if male else faker.name_female()
        birth = faker.date_of_birth(minimum_age=18, maximum_age=90)
        persons.append(Person(full_name=name, birth_date=birth, nationality=country, gender="male" if male else "female"))
    persons += [Person(full_name=name) for name in listed_names_varied(listed, rng)]
    persons += [Person(full_name=name) for name in extra_names]
    other = EntityMonitoringType.objects.get(key="other")
    with transaction.atomic():  # the two foreign keys between the rows are checked at commit
        Person.objects.bulk_create(persons, batch_size=5000)
        monitorings, decisions = [], []
        for person in persons:
            decision_uuid = uuid.uuid4()
            monitoring = EntityMonitoring(
                screening_config=config, entity_key="person", entity_uuid=person.uuid, person=person,
                entity_monitoring_type=other, monitoring_origin_key="api", latest_decision_id=decision_uuid,
            )
            monitorings.append(monitoring)
            decisions.append(
                EntityMonitoringDecision(uuid=decision_uuid, entity_monitoring=monitoring, approved_flag=True, decision_origin_key="user")
            )
        EntityMonitoring.objects.bulk_create(monitorings, batch_size=5000)
        EntityMonitoringDecision.objects.bulk_create(decisions, batch_size=5000)
    return len(persons)


def config_make(name: str, *category_keys: str):
    from service.auth.services import app_customer_create
    from service.screening.config_services import config_create
    from service.screening.models import ScreeningConfigListCategory, ScreeningListCategory

    organisation = app_customer_create(name=name)
    config = config_create(
        app_customer_uuid=organisation.uuid, suggestion_setting=None,
        auto_approve_monitoring_flag=False, subscribe_to_email_notifications_flag=False,
    )
    for key in category_keys:
        ScreeningConfigListCategory.objects.create(screening_config=config, category=ScreeningListCategory.objects.get(key=key))
    return config


class Workers:
    """Two `celery worker` processes (solo pool: one process each) on the Redis broker, each in
    a session of its own."""

    def __init__(self, env: dict, count: int = 2) -> None:
        self.env, self.count, self.processes = env, count, []

    def __enter__(self) -> Workers:
        from portal.celery import app

        app.control.purge()
        for i in range(self.count):
            command = [
                sys.executable, "-m", "celery", "--quiet", "-A", "portal", "worker", "--pool", "solo", "-n", f"bench{i}@%h",
                "--without-gossip", "--without-mingle", "--loglevel", os.environ.get("BENCH_WORKER_LOGLEVEL", "WARNING"),
            ]
            # A session of its own, as a worker service has: with the kernel's autogroups, CPU
            # is shared between sessions, so children of this one would split one share.
            self.processes.append(subprocess.Popen(command, cwd=ROOT, env=self.env, start_new_session=True))
        deadline = time.monotonic() + 300  # a loaded machine compiles the kernels slowly
        while len(app.control.ping(timeout=1.0)) < self.count:
            if time.monotonic() > deadline:
                self.__exit__()  # no worker left behind to take a later run's tasks
                raise RuntimeError("the Celery workers did not answer within five minutes")
        return self

    def cpu_seconds(self) -> float:
        """User + system CPU the worker processes have used so far (from /proc)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for process in self.processes:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks

    def __exit__(self, *exc) -> None:
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def run_wait(run_uuid, *, timeout: float = 3600) -> float:
    """Seconds until the run's last chunk is done (polled every 50 ms)."""
    from service.screening.models import ScreeningRun

    started = time.perf_counter()
    while True:
        finished = ScreeningRun.objects.filter(pk=run_uuid).values_list("finished_timestamp", flat=True).first()
        if finished is not None:
            return time.perf_counter() - started
        if time.perf_counter() - started > timeout:
            raise RuntimeError(f"run {run_uuid} not finished after {timeout:.0f} s")
        time.sleep(0.05)


def run_totals(run_uuid) -> dict:
    from django.db.models import Sum

    from service.screening.models import ScreeningRunChunk

    return ScreeningRunChunk.objects.filter(run_id=run_uuid).aggregate(
        screened=Sum("screened"), hits=Sum("hits"), created=Sum("cases_created"), updated=Sum("cases_updated")
    )


def full_run(chunk_size: int):
    """Plan a full re-screen (its chunks go to the workers) and wait for it; (run, seconds)."""
    from service.screening.rescreen import full_rescreen_plan

    started = time.perf_counter()
    run = full_rescreen_plan(chunk_size=chunk_size)
    run_wait(run.uuid)
    return run, time.perf_counter() - started


def warm_workers(config) -> None:
    """Every worker loads the full index (from the disk cache) and the engine's tables before
    anything is timed: a run of a small config's chunks of one monitoring each."""
    from django.db import transaction

    from service.screening.models import ScreeningRun
    from service.screening.rescreen import _plan

    with transaction.atomic():
        run = ScreeningRun.objects.create(kind=ScreeningRun.Kind.FULL)
        _plan(run, [config], chunk_size=1)
    run_wait(run.uuid)

