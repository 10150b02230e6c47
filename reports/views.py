"""Reports: order one (from a company page or a watchlist row), follow it, download it.

The poll task (reports/tasks.py) follows each order; the page only reads the
dashboard's rows and polls a row's partial every 2 s until it is finished.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from portal.access import member_required
from portal.feedback import service_error_text
from portal.service import ServiceError
from reports.catalogue import label_of, orderable_kinds
from reports.models import ReportDownload
from reports.selectors import downloads_visible_to
from reports.services import report_links_renew, report_order

LIST_LIMIT = 200


@member_required()
def report_list(request):
    organisation = request.member.organisation
    error = None
    try:
        report_links_renew(organisation=organisation)
    except ServiceError as exc:
        error = f"Download links could not be renewed: {service_error_text(exc)}"
    visible = downloads_visible_to(request.member)
    downloads = list(visible[:LIST_LIMIT])
    # Reports showing what the member's role does not read (payment remarks) are left out: say so.
    some_left_out = visible.count() < ReportDownload.objects.filter(organisation=organisation).count()
    context = {"downloads": downloads, "service_error": error, "limit": LIST_LIMIT, "some_left_out": some_left_out}
    return render(request, "reports/list.html", context)


@member_required()
def report_row(request, download_uuid: uuid.UUID):
    download = get_object_or_404(downloads_visible_to(request.member), uuid=download_uuid)
    return render(request, "reports/list.html#row", {"download": download})


@require_POST
@member_required()
def order(request):
    member = request.member
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    report_type = request.POST.get("report_type", "")
    kinds = {kind.key: kind for kind in orderable_kinds(member)}
    try:
        company_uuid = uuid.UUID(request.POST.get("company_uuid", ""))
    except ValueError:
        messages.error(request, "Choose a company to order a report for.")
        return redirect(back or "reports:list")
    if report_type not in kinds:
        messages.error(request, f"Your role cannot order a {label_of(report_type).lower() or 'report of that type'}.")
        return redirect(back or "reports:list")
    try:
        downloads = report_order(member=member, company_uuid=company_uuid, report_type=report_type)
    except ServiceError as exc:
        messages.error(request, f"The report was not ordered. {service_error_text(exc)}")
        return redirect(back or "reports:list")
    name = downloads[0].company_name if downloads else "the company"
    messages.success(request, f"{kinds[report_type].label} of {name} ordered. It is listed below; the link appears when it is ready.")
    return redirect("reports:list")
