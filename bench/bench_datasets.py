"""Benchmark: streaming 100,000 accounts-composite rows over HTTP from a real server process.

Prints figures; it is not a test. On PostgreSQL (DATABASE_URL when it names
PostgreSQL, else a scratch database it creates) it loads ~100,000 accounts with
their income statement, balance sheet and highlights (COPY), then, for each
measurement, starts a fresh server process (wsgiref on 127.0.0.1 serving the
project's WSGI application) and reads the response incrementally:

- `GET /datasets/v1/dataset/accounts-composite?limit=100000` as json, jsonl and csv (streamed);
- the same rows built in one go, the baseline, as the server would without streaming:
  `joined` (the same writer, joined into one body) and `dicts` (a list of dicts, then json.dumps).

For each it prints rows/s, bytes, the time to the first byte and the server
process's memory: resident set size before the request and its peak during it
(VmHWM, reset just before the request), so the growth of streaming against the
baseline shows as a ratio. The load average is printed too: the figures are
only comparable on a quiet machine.
With --tracemalloc the server also traces Python allocations (much slower; the
growth of the traced heap's peak over its size before the request printed beside).

    .venv/bin/python bench/bench_datasets.py                 # 100,000 rows
    .venv/bin/python bench/bench_datasets.py --rows 20000 --reuse
    .venv/bin/python bench/bench_datasets.py --tracemalloc
    .venv/bin/python bench/bench_datasets.py serve --port 8765  # the server alone (used internally)
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
import uuid
from decimal import Decimal
from pathlib import Path

from scratch_db import django_setup, scratch_database_url

ROOT = Path(__file__).resolve().parents[1]
SCRATCH_DB = "vakt_datasets_bench"
DATASET_PATH = "/datasets/v1/dataset/accounts-composite"
ACCOUNTS_PER_COMPANY = 5
FIRST_YEAR = 2019
BENCH_USER = "Datasets benchmark"
READ_BLOCK = 1 << 20


# --- database ------------------------------------------------------------------------------------


def _copy(model, rows: list[dict]) -> None:
    """COPY rows into the model's table; columns not given take the field's default (or null)."""
    from django.db import connection

    fields = model._meta.concrete_fields
    columns = ", ".join(f'"{field.column}"' for field in fields)
    defaults = {field.column: field.get_default() for field in fields}
    with connection.cursor() as cursor:
        with cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as copy:
            for row in rows:
                copy.write_row([row.get(field.column, defaults[field.column]) for field in fields])


def _money(rng: random.Random) -> Decimal:
    return Decimal(rng.randrange(-5_000_000_00, 500_000_000_00)) / 100


def _ratio(rng: random.Random) -> Decimal:
    return Decimal(rng.randrange(-1_000_000, 1_000_000)) / 1_000_000


def _decimal_columns(model) -> list[str]:
    return [field.column for field in model._meta.concrete_fields if field.get_internal_type() == "DecimalField"]


def _load_accounts(rows: int) -> None:
    """`rows` accounts (five years per company), each with its three statements."""
    from service.companies import models as m

    rng = random.Random(20240501)
    now = dt.datetime.now(dt.timezone.utc)
    account_type = m.AccountsType.objects.get(key="annual_company_accounts")
    companies, accounts, incomes, balances, highlights = [], [], [], [], []
    income_figures = _decimal_columns(m.AccountsIncomeStatement)
    balance_figures = _decimal_columns(m.AccountsBalanceSheet)
    ratio_figures = _decimal_columns(m.AccountsHighlights)
    for company_number in range((rows + ACCOUNTS_PER_COMPANY - 1) // ACCOUNTS_PER_COMPANY):
        company_uuid = uuid.uuid4()
        companies.append(
            {
                "uuid": company_uuid,
                "org_nr": str(800_000_000 + company_number),
                "org_nr_schema": "NO",
                "name": f"Benchmark Selskap {company_number} AS",
                "create_timestamp": now,
                "update_timestamp": now,
            }
        )
        for offset in range(ACCOUNTS_PER_COMPANY):
            if len(accounts) == rows:
                break
            year = FIRST_YEAR + offset
            accounts_uuid = uuid.uuid4()
            accounts.append(
                {
                    "uuid": accounts_uuid,
                    "company_id": company_uuid,
                    "accounts_type_id": account_type.uuid,
                    "accounting_year": year,
                    "accounting_announcement_date": dt.date(year + 1, 6, 1),
                    "accounting_from_date": dt.date(year, 1, 1),
                    "accounting_to_date": dt.date(year, 12, 31),
                    "update_timestamp": now,
                }
            )
            owned = {"accounts_id": accounts_uuid}
            incomes.append({"uuid": uuid.uuid4(), **owned, **{c: _money(rng) for c in income_figures}})
            balances.append({"uuid": uuid.uuid4(), **owned, **{c: _money(rng) for c in balance_figures}})
            highlights.append({"uuid": uuid.uuid4(), **owned, **{c: _ratio(rng) for c in ratio_figures}})
    for model, table_rows in (
        (m.Company, companies),
        (m.Accounts, accounts),
        (m.AccountsIncomeStatement, incomes),
        (m.AccountsBalanceSheet, balances),
        (m.AccountsHighlights, highlights),
    ):
        _copy(model, table_rows)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _prepare(*, rows: int, reuse: bool) -> tuple[str, str]:
    """The database URL and basic auth credentials of an API user, with `rows` accounts loaded."""
    database_url = scratch_database_url(SCRATCH_DB, reuse=reuse)
    django_setup(database_url)
    from django.core.management import call_command

    from service.auth.models import ApiUser
    from service.auth.services import api_user_create, api_user_rotate_secrets, app_customer_create
    from service.companies import models as m

    call_command("migrate", verbosity=0)
    present = m.Accounts.objects.count()
    if present < rows:
        if present:
            sys.exit(f"The database holds {present} accounts, fewer than --rows {rows}: drop it or leave out --reuse.")
        started = time.perf_counter()
        _load_accounts(rows)
        print(f"loaded {rows:,} accounts with 3 statements each in {time.perf_counter() - started:.1f} s")
    user = ApiUser.objects.filter(name=BENCH_USER).first()
    if user is None:
        credentials = api_user_create(app_customer=app_customer_create(name=BENCH_USER), name=BENCH_USER, role_keys=[])
    else:
        credentials = api_user_rotate_secrets(api_user=user, role_keys=[])
    secret = base64.b64encode(f"{credentials.basic_auth_id}:{credentials.basic_auth_secret}".encode()).decode()
    return database_url, f"Basic {secret}"


# --- the server process ------------------------------------------------------------------------------


def _proc_status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def serve(*, port: int, traced: bool) -> None:
    """The project's WSGI application on 127.0.0.1:port, plus three bench-only routes:

    /__bench__/reset     resets the peak RSS (and the traced peak)
    /__bench__/memory    {rss_kib, peak_rss_kib, traced_kib, traced_peak_kib}
    /__bench__/baseline  the dataset's rows built in one go (?kind=joined|dicts, same query string)
    """
    import tracemalloc
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    if traced:
        tracemalloc.start()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    from django.core.wsgi import get_wsgi_application

    django_app = get_wsgi_application()

    def memory() -> dict:
        traced_now, traced_peak = tracemalloc.get_traced_memory() if traced else (0, 0)
        return {
            "rss_kib": _proc_status_kib("VmRSS"),
            "peak_rss_kib": _proc_status_kib("VmHWM"),
            "traced_kib": traced_now // 1024,
            "traced_peak_kib": traced_peak // 1024,
        }

    def app(environ, start_response):
        path = environ["PATH_INFO"]
        if path == "/__bench__/reset":
            Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS
            if traced:
                tracemalloc.reset_peak()
            start_response("204 No Content", [])
            return []
        if path == "/__bench__/memory":
            start_response("200 OK", [("Content-Type", "application/json")])
            return [json.dumps(memory()).encode()]
        if path == "/__bench__/baseline":
            return _baseline(environ, start_response)
        return django_app(environ, start_response)

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args) -> None:
            pass

    with make_server("127.0.0.1", port, app, handler_class=QuietHandler) as server:
        print("ready", flush=True)
        server.serve_forever()


def _baseline(environ, start_response):
    """The rows of the streamed request, built whole before the first byte is sent."""
    from urllib.parse import parse_qs

    from django.core.serializers.json import DjangoJSONEncoder
    from django.db import close_old_connections

    from service.companies.datasets.formats import json_element_writer
    from service.companies.datasets.query import dataset_queryset, plan_for, plan_rows
    from service.companies.datasets.registry import dataset_named
    from service.companies.datasets.selection import selection_from
    from service.pagination import Page

    query = parse_qs(environ.get("QUERY_STRING", ""))
    kind, limit = query["kind"][0], int(query["limit"][0])
    dataset = dataset_named("accounts-composite")
    selection = selection_from(dataset=dataset, keep_only=None, ignore=None, granted_roles=frozenset())
    plan = plan_for(dataset=dataset, selection=selection)
    queryset = dataset_queryset(dataset=dataset, conditions=[], granted_roles=frozenset())
    if kind == "joined":
        rows = list(plan_rows(plan=plan, queryset=queryset, page=Page(limit=limit, offset=0)))
        element = json_element_writer(plan)
        body = ("[\n" + ",\n".join(element(row) for row in rows) + "\n]\n").encode()
    else:
        # The naive endpoint: every row read at once as Python objects, nested dicts, one json.dumps.
        rows = list(queryset.values_list(*plan.columns).order_by("pk")[:limit])
        elements = [_element_dict(plan, row) for row in rows]
        body = json.dumps(elements, cls=DjangoJSONEncoder).encode()
    count = len(rows)
    del rows
    close_old_connections()
    start_response(
        "200 OK",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("X-Bench-Rows", str(count))],
    )
    return [body]


def _element_dict(plan, row: tuple) -> dict:
    """A composite as nested dicts, the way a non-streaming endpoint would build it."""
    element = {}
    for entity in plan.entities:
        if entity.presence_index is not None and row[entity.presence_index] is None:
            element[entity.name] = None
            continue
        values = {}
        for planned in entity.fields:
            value = None if planned.index is None else row[planned.index]
            values[planned.field.name] = planned.field.derive(value) if planned.field.derive else value
        element[entity.name] = values
    return element


# --- the measuring client ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """A fresh server per measurement, so no run inherits another's allocator state."""

    def __init__(self, *, database_url: str, traced: bool) -> None:
        self.port = _free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "portal.settings"}
        env.pop("REDIS_URL", None)  # the embedded default: no shared cache needed for one process
        command = [sys.executable, __file__, "serve", "--port", str(self.port)] + (["--tracemalloc"] if traced else [])
        self.process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the benchmark server did not start")

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, int, int, float, float]:
        """Status, headers, bytes, newlines, seconds to the first byte and in all, read in 1 MiB blocks."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        started = time.perf_counter()
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()  # returns once the status line and headers are in
        first_byte = time.perf_counter() - started
        size = newlines = 0
        while block := response.read(READ_BLOCK):
            size += len(block)
            newlines += block.count(b"\n")
        seconds = time.perf_counter() - started
        connection.close()
        return response.status, dict(response.getheaders()), size, newlines, first_byte, seconds

    def memory(self) -> dict:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("GET", "/__bench__/memory")
        return json.loads(connection.getresponse().read())

    def reset_peak(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("GET", "/__bench__/reset")
        connection.getresponse().read()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def _rows_from_newlines(file_type: str, newlines: int) -> int:
    # json: "[\n" + rows joined by ",\n" + "\n]\n"; jsonl: one line per row; csv: a header line first.
    return {"json": newlines - 2, "jsonl": newlines, "csv": newlines - 1}[file_type]


def measure(*, label: str, path: str, file_type: str | None, auth: str, database_url: str, traced: bool) -> dict:
    server = ServerProcess(database_url=database_url, traced=traced)
    try:
        warm = server.get(f"{DATASET_PATH}?limit=10", {"Authorization": auth})  # imports, connection, caches
        assert warm[0] == 200, warm
        before = server.memory()
        server.reset_peak()
        status, headers, size, newlines, first_byte, seconds = server.get(path, {"Authorization": auth})
        after = server.memory()
    finally:
        server.stop()
    if status != 200:
        raise RuntimeError(f"{label}: HTTP {status}")
    rows = int(headers["X-Bench-Rows"]) if file_type is None else _rows_from_newlines(file_type, newlines)
    return {
        "label": label,
        "rows": rows,
        "bytes": size,
        "seconds": seconds,
        "first_byte": first_byte,
        "rss_before_mib": before["rss_kib"] / 1024,
        "peak_rss_mib": after["peak_rss_kib"] / 1024,
        "growth_mib": (after["peak_rss_kib"] - before["rss_kib"]) / 1024,
        "traced_growth_mib": (after["traced_peak_kib"] - before["traced_kib"]) / 1024,
    }


def _print_table(results: list[dict], *, traced: bool) -> None:
    header = (
        f"{'run':<22} {'rows':>8} {'MiB sent':>9} {'1st byte':>8} {'s':>7} {'rows/s':>9} "
        f"{'RSS before':>11} {'peak RSS':>9} {'growth':>8}"
    )
    if traced:
        header += f" {'traced growth':>14}"
    print(header)
    for r in results:
        line = (
            f"{r['label']:<22} {r['rows']:>8,} {r['bytes'] / 2**20:>9.1f} "
            f"{r['first_byte']:>7.2f}s {r['seconds']:>6.2f}s {r['rows'] / r['seconds']:>9,.0f} {r['rss_before_mib']:>9.1f}Mi {r['peak_rss_mib']:>7.1f}Mi "
            f"{r['growth_mib']:>6.1f}Mi"
        )
        if traced:
            line += f" {r['traced_growth_mib']:>12.1f}Mi"
        print(line)


def run(args: argparse.Namespace) -> None:
    database_url, auth = _prepare(rows=args.rows, reuse=args.reuse)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"database: {database_url.rsplit('@', 1)[-1]}; {os.cpu_count()} cores, load average {load}")
    print(f"streaming {args.rows:,} accounts-composite rows\n")
    common = {"auth": auth, "database_url": database_url, "traced": args.tracemalloc}
    results = []
    for file_type in ("json", "jsonl", "csv"):
        path = f"{DATASET_PATH}?limit={args.rows}&response_file_type={file_type}"
        results.append(measure(label=f"streamed {file_type}", path=path, file_type=file_type, **common))
    for kind in ("joined", "dicts"):
        path = f"/__bench__/baseline?kind={kind}&limit={args.rows}"
        results.append(measure(label=f"baseline json {kind}", path=path, file_type=None, **common))
    _print_table(results, traced=args.tracemalloc)
    print(f"\nload average after: {', '.join(f'{value:.1f}' for value in os.getloadavg())}")
    streamed = results[0]
    print()
    for baseline in results[3:]:
        ratio = baseline["growth_mib"] / max(streamed["growth_mib"], 0.1)
        print(
            f"{baseline['label']}: the server grew {baseline['growth_mib']:.0f} MiB against "
            f"{streamed['growth_mib']:.1f} MiB streamed: {ratio:.0f}x less memory streaming"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="run", choices=["run", "serve"])
    parser.add_argument("--rows", type=int, default=100_000, help="accounts to load and stream (at most 100,000)")
    parser.add_argument("--reuse", action="store_true", help="reuse the scratch database if already loaded")
    parser.add_argument("--tracemalloc", action="store_true", help="also trace Python allocations (slower)")
    parser.add_argument("--port", type=int, default=8765, help="serve: the port")
    args = parser.parse_args()
    if args.command == "serve":
        serve(port=args.port, traced=args.tracemalloc)
    else:
        run(args)


if __name__ == "__main__":
    main()
