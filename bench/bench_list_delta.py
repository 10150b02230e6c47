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
4. the worst case, for comparison: one more version in which all 1,000 changed entries have
   changed names (1,000 other entries, each name with one spelling change), timed the same way;
5. where the realistic update's delta run's time goes: its steps replayed in this process.

Target: the delta re-screen of the realistic update (3.) at most 5% of the full re-screen;
the worst case (4.) is printed beside it, not judged.

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


def ofac_update(folder: Path, planted: list[tuple[str, str, str]], *, source: Path | None = None,
                seed: int = bench.SEED) -> Path:
    """The OFAC files (`source`'s sdn.csv, the real one by default) with CHANGED entries changed:
    with `planted` names, that many individuals renamed to them and the others' remarks
    amended; without, every one's name given one spelling change. Rows are rewritten only
    where they change."""
    source = source or dict(bench.LISTS)["us_ofac_sdn"]
    companions = dict(bench.LISTS)["us_ofac_sdn"].parent
    for companion in ("alt.csv", "add.csv", "sdn_comments.csv"):
        shutil.copy(companions / companion, folder / companion)
    with open(source, newline="", encoding="utf-8", errors="surrogateescape") as stream:
        lines = stream.read().splitlines(keepends=True)
    rows = [(i, row) for i, row in enumerate(csv.reader(lines)) if len(row) >= 12 and row[2].strip() in ("individual", "-0-")]
    rng = random.Random(seed)
    chosen = rng.sample(rows, CHANGED)
    individuals = [item for item in chosen if item[1][2].strip() == "individual"][:len(planted)]
    renamed = dict(zip((i for i, _ in individuals), planted))
    for i, row in chosen:
        if i in renamed:
            first, middle, last = renamed[i]
            row[1] = f"{last.upper()}, {first} {middle}"
        elif not planted:
            row[1] = bench._variant(row[1], rng)
        else:
            # A new item, written as OFAC writes them ("; "-separated, one final period): text
            # glued after the period would run into the last item (an alias, a birth date).
            remarks = row[11].strip()
            row[11] = "Bench revision 2." if remarks == "-0-" else f"{remarks.removesuffix('.')}; Bench revision 2."
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

    print("where the realistic update's delta run's time goes (its steps replayed in one process):")
    rescreen._delta_cache.clear()
    delta = _timed("delta indexes built (whole, new match facts)", lambda: rescreen.delta_index(version_uuid))
    narrowing = _timed("entities with a case on a carried entry (SQL)", lambda: delta.narrowing(config))
    rows = _timed("screened entities read (SQL, plain values)", lambda: list(
        monitorings_screened(screening_config=config).values(*QUERY_FIELDS)))
    queries = [entity_query(row) for row in rows]
    _normalize_cached.cache_clear()
    names = _timed("names normalised", lambda: [normalize_name(q.name, q.schema) for q in queries])
    index = delta.new_facts
    with_candidates = scored_count = 0
    if index is not None:
        blocker = index._blocker

        def blocking():
            return [blocker.kernel_arguments(name, name.kind, KIND_CODES.get(name.kind, "x"), LONG_SHOT_FLOOR)
                    for name in names]

        with_candidates = sum(a is not None for a in _timed("blocking in the new-facts index (cold)", blocking))
        scored = []
        score_names = MatchIndex._score_names
        MatchIndex._score_names = lambda self, *a: scored.append(1) or score_names(self, *a)
        try:
            _timed("searched in the new-facts index (names, probes cached)", lambda: [
                index.search(q, limit=SEARCH_LIMIT) for q in queries])
        finally:
            MatchIndex._score_names = score_names
        scored_count = len(scored)
    passing = [q for row, q in zip(rows, queries) if narrowing is None or narrowing.passes(row["entity_uuid"], q)]
    found = _timed(f"searched in the whole delta ({len(passing)} passed)", lambda: sum(
        bool(delta.whole.index.search(q, limit=SEARCH_LIMIT)) for q in passing))
    print(f"  -> {len(rows)} entities; delta {len(delta.whole.entries)} entries, "
          f"{0 if index is None else index.stats().entities} with new match facts; {with_candidates} with a part spelled "
          f"like one of theirs, {scored_count} with a candidate scored in full; "
          f"{len(narrowing.also) if narrowing else 0} with a case on a carried entry; {found} with a hit")


def _rescreen_timed(workers, category, path):
    """Import `path` as a new version and wait for its delta run: (result, run, import s, delta s, worker CPU s)."""
    from service.screening.list_import import screening_list_import

    cpu = workers.cpu_seconds()
    started = time.perf_counter()
    result = screening_list_import(category=category, path=path)
    committed = time.perf_counter()
    run = _run_of(result.version)
    bench.run_wait(run.uuid)
    done = time.perf_counter()
    return result, run, committed - started, done - committed, workers.cpu_seconds() - cpu


def _delta_line(label: str, timed, full_seconds: float) -> None:
    result, run, import_seconds, seconds, cpu = timed
    totals = bench.run_totals(run.uuid)
    print(f"{label}: {result.summary_line()}")
    print(f"  import {import_seconds:.2f} s; delta re-screen {seconds:.2f} s (workers' CPU {cpu:.1f} s), "
          f"{run.delta_entry_count} entries in the delta, {run.chunk_count} chunks, hits {totals['hits']}, "
          f"new cases {totals['created']}, cases moved to a changed entry {totals['updated']}; "
          f"= {100 * seconds / full_seconds:.1f}% of the full re-screen")


def main() -> None:
    args = _parse_args()
    env = bench.environment(SCRATCH_DB)
    from django.db import connection

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
    folders = [Path(tempfile.mkdtemp(prefix="vakt-ofac-update-")) for _ in range(2)]
    update = ofac_update(folders[0], planted)
    worst = ofac_update(folders[1], [], source=update, seed=bench.SEED + 2)
    from service.screening.engine import screening_index

    screening_index()  # built once, on disk for the workers
    ofac = ScreeningListCategory.objects.get(key="us_ofac_sdn")

    with bench.Workers(env) as workers:
        bench.warm_workers(warm)
        cpu = workers.cpu_seconds()
        full, full_seconds = bench.full_run(args.chunk_size)
        full_cpu = workers.cpu_seconds() - cpu
        cases_before = ScreeningCase.objects.count()
        realistic = _rescreen_timed(workers, ofac, update)
        cases_after = ScreeningCase.objects.count()
        worst_case = _rescreen_timed(workers, ofac, worst)
    full_totals = bench.run_totals(full.uuid)
    ratio = realistic[3] / full_seconds

    print(f"persons: {full_totals['screened']}")
    print(f"full re-screen (2 workers): {full_seconds:.2f} s (workers' CPU {full_cpu:.1f} s), {full.chunk_count} chunks, "
          f"hits {full_totals['hits']}, new cases {full_totals['created']}")
    _delta_line("realistic update (950 remarks amended, 50 renamed to monitored names)", realistic, full_seconds)
    print(f"  cases: {cases_before} before the update, {cases_after} after")
    _delta_line("worst case, not judged (1,000 entries renamed, one spelling change each)", worst_case, full_seconds)
    print(f"realistic delta / full re-screen: {100 * ratio:.1f}%  (target <= {100 * TARGET:.0f}%: "
          f"{'PASS' if ratio <= TARGET else 'MISS'}); worst case {100 * worst_case[3] / full_seconds:.1f}%; "
          f"load average now {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    delta_profile(realistic[0].version.uuid, config)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
