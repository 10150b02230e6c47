"""Batch screening: a CSV file of persons and companies screened once against the organisation's
lists (the service's batch jobs), its progress while it runs and its result to download.

A one-off check, for example of the customers onboarded this week: nothing of it becomes a case
or a monitoring. Officers and admins upload and delete; every member reads the jobs and their
results. A file and its result are deleted by the service after its retention period, or at once
by an officer (the job stays listed, deleted, with its counts).
The page polls a running job's row every 2 s (htmx), as the reports page does.
"""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.models import Member
from portal.service import ServiceBadRequest, ServiceError, ServiceNoAnswer, ServiceNotFound
from screening.batch_result import shown_row
from screening.name_check_form import NameCheckForm
from screening.pages import can_read_screening, current_config_or_message, member_names, no_aml_text
from screening.uploaded_files import file_problems, too_large_text

UPLOADERS = (Member.Role.OFFICER, Member.Role.ADMIN)
PAGE_SIZE = 50
RESULT_CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json", "pdf": "application/pdf"}


@member_required()
def batches(request, *, problems=None, check_form=None):
    member = request.member
    context = {"can_upload": member.role in UPLOADERS, "batches": None, "count": 0, "problems": problems or [],
               "config": None, "no_aml": None, "service_error": None, "check_form": check_form or NameCheckForm()}
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, "screening/batches.html", context)
    client = client_for_member(member)
    config, context["service_error"] = current_config_or_message(client)
    if config is not None:
        context["config"] = config
        try:
            page = client.batches.page(config.uuid, limit=PAGE_SIZE)
        except ServiceError as exc:
            context["service_error"] = service_error_text(exc)
        else:
            uploaders = member_names(member, (batch.uploader_uuid for batch in page.batches))
            rows = [(batch, uploaders.get(batch.uploader_uuid)) for batch in page.batches]
            context.update(batches=page.batches, rows=rows, count=page.count, retention=_retention(page.batches))
    return render(request, "screening/batches.html", context)


@require_POST
@member_required(*UPLOADERS)
def batch_upload(request):
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, "Choose a CSV file to screen.")
        return redirect("screening:batches")
    if too_large := too_large_text(upload, not_done="screened"):
        messages.error(request, too_large)
        return redirect("screening:batches")
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        messages.error(request, f"The file was not screened. {error}")
        return redirect("screening:batches")
    try:
        batch = client.batches.upload(config.uuid, file_name=upload.name, content=upload.read())
    except ServiceBadRequest as exc:
        # Every problem by line and column, so the file can be corrected in one go; nothing was stored.
        return batches(request, problems=file_problems(exc))
    except ServiceNoAnswer as exc:
        messages.error(request, f"{upload.name}: {service_error_text(exc)}")
        return redirect("screening:batches")
    except ServiceError as exc:
        messages.error(request, f"{upload.name} was not screened. {service_error_text(exc)}")
        return redirect("screening:batches")
    rows = f"{batch.rows_total} row{'s' if batch.rows_total != 1 else ''}"
    messages.success(request, f"{batch.file_name} ({rows}) is being screened; this page shows when it is done.")
    return redirect("screening:batches")


@require_POST
@member_required(*UPLOADERS)
def name_check(request):
    """One person or company screened now (a one-row job); its page shows the hits once the worker is done."""
    form = NameCheckForm(request.POST)
    if not form.is_valid():
        return batches(request, check_form=form)
    client = client_for_member(request.member)
    config, error = current_config_or_message(client)
    if config is None:
        messages.error(request, f"The name was not checked. {error}")
        return redirect("screening:batches")
    try:
        batch = client.batches.upload(config.uuid, file_name=form.file_name(), content=form.csv_content())
    except ServiceBadRequest as exc:
        form.add_service_errors(exc)  # nothing was stored: the form again, each problem at its field
        return batches(request, check_form=form)
    except ServiceError as exc:
        messages.error(request, f"The name was not checked. {service_error_text(exc)}")
        return redirect("screening:batches")
    return redirect("screening:batch", batch_uuid=batch.uuid)


def _config_or_404(client):
    """The organisation's current config; without one, a job's pages are not found, saying why."""
    config, error = current_config_or_message(client)
    if config is None:
        raise Http404(error)
    return config


def _retention(batches) -> str | None:
    """How long files are kept, as the service's jobs say (`retained_until`): "30 days", "until deleted",
    or None when no job tells (none listed, or all deleted)."""
    live = [batch for batch in batches if not batch.is_deleted and batch.created_at]
    for batch in live:
        if batch.retained_until:
            days = round((batch.retained_until - batch.created_at).total_seconds() / 86400)
            return f"{days} day{'s' if days != 1 else ''}"
    return "until deleted" if live else None


@member_required()
def batch_detail(request, batch_uuid: uuid.UUID):
    """One job: while it runs, its progress; once complete, the rows with hits, each hit with its list,
    listed name (its words marked as alike or not), score and why, so the officer sees them without a spreadsheet."""
    client = client_for_member(request.member)
    config = _config_or_404(client)
    try:
        batch = client.batches.get(config.uuid, batch_uuid)
    except ServiceNotFound:
        raise Http404("No such batch job.") from None
    except ServiceError as exc:
        raise Http404(service_error_text(exc)) from None
    context = {"batch": batch, "hit_rows": (), "clean_rows": (), "rows_read": False, "service_error": None,
               "can_delete": request.member.role in UPLOADERS,
               "uploader": member_names(request.member, [batch.uploader_uuid]).get(batch.uploader_uuid),
               "single": batch.rows_total == 1}  # a name checked: said of the name, not of a file's rows
    if batch.status_key == "complete":
        try:
            rows = client.batches.result_rows(config.uuid, batch_uuid)
        except ServiceError as exc:  # deleted meanwhile, or its file gone: the page says so, Delete… stays
            context["service_error"] = f"The result could not be read. {service_error_text(exc)}"
        else:
            shown = [shown_row(row, batch=batch, can_monitor=request.member.can_administer) for row in rows]
            context["hit_rows"] = [row for row in shown if row.hits]
            context["clean_rows"] = [row for row in shown if not row.hits]
            context["rows_read"] = True
    return render(request, "screening/batch.html", context)


@member_required()
def batch_row(request, batch_uuid: uuid.UUID):
    """A job's row, polled while it runs; `?reload=1` (the job's own page) reloads the page once it is done."""
    reload = request.GET.get("reload") == "1"
    client = client_for_member(request.member)
    config, _ = current_config_or_message(client)
    if config is None:
        raise Http404("Screening is not set up.")
    try:
        batch = client.batches.get(config.uuid, batch_uuid)
    except ServiceNotFound:
        raise Http404("No such batch job.") from None
    except ServiceError:
        return HttpResponse(status=204)  # the poll tries again in 2 s; the row stays as it was
    uploader = member_names(request.member, [batch.uploader_uuid]).get(batch.uploader_uuid)
    response = render(request, "screening/batches.html#row", {"batch": batch, "uploader": uploader, "reload_when_done": reload})
    if reload and batch.is_finished:
        response["HX-Refresh"] = "true"  # the job's own page: reloaded, it shows the hits
    return response


@member_required(*UPLOADERS)
def batch_delete(request, batch_uuid: uuid.UUID):
    """GET: what deleting takes away, to confirm; POST: delete the job's file and result."""
    client = client_for_member(request.member)
    config = _config_or_404(client)
    try:
        batch = client.batches.get(config.uuid, batch_uuid)
    except ServiceNotFound:
        raise Http404("No such batch job.") from None
    except ServiceError as exc:
        messages.error(request, service_error_text(exc))
        return redirect("screening:batches")
    if batch.is_deleted:
        return redirect("screening:batch", batch_uuid=batch.uuid)
    if request.method != "POST":
        return render(request, "screening/batch_delete.html", {"batch": batch})
    try:
        client.batches.delete(config.uuid, batch_uuid)
    except ServiceError as exc:
        messages.error(request, f"{batch.label} was not deleted. {service_error_text(exc)}")
        return redirect("screening:batch", batch_uuid=batch.uuid)
    what = "the name and its result are" if batch.rows_total == 1 else "the file, its name and its result are"
    messages.success(request, f"{batch.label}: {what} deleted. The job stays listed with its counts, and the audit "
                              "log records who deleted it.")
    return redirect("screening:batches")


@member_required()
def batch_result(request, batch_uuid: uuid.UUID, file_type: str):
    if file_type not in RESULT_CONTENT_TYPES:
        raise Http404("A result is a .csv, .json or .pdf file.")
    client = client_for_member(request.member)
    config = _config_or_404(client)
    try:
        batch = client.batches.get(config.uuid, batch_uuid)
        result = client.batches.result(config.uuid, batch_uuid, file_type=file_type)
    except ServiceNotFound:
        raise Http404("No such batch job, or its result is gone.") from None
    except ServiceError as exc:
        if exc.status == 410:  # deleted: its page says when and why, in the dashboard's words
            return redirect("screening:batch", batch_uuid=batch_uuid)
        messages.error(request, f"The result could not be downloaded. {service_error_text(exc)}")
        return redirect("screening:batches")
    response = HttpResponse(result, content_type=RESULT_CONTENT_TYPES[file_type])
    stem = slugify(re.sub(r"\.(csv|txt)$", "", batch.file_name, flags=re.IGNORECASE))[:60].strip("-") or "screening"
    response["Content-Disposition"] = f'attachment; filename="{stem}-result.{file_type}"'
    response["Cache-Control"] = "private, no-store"
    return response
