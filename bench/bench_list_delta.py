"""Benchmark: a list update of 1,000 changed entries — the time until its new cases exist —
against a full re-screen, in one run. Prints figures; not a test.

On a fresh PostgreSQL scratch database (`vakt_rescreen_bench`, or DATABASE_URL), Redis db 8,
two `celery worker` processes (bench/rescreen_setup.py):

1. the real UN, OFAC and PEP lists; one config with UN and OFAC selected; N register persons
   under active monitorings (Nordic names, 0.5% listed names with a spelling change) and 50
   more whose names the update will give to 50 listed OFAC individuals;
2. the full re-screen (every person, every list) through the workers: the baseline;
3. the update: the OFAC files copied and 1,000 entries changed (950 remarks amended, 50
   individuals renamed to the planted names), imported as a new version; its delta re-screen
   is enqueued on commit and done by the workers. Timed: the import, and from its commit
   until the run's last chunk is done (the new cases written);
4. where a delta run's time goes: its steps replayed in this process, one by one.

Target: the delta re-screen at most 5% of the full re-screen.

    .venv/bin/python bench/bench_list_delta.py --persons 100000
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

import rescreen_setup as bench

SCRATCH_DB = "vakt_rescreen_bench"
TARGET = 0.05
CHANGED, RENAMED = 1000, 50


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--persons", type=int, default=100_000)
    parser.add_argument("--chunk-size", type=int, default=2000)
    return parser.parse_args()


def _planted_names() -> list[tuple[str, str, str]]:
    """(first, middle, last) Norwegian names no list has."""
    from faker import Faker

    faker = Faker("no_NO")
    faker.seed_instance(bench.SEED + 1)
    return [(faker.first_name(), faker.first_name(), faker.last_name()) for _ in range(RENAMED)]


def ofac_update(folder: Path, planted: list[tuple[str, str, str]]) -> Path:
    """The OFAC files with CHANGED entries changed: RENAMED individuals renamed, the others'
    remarks amended. Rows are rewritten only where they change."""
    source = dict(bench.LISTS)["us_ofac_sdn"]
    for companion in ("alt.csv", "add.csv", "sdn_comments.csv"):
        shutil.copy(source.parent / companion, folder / companion)
    with open(source, newline="", encoding="utf-8", errors="surrogateescape") as stream:
        lines = stream.read().splitlines(keepends=True)
    rows = [(i, row) for i, row in enumerate(csv.reader(lines)) if len(row) >= 12 and row[2].strip() in ("individual", "-0-")]
    rng = random.Random(bench.SEED)
    chosen = rng.sample(rows, CHANGED)
    individuals = [item for item in chosen if item[1][2].strip() == "individual"][:RENAMED]
    renamed = dict(zip((i for i, _ in individuals), planted))
    for i, row in chosen:
        if i in renamed:
            first, middle, last = renamed[i]
            row[1] = f"{last.upper()}, {first} {middle}"
        else:
            remarks = row[11].strip()
            row[11] = "Bench revision 2." if remarks == "-0-" else f"{remarks} Bench revision 2."
        out = tempfile.SpooledTemporaryFile(mode="w+", newline="")
        csv.writer(out, lineterminator="\r\n" if lines[i].endswith("\r\n") else "\n").writerow(row)
        out.seek(0)
        lines[i] = out.read()
    target = folder / "sdn.csv"
    with open(target, "w", newline="", encoding="utf-8", errors="surrogateescape") as stream:
        stream.writelines(lines)
    return target


def _run_of(version, timeout: float = 600):
    from service.screening.models import ScreeningRun

    started = time.perf_counter()
    while (run := ScreeningRun.objects.filter(list_version=version).first()) is None:
        if time.perf_counter() - started > timeout:
            raise RuntimeError("no re-screen run was planned for the new version")
        time.sleep(0.02)
    return run


def _timed(label: str, step):
    started = time.perf_counter()
    value = step()
    print(f"  {label:<58}: {time.perf_counter() - started:7.3f} s")
    return value


def delta_profile(version_uuid, config) -> None:
    """The delta run's steps for one config, replayed in this process and timed one by one;
    caches cold as in a worker that meets a name for the first time."""
    from service.screening import rescreen
    from service.screening.matching import MatchIndex
    from service.screening.matching.index import KIND_CODES, LONG_SHOT_FLOOR
    from service.screening.matching.normalize import _normalize_cached, normalize_name
    from service.screening.monitoring_selectors import monitorings_screened
    from service.screening.screening_run import QUERY_FIELDS, SEARCH_LIMIT, entity_query

    print("where a delta run's time goes (its steps replayed in one process after the timed run):")
    rescreen._delta_cache.clear()
    loaded = _timed("delta index built", lambda: rescreen.delta_index(version_uuid))
    index = loaded.index
    rows = _timed("screened entities read (SQL, plain values)", lambda: list(
        monitorings_screened(screening_config=config).values(*QUERY_FIELDS)))
    queries = [entity_query(row) for row in rows]
    _normalize_cached.cache_clear()
    names = _timed("names normalised", lambda: [normalize_name(q.name, q.schema) for q in queries])
    blocker = index._blocker

    def blocking():
        return [blocker.kernel_arguments(name, name.kind, KIND_CODES.get(name.kind, "x"), LONG_SHOT_FLOOR)
                for name in names]

    with_candidates = sum(a is not None for a in _timed("blocking: probes, their spellings (cold)", blocking))
    _timed("blocking again (probes cached)", blocking)
    scored = []
    score_names = MatchIndex._score_names
    MatchIndex._score_names = lambda self, *a: scored.append(1) or score_names(self, *a)
    try:
        found = _timed("searched (names and probes cached)", lambda: sum(
            bool(index.search(q, limit=SEARCH_LIMIT)) for q in queries))
    finally:
        MatchIndex._score_names = score_names
    print(f"  -> {len(rows)} entities: {with_candidates} with a part spelled like a delta part, "
          f"{len(scored)} with a candidate scored in full, {found} with a hit")


def main() -> None:
    args = _parse_args()
    env = bench.environment(SCRATCH_DB)
    from django.db import connection

    from service.screening.list_import import screening_list_import
    from service.screening.models import ScreeningCase, ScreeningListCategory

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; broker: {bench.REDIS_URL}")
    bench.lists_import()
    config = bench.config_make("Bench Bank ASA", "un_security_council", "us_ofac_sdn")
    warm = bench.config_make("Warm-up AS")
    planted = _planted_names()
    started = time.perf_counter()
    count = bench.persons_monitored(
        config, args.persons, listed=max(10, args.persons // 200), extra_names=[f"{f} {m} {l}" for f, m, l in planted]
    )
    bench.persons_monitored(warm, 8, listed=2)
    print(f"  {count} persons monitored in {time.perf_counter() - started:.1f} s")
    folder = Path(tempfile.mkdtemp(prefix="vakt-ofac-update-"))
    update = ofac_update(folder, planted)
    from service.screening.engine import screening_index

    screening_index()  # built once, on disk for the workers

    with bench.Workers(env):
        bench.warm_workers(warm)
        full, full_seconds = bench.full_run(args.chunk_size)
        cases_before = ScreeningCase.objects.count()

        started = time.perf_counter()
        result = screening_list_import(category=ScreeningListCategory.objects.get(key="us_ofac_sdn"), path=update)
        committed = time.perf_counter()
        run = _run_of(result.version)
        bench.run_wait(run.uuid)
        done = time.perf_counter()
    import_seconds, delta_seconds = committed - started, done - committed
    full_totals, delta_totals = bench.run_totals(full.uuid), bench.run_totals(run.uuid)
    ratio, with_import = delta_seconds / full_seconds, (done - started) / full_seconds

    print(f"persons: {full_totals['screened']}; update: {result.summary_line()}")
    print(f"full re-screen (2 workers) : {full_seconds:7.2f} s  {full.chunk_count} chunks, hits {full_totals['hits']}, new cases {full_totals['created']}")
    print(f"list import (new version)  : {import_seconds:7.2f} s")
    print(f"delta re-screen            : {delta_seconds:7.2f} s  {run.delta_entry_count} entries in the delta index, {run.chunk_count} chunks, "
          f"hits {delta_totals['hits']}, new cases {delta_totals['created']}, cases moved to a changed entry {delta_totals['updated']}")
    print(f"cases: {cases_before} before the update, {ScreeningCase.objects.count()} after")
    print(f"delta / full re-screen     : {100 * ratio:.1f}%  (target <= {100 * TARGET:.0f}%: {'PASS' if ratio <= TARGET else 'MISS'});"
          f" with the import {100 * with_import:.1f}%  (load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    delta_profile(result.version.uuid, config)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
