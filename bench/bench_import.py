"""Benchmark: import_enheter against a plain PostgreSQL COPY of the same file.

    .venv/bin/python bench/bench_import.py [--rows 1000000] [--dsn postgres://...] [--copy-runs 3] [--keep] [--csv FILE]

In one run: create a scratch database, migrate it and load the reference tables,
generate an Enhetsregisteret-format CSV of --rows demo companies, then time
(a) COPY of the file into a staging table of text columns (the floor: no parsing,
no validation, no indexes), (b) `manage.py import_enheter` of the same file into the
empty register, in a child process so its peak memory is its own, and (b') the same
command again on the same file (the re-import: every row unchanged, nothing
rewritten). Prints the times, their ratio to COPY (target: import within 3x), rows
per second and the importer's peak memory. For scale it also times (c) what the
database alone needs to put the same company rows into the company table with its
indexes and foreign keys (an INSERT ... SELECT from a copy of them). The scratch
database is dropped unless --keep.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]
SHARED_BRREG = ROOT.parent / "shared" / "data" / "brreg"
# Runs the import in a child process and reports that process's own peak memory.
IMPORT_RUNNER = """
import os, resource, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
django.setup()
from django.core.management import call_command
call_command("import_enheter", *sys.argv[1:], "--quiet", "--no-analysis")
print(f"peak_rss_kb={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""


def _with_database(dsn: str, name: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path=f"/{name}"))


def _python(*args: str, database_url: str) -> subprocess.CompletedProcess:
    # Production settings need a key; a scratch database signs nothing worth keeping.
    env = {"VAKT_SECRET_KEY": secrets.token_urlsafe(48), **os.environ, "DATABASE_URL": database_url}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True)


def _manage(*args: str, database_url: str) -> subprocess.CompletedProcess:
    return _python(str(ROOT / "manage.py"), *args, database_url=database_url)


def _copy_baseline(database_url: str, path: Path, runs: int) -> tuple[float, int]:
    """The median of `runs` COPYs of the file (each into a new table): one COPY varies by a
    quarter from run to run on a shared machine, and the ratio with it."""
    with open(path, encoding="utf-8") as stream:
        header = stream.readline().strip().split(",")
    columns = ", ".join(f'"{name.strip(chr(34))}" text' for name in header)
    times = []
    with psycopg.connect(database_url, autocommit=True) as connection:
        for _ in range(runs):
            connection.execute("DROP TABLE IF EXISTS raw_enheter")
            connection.execute(f"CREATE TABLE raw_enheter ({columns})")
            started = time.perf_counter()
            with connection.cursor() as cursor, open(path, "rb") as data:
                with cursor.copy("COPY raw_enheter FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
                    while chunk := data.read(1 << 20):
                        copy.write(chunk)
            times.append(time.perf_counter() - started)
            count = connection.execute("SELECT count(*) FROM raw_enheter").fetchone()[0]
            connection.execute("DROP TABLE raw_enheter")
    seconds = statistics.median(times)
    print(
        f"(a) COPY into a text staging table: {count:,} rows in {seconds:.1f} s "
        f"(median of {runs}: {', '.join(f'{t:.1f}' for t in times)} s)"
    )
    return seconds, count


def _companies_empty(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("TRUNCATE service_companies_company, service_companies_geopostalcode CASCADE")


def _table_floor(database_url: str) -> float:
    """Seconds for INSERT ... SELECT of the imported company rows back into the emptied, indexed table."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("CREATE TABLE floor_rows AS SELECT * FROM service_companies_company")
        connection.execute("TRUNCATE service_companies_company CASCADE")
        started = time.perf_counter()
        connection.execute("INSERT INTO service_companies_company SELECT * FROM floor_rows")
        seconds = time.perf_counter() - started
        connection.execute("DROP TABLE floor_rows")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dsn",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server to create the scratch database on",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch database and the CSV")
    parser.add_argument("--copy-runs", type=int, default=3, help="COPYs timed for the baseline (their median)")
    parser.add_argument("--csv", type=Path, help="a CSV kept by an earlier run (--keep) instead of generating one (--rows, --seed unused)")
    options = parser.parse_args()
    if not options.dsn.startswith(("postgres://", "postgresql://")):
        parser.error("--dsn (or DATABASE_URL) must be a PostgreSQL URL")

    scratch = f"vakt_bench_import_{os.getpid()}"
    admin_url = _with_database(options.dsn, "postgres")
    database_url = _with_database(options.dsn, scratch)
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{scratch}"')
    workdir = Path(tempfile.mkdtemp(prefix="vakt-bench-import-"))
    csv_path = workdir / "enheter.csv"
    try:
        print(f"scratch database {scratch}; {os.cpu_count()} CPUs")
        _manage("migrate", "-v0", database_url=database_url)
        for command, file_name in (
            ("import_nace", "naeringskoder-sn2007.csv"),
            ("import_geo", "fylker-2024.csv"),
            ("import_organization_types", "organisasjonsformer.csv"),
        ):
            if (SHARED_BRREG / file_name).exists():
                _manage(command, str(SHARED_BRREG / file_name), "--quiet", database_url=database_url)

        if options.csv:
            csv_path = options.csv
            print(f"reusing {csv_path} ({csv_path.stat().st_size / 1e6:,.0f} MB)")
        else:
            started = time.perf_counter()
            _manage(
                "generate_demo", "--enheter-csv", str(csv_path), "--companies", str(options.rows), "--seed",
                str(options.seed), "--quiet", database_url=database_url,
            )
            size_mb = csv_path.stat().st_size / 1e6
            print(f"generated {options.rows:,} rows ({size_mb:,.0f} MB) in {time.perf_counter() - started:.1f} s")

        copy_seconds, rows = _copy_baseline(database_url, csv_path, options.copy_runs)

        _companies_empty(database_url)
        for label in ("(b) import_enheter into the empty register", "(b') import_enheter again, the same file"):
            started = time.perf_counter()
            report = _python("-c", IMPORT_RUNNER, str(csv_path), database_url=database_url)
            import_seconds = time.perf_counter() - started
            peak_mb = int(report.stderr.rsplit("peak_rss_kb=", 1)[1]) / 1024
            print(f"{label}: {import_seconds:.1f} s")
            print(f"    {report.stdout.strip().splitlines()[-1]}")
            print(
                f"    ratio to COPY: {import_seconds / copy_seconds:.2f}x (target: within 3x); "
                f"{rows / import_seconds:,.0f} rows/s (COPY: {rows / copy_seconds:,.0f} rows/s); "
                f"peak memory {peak_mb:,.0f} MB (max RSS of its process, Django included)"
            )
        floor_seconds = _table_floor(database_url)
        print(
            f"(c) for scale, the database alone: INSERT ... SELECT of the same company rows into the indexed table: "
            f"{floor_seconds:.1f} s ({floor_seconds / copy_seconds:.2f}x COPY)"
        )
    finally:
        if options.keep:
            print(f"kept {scratch} and {csv_path}")
        else:
            if not options.csv:
                csv_path.unlink(missing_ok=True)
            workdir.rmdir()
            with psycopg.connect(admin_url, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


if __name__ == "__main__":
    main()
