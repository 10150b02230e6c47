"""Dashboard shell: login, logout, home, members, health."""

from __future__ import annotations

import math
import time

from django.contrib.auth import views as auth_views
from django.db import connection
from django.db.models import Count
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from portal.access import client_for_member, member_required
from portal.celery import app as celery_app
from portal.login_throttle import login_failure_record, login_failures_clear, login_retry_after
from portal.models import Member, WorkerHeartbeat
from portal.roles import API_ROLE_DESCRIPTIONS, api_role_keys_for
from portal.service import ServiceError, ServiceUnauthorized, service_client_for
from reports.models import ReportDownload
from reports.selectors import downloads_visible_to
from screening.views_related import home_summary as screening_home_summary


class LoginView(auth_views.LoginView):
    template_name = "portal/login.html"
    redirect_authenticated_user = True

    def get_redirect_url(self):
        """`next`, unless it is this page: a signed-in member would be sent back here (Django raises, a 500)."""
        url = super().get_redirect_url()
        return "" if url == self.request.path else url

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        address = request.META.get("REMOTE_ADDR", "")
        retry_after = login_retry_after(username=username, address=address)
        if retry_after is not None:
            minutes = math.ceil(retry_after / 60)
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, f"Too many failed attempts. Try again in {minutes} minute(s).")
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(retry_after)
            return response
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:
            login_failures_clear(username=username, address=address)
        else:
            login_failure_record(username=username, address=address)
        return response


class LogoutView(auth_views.LogoutView):
    pass


HOME_WATCHLISTS_SHOWN = 6
HOME_REPORTS_SHOWN = 5


@member_required()
def home(request):
    """The work list: watchlists, reports ready and in progress, and the organisation's counts."""
    member: Member = request.member
    client = client_for_member(member)
    overview, watchlists, error = None, None, None
    try:
        overview, watchlists = client.gather(client.organisation.overview, client.watchlists.list)
    except ServiceError as exc:
        error = exc.detail
    reports = downloads_visible_to(member)
    by_status = dict(reports.values_list("status").annotate(n=Count("uuid")).order_by())
    context = {
        "overview": overview,
        "service_error": error,
        "watchlists": sorted(watchlists or [], key=lambda w: w.name.lower())[:HOME_WATCHLISTS_SHOWN],
        "watchlist_count": len(watchlists or []),
        "watchlist_company_total": sum(w.company_count for w in watchlists or []),
        "reports_ready": reports.filter(status=ReportDownload.Status.COMPLETE)[:HOME_REPORTS_SHOWN],
        "reports_ready_count": by_status.get(ReportDownload.Status.COMPLETE, 0),
        "reports_waiting_count": by_status.get(ReportDownload.Status.PENDING, 0)
        + by_status.get(ReportDownload.Status.PROCESSING, 0),
        "reports_failed_count": by_status.get(ReportDownload.Status.FAILED, 0),
        "screening": screening_home_summary(member),  # the cached counts (screening.freshness)
    }
    return render(request, "portal/home.html", context)


@member_required()
def members(request):
    """The organisation's members, their dashboard role and the API roles it sends (any member may look)."""
    organisation = request.member.organisation
    organisation_keys = organisation.role_keys

    def grants(role: str) -> list[dict]:
        keys = api_role_keys_for(dashboard_role=role, organisation_role_keys=organisation_keys)
        return [{"key": key, "description": API_ROLE_DESCRIPTIONS.get(key, "")} for key in keys]

    rows = [
        {"member": m, "api_roles": grants(m.role)}
        for m in organisation.members.select_related("user").order_by("user__username")
    ]
    shown = (Member.Role.VIEWER, Member.Role.OFFICER, Member.Role.ADMIN)  # from least to most
    roles = [{"value": role.value, "label": role.label, "api_roles": grants(role)} for role in shown]
    context = {"rows": rows, "roles": roles, "organisation_keys": organisation_keys}
    return render(request, "portal/members.html", context)


# Each check in an officer's words: what it covers, and what a failure means for their work.
HEALTH_WORDS = {
    "Database": (
        "Dashboard records",
        "Logins, watchlists and report links can be read and saved.",
        "The dashboard cannot read or save its records: pages will fail until it is back.",
    ),
    "Broker": (
        "Background queue",
        "Work that runs in the background (following report orders) can be queued.",
        "Background work cannot be queued: reports you order will not be followed until it is back.",
    ),
    "Worker": (
        "Background worker",
        "The background worker is running.",
        "The background worker has not reported for a while: it is stopped, starting, or busy with long work "
        "such as a full re-screen. Ordered reports and new screening results are late until it reports again.",
    ),
    "Service API": (
        "Analysis service",
        "The analysis service answers: company data, watchlists and reports are available.",
        "The analysis service does not answer or refuses the dashboard's credentials: company pages and lists will not load.",
    ),
}


@never_cache
def health(request):
    member = getattr(request.user, "member", None) if request.user.is_authenticated else None
    show_details = member is not None and member.role == Member.Role.ADMIN  # ids and errors are for admins
    checks = [_check_database(), _check_broker(), _check_worker(), _check_service(member, show_ids=show_details)]
    healthy = all(check["ok"] for check in checks)
    if request.GET.get("format") != "json":
        for check in checks:
            title, fine, failing = HEALTH_WORDS[check["name"]]
            check.update(title=title, words=fine if check["ok"] else failing)
    context = {"checks": checks, "healthy": healthy, "show_details": show_details}
    status = 200 if healthy else 503
    if request.GET.get("format") == "json":
        return JsonResponse({"healthy": healthy, "checks": checks}, status=status)
    return render(request, "portal/health.html", context, status=status)


def _timed(name: str, probe) -> dict:
    started = time.monotonic()
    try:
        detail = probe()
        ok = True
    except Exception as exc:  # a health page reports every failure, whatever its kind
        detail, ok = f"{type(exc).__name__}: {exc}", False
    return {"name": name, "ok": ok, "detail": detail, "ms": round((time.monotonic() - started) * 1000, 1)}


def _check_database() -> dict:
    def probe():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return connection.vendor

    return _timed("Database", probe)


def _check_broker() -> dict:
    def probe():
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
            return conn.transport_cls if isinstance(conn.transport_cls, str) else conn.transport.driver_type

    return _timed("Broker", probe)


def _check_worker() -> dict:
    def probe():
        beat = WorkerHeartbeat.objects.filter(name="worker").first()
        if beat is None:
            raise RuntimeError("no heartbeat from a worker yet")
        age = (timezone.now() - beat.seen_at).total_seconds()
        if age > WorkerHeartbeat.STALE_AFTER_SECONDS:
            raise RuntimeError(f"last heartbeat {int(age)} s ago")
        return f"last heartbeat {int(age)} s ago"

    return _timed("Worker", probe)


def _check_service(member: Member | None, *, show_ids: bool) -> dict:
    def probe():
        if member is None:
            # Anonymous: check only that the API answers (401 is a healthy answer without credentials).
            try:
                service_client_for(client_id="health", client_secret="health").auth_status()
            except ServiceUnauthorized:
                pass  # refusing unknown credentials is a healthy answer
            return "answering"
        answer = client_for_member(member).auth_status().strip()
        # The answer names the organisation's API user and ids: for admins, in the JSON as on the page.
        return answer if show_ids else "answering"

    return _timed("Service API", probe)
