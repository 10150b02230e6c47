"""Screening setup: the organisation's config, who is suggested, which lists, which watchlists.

Admins change it; officers read it; viewers are told why they see nothing (no `aml`).
Every change goes through `client.screening` with the member's role keys, says what
happened, and forgets the cached screening state (screening.freshness).
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from portal.access import client_for_member, member_required
from portal.feedback import service_error_text
from portal.service import ServiceError, ServiceNotFound
from screening.four_eyes import too_few_reviewers
from screening.pages import (
    acted, can_read_screening, config_or_404, no_aml_text, refused, require_admin, sanction_selections,
)
from vakt_format import norwegian as no
from vakt_limits import retention

# Where each list format comes from, in words.
RUNS_SHOWN = 8  # the newest re-screening runs on the setup page
SOURCES = {
    "un_xml": "UN Security Council, consolidated XML",
    "ofac_csv": "US Treasury (OFAC), SDN CSV files",
    "eu_csv": "European Commission, consolidated CSV",
    "senzing_json": "OpenSanctions, Senzing JSON",
    "ftm_json": "OpenSanctions, FollowTheMoney JSON",
}
SETTING_WORDS = {
    "enin_calculated_beneficial_owners": (
        "Beneficial owners only",
        "Persons who own at least 25% in every link of an ownership chain to the company. "
        "When nobody does, the board and the CEO stand in (alternative beneficial owners).",
    ),
    "enin_calculated_extended_beneficial_owners": (
        "Extended: owners, board, signature rights and procuration",
        "The beneficial owners, and always also the board, the CEO, persons with signature rights "
        "and persons with procuration.",
    ),
}


def retention_choices() -> range:
    """The retention periods a setup may choose, in years: the service's own range (its check
    constraint and API schemas read the same constants), read when the page is drawn."""
    return range(retention.RETENTION_YEARS_MIN, retention.RETENTION_YEARS_MAX + 1)


def retention_words(years: int) -> str:
    """A retention period in words (0: the records are kept for ever)."""
    return f"{years} years" if years else "for ever"


def _flag(request, name: str) -> bool:
    return request.POST.get(name) in ("on", "true", "1")


@member_required()
def setup(request):
    member = request.member
    context = {"can_change": member.can_administer, "no_aml": None, "config": None, "retention_choices": retention_choices()}
    if not can_read_screening(member):
        context["no_aml"] = no_aml_text(member)
        return render(request, "screening/setup.html", context)
    client = client_for_member(member)
    screening = client.screening
    try:
        config, settings, categories = client.gather(screening.current_config, screening.suggestion_settings, screening.list_categories)
        preview = None
        if config is not None:
            selections, links, watchlists, preview, runs = client.gather(
                lambda: screening.selected_categories(config.uuid),
                lambda: screening.attached_watchlists(config.uuid),
                client.watchlists.list,
                lambda: screening.suggestion_preview(config.uuid),
                lambda: client.runs.recent(config.uuid, limit=RUNS_SHOWN),
            )
            context.update(config=config, preview=preview, runs=runs, **_watchlists(links, watchlists),
                           too_few_reviewers=too_few_reviewers(member, on=config.four_eyes_review))
        else:
            selections = []
        context.update(settings=_settings(settings, config, preview), **_lists(categories, selections))
    except ServiceError as exc:
        context["service_error"] = service_error_text(exc)
        return render(request, "screening/setup.html", context, status=503)
    return render(request, "screening/setup.html", context)


@member_required()
def config_page(request, config_uuid: uuid.UUID):
    """The page a config's app_url names: the setup page (after checking the config is this organisation's)."""
    if not can_read_screening(request.member):
        return redirect("screening:setup")
    try:
        config_or_404(client_for_member(request.member).screening, config_uuid)
    except ServiceError as exc:
        if isinstance(exc, ServiceNotFound):
            raise Http404("No such screening config.") from None
        refused(request, "The screening config could not be read.", exc)
    return redirect("screening:setup")


def _change(request, change, *, failed: str):
    """An admin's change of the setup: `change(screening)` makes it and answers what to say (None:
    nothing changed and it said why itself); a refusal says `failed` and the service's reason.
    Back to the setup page either way."""
    require_admin(request.member)
    try:
        text = change(client_for_member(request.member).screening)
    except ServiceError as exc:
        refused(request, failed, exc)
    else:
        if text is not None:
            acted(request, text)
    return redirect("screening:setup")


def _config_fields(request) -> dict:
    """The settings form of a config, for creating it or changing it. A post without the
    retention choice leaves the period as it is (an empty choice is the service's default)."""
    fields = {
        "suggestion_setting_uuid": request.POST.get("suggestion_setting") or None,
        "auto_approve_monitoring": _flag(request, "auto_approve"),
        "subscribe_to_email_notifications": _flag(request, "email_notifications"),
        "four_eyes_review": _flag(request, "four_eyes"),
    }
    if "retention_years" in request.POST:
        fields["records_retention_years"] = _years(request.POST["retention_years"])
    return fields


def _years(value: str):
    """The retention choice: "" is the service's default (None); anything but a number goes as
    sent, for the service to refuse at its field."""
    value = value.strip()
    return int(value) if value.isdigit() else (value or None)


@require_POST
@member_required()
def config_create(request):
    def create(screening):
        if screening.current_config() is not None:
            messages.info(request, "Screening is already set up for your organisation; change it below.")
            return None
        screening.create_config(**_config_fields(request))
        return "Screening is set up. Choose the sanction lists and attach the watchlists to screen."

    return _change(request, create, failed="Screening was not set up.")


@require_POST
@member_required()
def config_update(request, config_uuid: uuid.UUID):
    fields = _config_fields(request)
    if "records_retention_years" in fields and request.POST.get("confirm_shorter") != "1":
        require_admin(request.member)
        try:
            asked = _shortening_asked(request, config_uuid, fields)
        except ServiceError as exc:
            refused(request, "The settings were not saved.", exc)
            return redirect("screening:setup")
        if asked is not None:
            return asked

    def update(screening):
        before = config_or_404(screening, config_uuid)
        after = screening.update_config(config_uuid, **fields)
        text = _update_text(before, after)
        if after.records_retention_years != before.records_retention_years and after.effective_records_retention_years:
            past = screening.records_due(config_uuid, years=after.records_retention_years).due
            if past:
                text += (f" The records of {no.decimal(past, 0)} {'person or company' if past == 1 else 'persons and companies'} "
                         "are past it: the next daily pass deletes them.")
        return text

    return _change(request, update, failed="The settings were not saved.")


def _shortening_asked(request, config_uuid, fields: dict):
    """A shorter retention period that makes records due for deletion is asked about first: the
    page says how many persons' and companies' records become due by the change, so that the
    next daily pass deletes them (irreversible), and sends the same settings again when
    confirmed, or all but the period when not. None: nothing to ask.

    Counted by the service, with the deletion's own query (`records-due`), which also says how
    many are past the present period already (the next pass deletes these either way)."""
    client = client_for_member(request.member)
    before = config_or_404(client.screening, config_uuid)
    years = fields["records_retention_years"]
    if years == before.records_retention_years or not (years is None or isinstance(years, int)):
        return None  # unchanged, or not a number: the service says so at the field
    due = client.screening.records_due(config_uuid, years=years)
    if not due.due_by_change:
        return None
    context = {
        "config": before, "due": due, "kept_words": retention_words(due.present_years),
        "confirmed": _posted(request.POST, keep_period=False), "kept": _posted(request.POST, keep_period=True),
        "changes_others": _changes_others(before, fields),
    }
    return render(request, "screening/setup_shorten.html", context)


def _posted(posted, *, keep_period: bool) -> list[tuple[str, str]]:
    """The settings sent, to send again: confirmed, with the shorter period; kept, without it
    (a post without the period leaves it as it is)."""
    left_out = {"csrfmiddlewaretoken", "confirm_shorter"} | ({"retention_years"} if keep_period else set())
    return [(name, value) for name, values in posted.lists() if name not in left_out for value in values]


def _changes_others(before, fields: dict) -> bool:
    """Whether the form changes more than the period (then keeping the period still saves the rest)."""
    setting = fields["suggestion_setting_uuid"]
    return (
        (setting is not None and str(setting) != str(before.suggestion_setting_uuid))
        or fields["auto_approve_monitoring"] != before.auto_approve_monitoring
        or fields["subscribe_to_email_notifications"] != before.subscribe_to_email_notifications
        or fields["four_eyes_review"] != before.four_eyes_review
    )


@require_POST
@member_required()
def category_select(request, config_uuid: uuid.UUID):
    name = request.POST.get("category_name") or "The list"

    def select(screening):
        if request.POST.get("selection"):
            screening.unselect_category(config_uuid, request.POST["selection"])
            return f"{name} is no longer screened: no new sanction hits come from it."
        screening.select_category(config_uuid, request.POST.get("category", ""))
        return f"{name} is screened from now on: every monitored person and company is checked against it."

    return _change(request, select, failed=f"{name} was not changed.")


@require_POST
@member_required()
def watchlist_attach(request, config_uuid: uuid.UUID):
    name = request.POST.get("watchlist_name") or "The watchlist"

    def attach(screening):
        config = config_or_404(screening, config_uuid)
        screening.attach_watchlist(config_uuid, request.POST.get("watchlist", ""))
        if config.auto_approve_monitoring:
            then = "its companies and their persons are screened from now on (auto-approval is on)."
        else:
            then = "its companies are screened by name, and their persons wait for your approval on the Approvals page."
        return f"Watchlist “{name}” attached: {then}"

    return _change(request, attach, failed=f"{name} was not attached.")


@require_POST
@member_required()
def watchlist_detach(request, config_uuid: uuid.UUID, link_uuid: uuid.UUID):
    name = request.POST.get("watchlist_name") or "The watchlist"

    def detach(screening):
        screening.detach_watchlist(config_uuid, link_uuid)
        return (
            f"Watchlist “{name}” detached: the monitorings that came from it are removed (with that reason) "
            "unless another attached watchlist holds the company."
        )

    return _change(request, detach, failed=f"{name} was not detached.")


# --- helpers -------------------------------------------------------------------------------------


def _settings(settings, config, preview):
    rows = []
    for setting in settings:
        title, words = SETTING_WORDS.get(setting.key, (setting.key, setting.description))
        chosen = config.suggestion_setting_uuid == setting.uuid if config else not setting.extended
        estimate = preview.for_setting(setting.uuid) if preview else None
        rows.append({"setting": setting, "title": title, "words": words, "chosen": chosen, "estimate": estimate})
    return rows


def _lists(categories, selections):
    selected = {s.category_uuid: s for s in selections}
    rows = [
        {"category": c, "selection": selected.get(c.uuid), "source": SOURCES.get(c.source_format, c.source_format)}
        for c in categories
    ]
    # PEP first (always screened), then the sanction lists by name
    rows.sort(key=lambda r: (not r["category"].is_pep, r["category"].name))
    return {"list_rows": rows, "sanction_selected_count": len(sanction_selections(categories, selections))}


def _watchlists(links, watchlists):
    attached = {link.watchlist_uuid: link for link in links}
    by_uuid = {w.uuid: w for w in watchlists}
    attached_rows = [{"link": link, "watchlist": by_uuid.get(link.watchlist_uuid)} for link in links]
    others = [w for w in watchlists if w.uuid not in attached]
    return {"attached": attached_rows, "unattached": others}


def _update_text(before, after) -> str:
    changes = []
    if before.suggestion_setting_uuid != after.suggestion_setting_uuid:
        title = SETTING_WORDS.get(after.suggestion_setting_key, (after.suggestion_setting_key,))[0]
        changes.append(f"who is suggested is now “{title}”; the monitorings of your watchlisted companies are re-evaluated")
    if before.auto_approve_monitoring != after.auto_approve_monitoring:
        changes.append(
            "auto-approval is on: suggested persons are screened at once, without approval"
            if after.auto_approve_monitoring
            else "auto-approval is off: new suggestions wait for approval"
        )
    if before.subscribe_to_email_notifications != after.subscribe_to_email_notifications:
        changes.append(
            "members get a daily email of new cases and pending approvals"
            if after.subscribe_to_email_notifications
            else "no more daily emails"
        )
    if before.four_eyes_review != after.four_eyes_review:
        changes.append(
            "four-eyes review is on: an escalated case or a confirmed hit is closed only by a second officer, "
            "never by the one who escalated or proposed it alone, and a legal hold is released only when a second admin "
            "confirms it"
            if after.four_eyes_review
            else "four-eyes review is off: one officer may escalate and close a case alone"
        )
    if before.records_retention_years != after.records_retention_years:
        years = after.effective_records_retention_years
        kept = retention_words(years) + (" after the relationship ends" if years else "")
        changes.append(f"screening records are now kept {kept}"
                       + (" (the service's default)" if after.records_retention_years is None else ""))
    if not changes:
        return "Nothing changed."
    text = "; ".join(changes)
    return f"Saved. {text[0].upper()}{text[1:]}."
