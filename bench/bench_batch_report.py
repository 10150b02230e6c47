"""Benchmark: rendering the PDF record of a batch job (service/screening/batch_report.py). Not a test.

A job of 10,000 rows (the row limit's default) with 50, 500 and 2,000 rows with three hits each
(2,000 is HIT_ROWS_LISTED, the most a record lists), rendered in this process; prints seconds,
size and pages. The record is rendered on request, so this is what the request waits for.

    .venv/bin/python bench/bench_batch_report.py
"""

from __future__ import annotations

import io
import os
import time
from types import SimpleNamespace

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings_test")
django.setup()

from django.utils import timezone  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from service.screening import batch_report  # noqa: E402

HIT = {"list": "un_security_council", "list_type": "sanction", "source_id": "KPi.901",
       "matched_name": "IVAN SERGEYEVICH DRAGUNOV", "score": 0.97,
       "explanation": "'Dragunov Ivan' vs 'IVAN SERGEYEVICH DRAGUNOV': name 0.97 (dragunov, ivan); final 0.97."}


def _rows(count: int, with_hits: int) -> list[dict]:
    return [{"line": n + 2, "type": "person", "id": f"K-{n}", "name": f"Person {n}", "birth_date": "1966-03-14",
             "nationality": "RU", "country": "", "hits": [HIT] * 3 if n < with_hits else []} for n in range(count)]


def main() -> None:
    # No database: the list names come from this stand-in, and the job is a plain object.
    batch_report.ScreeningListCategory = SimpleNamespace(objects=SimpleNamespace(values_list=lambda *_: []))
    now = timezone.now()
    batch = SimpleNamespace(file_name="week 48.csv", app_membership=None, create_timestamp=now,
                            complete_timestamp=now, screened_against=[], uuid="bench")
    for with_hits in (50, 500, batch_report.HIT_ROWS_LISTED):
        started = time.perf_counter()
        pdf = batch_report.batch_report_render(batch=batch, rows=_rows(10_000, with_hits), organisation_name="Bench ASA")
        seconds = time.perf_counter() - started
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        print(f"10,000 rows, {with_hits:>5} with hits: {seconds:5.2f} s, {len(pdf) // 1024} KB, {pages} pages")


if __name__ == "__main__":
    main()
