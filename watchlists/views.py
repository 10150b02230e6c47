"""Watchlists: list, create, rename, delete; fill them by search, paste or CSV; remove and replace.

Everything goes through `client.watchlists` (portal.service.watchlists). Adding
is all or nothing in the service: when it refuses, the page shows each bad line
with its number and the reason, keeps the text for fixing, and offers to drop
the bad lines and add the rest.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.csv_export import csv_response
from portal.feedback import service_error_text
from portal.formatting import key_words
from portal.service import ServiceBadRequest, ServiceError, ServiceNoAnswer, ServiceNotFound
from portal.service.watchlists import bad_entries
from watchlists.numbers import MAX_LINES, UnreadableUpload, lines_read, upload_text, without
from watchlists.screened import REFUSAL, removal_refusal, screened_watchlist_uuids, screening_note

SEARCH_LIMIT = 10
EXPORT_COLUMNS = ("Company", "Organisation number", "Risk class", "Risk score", "Active flags", "Added", "Company uuid")


@member_required()
def watchlist_list(request):
    client = client_for_member(request.member)
    watchlists = client.watchlists
    if request.method == "POST":
        name = request.POST.get("watchlist_name", "").strip()
        if not name:
            messages.error(request, "Give the watchlist a name.")
            return redirect("watchlists:list")
        try:
            if _name_taken(watchlists, name):
                messages.error(request, _name_taken_text(name))
                return redirect("watchlists:list")
            created = watchlists.create(name)
        except ServiceError as exc:
            messages.error(request, f"The watchlist was not created. {service_error_text(exc)}")
            return redirect("watchlists:list")
        messages.success(request, f"Watchlist “{created.name}” created. Add companies below.")
        return redirect("watchlists:detail", created.uuid)
    rows, error, screened = [], None, set()
    try:
        rows = watchlists.list()
        screened = screened_watchlist_uuids(client)
    except ServiceError as exc:
        error = None if rows else service_error_text(exc)  # without the badges the list still stands
    context = {"watchlists": rows, "screened": screened, "service_error": error}
    return render(request, "watchlists/list.html", context)


@member_required()
def watchlist_export(request, watchlist_uuid: uuid.UUID):
    """The watchlist's companies as CSV, as the page shows them (risk class and score, active flags as
    the member's role reads them), for a periodic review outside the dashboard."""
    client = client_for_member(request.member)
    try:
        watchlist, companies = _with_companies(client, watchlist_uuid)
    except ServiceError as exc:
        messages.error(request, f"The watchlist could not be downloaded. {service_error_text(exc)}")
        return redirect("watchlists:detail", watchlist_uuid)
    rows = (
        [row.company.name, f"{row.company.org_nr_schema}{row.company.org_nr}", key_words(row.risk_class or ""),
         "" if row.risk_score is None else f"{row.risk_score:.1f}", ", ".join(key_words(k) for k in row.flag_keys),
         timezone.localdate(row.added_at).isoformat() if row.added_at else "", row.company.uuid]
        for row in companies
    )
    name = slugify(watchlist.name) or "watchlist"
    return csv_response(filename=f"watchlist-{name}-{timezone.localdate().isoformat()}.csv", columns=EXPORT_COLUMNS, rows=rows)


@member_required()
def watchlist_detail(request, watchlist_uuid: uuid.UUID):
    return _detail(request, watchlist_uuid)


@require_POST
@member_required()
def watchlist_rename(request, watchlist_uuid: uuid.UUID):
    name = request.POST.get("watchlist_name", "").strip()
    if not name:
        messages.error(request, "A watchlist needs a name.")
        return redirect("watchlists:detail", watchlist_uuid)
    try:
        watchlists = client_for_member(request.member).watchlists
        if _name_taken(watchlists, name, but=watchlist_uuid):
            messages.error(request, _name_taken_text(name))
            return redirect("watchlists:detail", watchlist_uuid)
        renamed = watchlists.rename(watchlist_uuid, name)
    except ServiceError as exc:
        return _refused(request, exc, "The watchlist was not renamed.", watchlist_uuid)
    messages.success(request, f"Renamed to “{renamed.name}”.")
    return redirect("watchlists:detail", watchlist_uuid)


def _name_taken(watchlists, name: str, *, but=None) -> bool:
    """Another of the organisation's watchlists has this name (in any case): two of one name read
    as one, and a company added to the one not screened looks screened."""
    wanted = " ".join(name.split()).casefold()
    return any(" ".join(w.name.split()).casefold() == wanted and w.uuid != but for w in watchlists.list())


def _name_taken_text(name: str) -> str:
    return f"A watchlist named “{name}” exists already: choose another name, or open that one."


@member_required()
def watchlist_delete(request, watchlist_uuid: uuid.UUID):
    client = client_for_member(request.member)
    watchlists = client.watchlists
    if refused := _removal_refused(request, client, watchlist_uuid):
        return refused
    if request.method != "POST":
        return _confirm(request, client, watchlist_uuid, "delete")
    try:
        watchlist = watchlists.get(watchlist_uuid)
        watchlists.delete(watchlist_uuid)
    except ServiceError as exc:
        return _refused(request, exc, "The watchlist was not deleted.", watchlist_uuid)
    messages.success(request, f"Watchlist “{watchlist.name}” deleted ({watchlist.company_count} companies).")
    return redirect("watchlists:list")


@member_required()
def watchlist_clear(request, watchlist_uuid: uuid.UUID):
    client = client_for_member(request.member)
    watchlists = client.watchlists
    if refused := _removal_refused(request, client, watchlist_uuid):
        return refused
    if request.method != "POST":
        return _confirm(request, client, watchlist_uuid, "clear")
    try:
        removed = watchlists.remove_all(watchlist_uuid)
    except ServiceError as exc:
        return _refused(request, exc, "Nothing was removed.", watchlist_uuid)
    messages.success(request, f"Removed all {removed} companies from the watchlist.")
    return redirect("watchlists:detail", watchlist_uuid)


@require_POST
@member_required()
def watchlist_remove(request, watchlist_uuid: uuid.UUID, company_uuid: uuid.UUID):
    name = request.POST.get("company_name") or "The company"
    client = client_for_member(request.member)
    if refused := _removal_refused(request, client, watchlist_uuid):
        return refused
    try:
        client.watchlists.remove(watchlist_uuid, company_uuid)
    except ServiceNotFound:
        # Not on the list (removed meanwhile, in another tab), or the list itself is gone.
        messages.info(request, f"{name} is not on the watchlist (any more).")
        return redirect("watchlists:detail", watchlist_uuid)
    except ServiceError as exc:
        return _refused(request, exc, f"{name} was not removed.", watchlist_uuid)
    messages.success(request, f"{name} removed from the watchlist.")
    return redirect("watchlists:detail", watchlist_uuid)


@require_POST
@member_required()
def watchlist_add(request, watchlist_uuid: uuid.UUID):
    """Paste, CSV or one search result; `mode` add or replace; `drop_bad` adds the good lines only."""
    text = request.POST.get("numbers", "")
    upload = request.FILES.get("csv_file")
    if upload is not None:
        try:
            text = upload_text(upload)
        except UnreadableUpload as exc:
            return _detail(request, watchlist_uuid, form={"text": "", "problem": str(exc)})
    replace = request.POST.get("mode") == "replace"
    lines = lines_read(text)
    form = {"text": text, "replace": replace, "from_file": upload.name if upload else None}
    if not lines:
        return _detail(request, watchlist_uuid, form={**form, "problem": "Paste or upload at least one organisation number."})
    if len(lines) > MAX_LINES:
        problem = f"{len(lines):,} lines: at most {MAX_LINES:,} companies can be added at once. Split the list."
        return _detail(request, watchlist_uuid, form={**form, "problem": problem})
    client = client_for_member(request.member)
    if replace and (refused := _removal_refused(request, client, watchlist_uuid)):
        return refused
    watchlists = client.watchlists
    dropped: list[int] = []
    # One call either way: the service adds, or replaces, all or nothing.
    send = watchlists.replace if replace else watchlists.add
    try:
        try:
            result = send(watchlist_uuid, [line.company for line in lines])
        except ServiceBadRequest as exc:
            bad = _bad_lines(exc, lines)
            if not bad or request.POST.get("drop_bad") != "1":
                raise
            dropped = [lines[index].number for index in sorted(bad)]
            lines = without(lines, set(bad))
            if not lines:
                return _detail(request, watchlist_uuid, form={**form, "problem": "Every line was bad: nothing to add."})
            result = send(watchlist_uuid, [line.company for line in lines])
    except ServiceBadRequest as exc:
        bad = _bad_lines(exc, lines)
        if not bad:
            return _detail(request, watchlist_uuid, form={**form, "problem": service_error_text(exc)})
        rows = [{"line": lines[i].number, "text": lines[i].text, "reasons": reasons} for i, reasons in sorted(bad.items())]
        return _detail(request, watchlist_uuid, form={**form, "bad_lines": rows, "line_count": len(lines)})
    except ServiceError as exc:
        if isinstance(exc, ServiceNotFound):
            raise Http404("No such watchlist.") from None
        problem = service_error_text(exc)
        if replace and not isinstance(exc, ServiceNoAnswer):  # a lost answer: it may have been replaced
            problem = f"The list was not replaced. {problem}"
        return _detail(request, watchlist_uuid, form={**form, "problem": problem})
    messages.success(request, _added_text(result, replace=replace, dropped=dropped))
    return redirect("watchlists:detail", watchlist_uuid)


@member_required()
def watchlist_search(request, watchlist_uuid: uuid.UUID):
    """Search results with an Add button each (an htmx partial of the watchlist page)."""
    query = request.GET.get("q", "").strip()
    results, error = [], None
    if len(query) >= 2:
        try:
            results = client_for_member(request.member).companies.search(query, limit=SEARCH_LIMIT)
        except ServiceError as exc:
            error = service_error_text(exc)
    context = {"query": query, "results": results, "error": error, "watchlist_uuid": watchlist_uuid}
    return render(request, "watchlists/detail.html#search-results", context)


# --- helpers -------------------------------------------------------------------------


def _with_companies(client, watchlist_uuid):
    """The watchlist and its companies, read at once; not the organisation's (or gone): a 404 page."""
    try:
        return client.gather(
            lambda: client.watchlists.get(watchlist_uuid), lambda: client.watchlists.companies(watchlist_uuid)
        )
    except ServiceNotFound:
        raise Http404("No such watchlist.") from None


def _detail(request, watchlist_uuid, *, form: dict | None = None):
    client = client_for_member(request.member)
    try:
        watchlist, companies = _with_companies(client, watchlist_uuid)
    except ServiceError as exc:
        context = {"service_error": service_error_text(exc), "watchlist": None, "companies": []}
        return render(request, "watchlists/detail.html", context, status=503)
    # A refused add re-renders the page with 200, as a form with errors does: the page itself is fine.
    context = {
        "watchlist": watchlist,
        "watchlist_uuid": watchlist.uuid,
        "companies": companies,
        "form": form or {},
        **_screening_context(request, client, watchlist_uuid),
    }
    return render(request, "watchlists/detail.html", context)


def _removal_refused(request, client, watchlist_uuid):
    """A redirect to the watchlist with the reason when the member may not remove its companies."""
    try:
        refusal = removal_refusal(client, request.member, watchlist_uuid)
    except ServiceError as exc:
        return _refused(request, exc, "Nothing was removed.", watchlist_uuid)
    if refusal is None:
        return None
    messages.error(request, f"Nothing was removed. {refusal}")
    return redirect("watchlists:detail", watchlist_uuid)


def _screening_context(request, client, watchlist_uuid) -> dict:
    """`screening_note` to show, and `removal_refusal` (hides the removal controls)."""
    try:
        note = screening_note(client, request.member, watchlist_uuid)
    except ServiceError:
        note = None  # the controls stay; a removal asks again and says what went wrong
    return {"screening_note": note, "removal_refusal": note if note == REFUSAL else None}


def _bad_lines(error: ServiceBadRequest, lines) -> dict[int, list[str]]:
    return {index: reasons for index, reasons in bad_entries(error).items() if 0 <= index < len(lines)}


def _confirm(request, client, watchlist_uuid, action: str):
    watchlists = client.watchlists
    try:
        watchlist = watchlists.get(watchlist_uuid)
    except ServiceNotFound:
        raise Http404("No such watchlist.") from None
    except ServiceError as exc:
        messages.error(request, service_error_text(exc))
        return redirect("watchlists:list")
    context = {"watchlist": watchlist, "action": action, **_screening_context(request, client, watchlist_uuid)}
    return render(request, "watchlists/confirm.html", context)


def _refused(request, error: ServiceError, what: str, watchlist_uuid):
    if isinstance(error, ServiceNotFound):
        messages.error(request, "That watchlist no longer exists.")
        return redirect("watchlists:list")
    messages.error(request, f"{what} {service_error_text(error)}")
    return redirect("watchlists:detail", watchlist_uuid)


def _added_text(result, *, replace: bool, dropped: list[int]) -> str:
    """`result` is the add's AddResult, or the replace's ReplaceResult."""
    if replace:
        text = (
            f"Watchlist replaced: {_companies(result.company_count)} now "
            f"({result.added_count} new, {result.removed_count} removed)."
        )
    else:
        text = f"Added {_companies(result.added_count)}"
        if result.ignored_count:
            text += f" ({result.ignored_count} already on the list)"
        text += f"; {result.company_count} on the watchlist now."
    if dropped:
        text += f" Dropped {len(dropped)} bad {'line' if len(dropped) == 1 else 'lines'} ({', '.join(map(str, dropped))})."
    return text


def _companies(count: int) -> str:
    return f"{count} {'company' if count == 1 else 'companies'}"
