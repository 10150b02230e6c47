"""Benchmark: re-screening N monitored persons through the Celery path with two workers,
against the engine alone on the same persons, in one run. Prints figures; not a test.

On a fresh PostgreSQL scratch database (`vakt_rescreen_bench` on 127.0.0.1, or DATABASE_URL),
Redis db 8 as the broker (bench/rescreen_setup.py):

1. the real UN, OFAC and PEP lists imported; one config with UN and OFAC selected (PEP always);
2. N register persons under active monitorings: Nordic names (faker no_NO, sv_SE, da_DK) with
   birth dates and nationalities, 0.5% listed names with a spelling change;
3. the engine alone: `MatchIndex.search` of the full index on the same person queries, one
   process (what `screen_persons` does per row);
4. the Celery path: a full re-screen (`full_rescreen_plan`: chunks of CHUNK_SIZE monitorings,
   one task each) done by two `celery worker` processes (solo pool), workers warmed first;
   timed from planning to the last chunk done, cases written.

Target: the Celery path's rate per worker at least 0.6x the engine's.

    .venv/bin/python bench/bench_rescreen_workers.py --persons 100000
"""

from __future__ import annotations

import argparse
import os
import time

import rescreen_setup as bench

SCRATCH_DB = "vakt_rescreen_bench"
TARGET = 0.6


def _parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--persons", type=int, default=100_000)
    parser.add_argument("--chunk-size", type=int, default=2000)
    return parser.parse_args()


def engine_alone(config) -> tuple[int, float, float]:
    """(persons, seconds, CPU seconds): the same queries the runs make, searched in one process."""
    from service.screening.engine import screening_index
    from service.screening.monitoring_selectors import monitorings_screened
    from service.screening.screening_run import QUERY_FIELDS, SEARCH_LIMIT, entity_query

    loaded = screening_index()
    queries = [entity_query(row) for row in monitorings_screened(screening_config=config).values(*QUERY_FIELDS)]
    for query in queries[:200]:  # the engine warmed as the workers are
        loaded.index.search(query, limit=SEARCH_LIMIT)
    started, cpu_started = time.perf_counter(), time.process_time()
    for query in queries:
        loaded.index.search(query, limit=SEARCH_LIMIT)
    return len(queries), time.perf_counter() - started, time.process_time() - cpu_started


def main() -> None:
    args = _parse_args()
    env = bench.environment(SCRATCH_DB)
    from django.db import connection

    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}; broker: {bench.REDIS_URL}")
    started = time.perf_counter()
    bench.lists_import()
    print(f"  lists imported in {time.perf_counter() - started:.1f} s")
    config = bench.config_make("Bench Bank ASA", "un_security_council", "us_ofac_sdn")
    warm = bench.config_make("Warm-up AS")
    started = time.perf_counter()
    count = bench.persons_monitored(config, args.persons, listed=max(10, args.persons // 200))
    bench.persons_monitored(warm, 8, listed=2)
    print(f"  {count} persons monitored in {time.perf_counter() - started:.1f} s")

    searched, engine_seconds, engine_cpu = engine_alone(config)
    engine_rate = searched / engine_seconds

    started = time.perf_counter()
    with bench.Workers(env) as workers:
        bench.warm_workers(warm)
        print(f"  two workers started and warmed in {time.perf_counter() - started:.1f} s")
        cpu_before = workers.cpu_seconds()
        run, celery_seconds = bench.full_run(args.chunk_size)
        celery_cpu = workers.cpu_seconds() - cpu_before
    totals = bench.run_totals(run.uuid)
    celery_rate = totals["screened"] / celery_seconds
    per_worker = celery_rate / 2
    ratio = per_worker / engine_rate
    cpu_ratio = (totals["screened"] / celery_cpu) / (searched / engine_cpu)

    print(f"persons: {searched}; chunks: {run.chunk_count} of {args.chunk_size}; hits {totals['hits']}, new cases {totals['created']}")
    print(f"engine alone (1 process)   : {engine_seconds:7.2f} s  {engine_rate:8.0f} persons/s")
    print(f"Celery path (2 workers)    : {celery_seconds:7.2f} s  {celery_rate:8.0f} persons/s  = {per_worker:.0f} per worker")
    print(f"per worker / engine alone  : {ratio:.2f}x  (target >= {TARGET}x: {'PASS' if ratio >= TARGET else 'MISS'})")
    print(f"CPU per person             : engine {1e3 * engine_cpu / searched:.3f} ms, workers {1e3 * celery_cpu / totals['screened']:.3f} ms"
          f" = {cpu_ratio:.2f}x the engine's rate per CPU second (load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
