"""Benchmark: rendering the PDF record of a batch job (service/screening/batch_report.py) and its
result CSV (service/screening/person_file.py). Not a test.

A job of 10,000 rows (the row limit's default) with 50, 500 and 1,000 rows with three hits each
(1,000 is HIT_ROWS_LISTED, the most a record lists), rendered in this process; prints seconds,
size and pages. Both are rendered on request, so this is what the request waits for.

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
from service.screening.person_file import result_csv_write  # noqa: E402

HIT = {"list": "un_security_council", "list_type": "sanction", "source_id": "KPi.901",
       "matched_name": "IVAN SERGEYEVICH DRAGUNOV", "score": 0.97,
       "explanation": "'Dragunov Ivan' vs 'IVAN SERGEYEVICH DRAGUNOV': name 0.97 (dragunov, ivan); final 0.97.",
       "explanation_detail": {
           "query_name": "dragunov ivan sergeevich", "matched_name": "IVAN SERGEYEVICH DRAGUNOV", "matched_name_quality": "strong",
           "name_score": 0.97, "birth_date_adjustment": 0.05, "nationality_adjustment": 0.02, "gender_adjustment": 0.0,
           "final": 0.97, "notes": ["same birth date", "nationality RU, as listed"], "unmatched_query_parts": [],
           "unmatched_list_parts": [],
           "aligned": [{"query": "dragunov", "listed": "dragunov", "similarity": 1.0, "reason": "exact"},
                       {"query": "ivan", "listed": "ivan", "similarity": 1.0, "reason": "exact"},
                       {"query": "sergeevich", "listed": "sergeyevich", "similarity": 0.91, "reason": "typo"}]}}


def _rows(count: int, with_hits: int) -> list[dict]:
    return [{"line": n + 2, "type": "person", "id": f"K-{n}", "name": f"Person {n}", "birth_date": "1966-03-14",
             "nationality": "RU", "country": "", "hits": [HIT] * 3 if n < with_hits else []} for n in range(count)]


def main() -> None:
    # No database: the list names come from this stand-in, and the job is a plain object.
    batch_report.list_names = dict
    now = timezone.now()
    batch = SimpleNamespace(file_name="week 48.csv", app_membership=None, create_timestamp=now,
                            complete_timestamp=now, screened_against=[], uuid="bench")
    for with_hits in (50, 500, batch_report.HIT_ROWS_LISTED):
        started = time.perf_counter()
        pdf = batch_report.batch_report_render(batch=batch, rows=_rows(10_000, with_hits), organisation_name="Bench ASA")
        seconds = time.perf_counter() - started
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        print(f"PDF: 10,000 rows, {with_hits:>5} with hits: {seconds:5.2f} s, {len(pdf) // 1024} KB, {pages} pages")
        started = time.perf_counter()
        text = io.StringIO(newline="")
        result_csv_write(text, _rows(10_000, with_hits), names={})
        seconds = time.perf_counter() - started
        print(f"CSV: 10,000 rows, {with_hits:>5} with hits: {seconds:5.2f} s, {len(text.getvalue().encode()) // 1024} KB")


if __name__ == "__main__":
    main()
