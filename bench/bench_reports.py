"""Benchmark: producing one partner report of each type (seconds, peak memory). Not a test.

On PostgreSQL (DATABASE_URL when it names PostgreSQL, else a scratch database
`vakt_reports_bench` on 127.0.0.1): `generate_demo` companies, then the company with
the most years of accounts (ties: the most roles) gets one order per report type,
produced --runs times through the service (data gathering, PDF rendering, the write
to storage). Prints the median and slowest seconds, the peak Python memory of one run
(tracemalloc) and the PDF's size and pages. Files go to a temporary folder.

    .venv/bin/python bench/bench_reports.py
    .venv/bin/python bench/bench_reports.py --companies 500 --runs 10
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import tempfile
import time
import tracemalloc

from scratch_db import django_setup, scratch_database_url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--companies", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reuse", action="store_true", help="keep the scratch database of an earlier run")
    args = parser.parse_args()

    os.environ["VAKT_DATA_DIR"] = tempfile.mkdtemp(prefix="vakt-bench-reports-")
    django_setup(scratch_database_url("vakt_reports_bench", reuse=args.reuse))

    from django.core.management import call_command
    from django.db.models import Count
    from pypdf import PdfReader

    from service.auth.services import app_customer_create
    from service.companies.models import Company
    from service.reports import services
    from service.reports.models import PartnerReport, PartnerReportOrder, PartnerReportType
    from service.reports.paths import report_file_path

    call_command("migrate", verbosity=0)
    if not Company.objects.filter(accounts__isnull=False).exists():
        call_command("generate_demo", companies=args.companies, quiet=True)
    company = (
        Company.objects.annotate(years=Count("accounts__accounting_year", distinct=True), roles_count=Count("roles", distinct=True))
        .order_by("-years", "-roles_count", "uuid")
        .first()
    )
    customer = app_customer_create(name="Bench Bank ASA")
    print(f"company: {company.name} ({company.org_nr}), {company.years} years of accounts, {company.roles_count} roles")

    for report_type in PartnerReportType.objects.order_by("key"):
        times, peak, size, pages = [], 0, 0, 0
        for run in range(args.runs):
            order = PartnerReportOrder.objects.create(app_customer=customer, granted_role_keys=["credit_check"])
            report = PartnerReport(order=order, app_customer=customer, company=company, report_type=report_type)
            report.file_path = report_file_path(app_customer_uuid=customer.uuid, company_uuid=company.uuid,
                                                report_type_key=report_type.key, report_uuid=report.uuid)
            report.save()
            tracemalloc.start()
            started = time.perf_counter()
            status = services.partner_report_order_process(order_uuid=order.uuid)
            times.append(time.perf_counter() - started)
            peak = max(peak, tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            assert status == "complete", status
            report.refresh_from_db()
            size = report.file_size
        from django.core.files.storage import default_storage

        with default_storage.open(f"general/{report.file_path}") as handle:
            pages = len(PdfReader(io.BytesIO(handle.read())).pages)
        print(
            f"{report_type.key:17s} median {statistics.median(times):.3f} s  slowest {max(times):.3f} s  "
            f"peak {peak / 1e6:.1f} MB  {size / 1024:.0f} KiB  {pages} page(s)  ({args.runs} runs)"
        )


if __name__ == "__main__":
    main()
