"""The legal hold forms of a customer person's page and of a monitoring's page, and what sending
them does; both pages send them the same way.

Placing a hold, releasing it and, under the config's four-eyes review, asking for the release,
confirming or turning down one asked for by another admin. The release form says which of these
the page offered (`step`), so that a page read before another admin acted does not do the other;
an answer saying the hold changed meanwhile is a message above the page read again, which shows
the hold as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages

from portal.service import ServiceError
from portal.service.holds import HoldsArea, RecordsHold
from screening.pages import acted, form_refused
from screening.customer_person_form import ServiceForm


class HoldForm(ServiceForm):
    """A legal hold on a person's screening records: kept past the retention period, and why."""

    service_step = "hold"

    reason = forms.CharField(
        max_length=1000, label="Why the records are kept",
        widget=forms.TextInput(attrs={"placeholder": "e.g. our case 2026-114: the police asked for the records"}),
        error_messages={"required": "Say why the records are kept."},
    )


class HoldReleaseForm(ServiceForm):
    """Releasing a legal hold (or asking for it, under four-eyes review), and why the records need
    not be kept any longer."""

    service_step = "hold_release"
    ASK, CONFIRM, RELEASE = "ask", "confirm", "release"  # what the page offered

    step = forms.ChoiceField(choices=[(ASK, ASK), (CONFIRM, CONFIRM), (RELEASE, RELEASE)], required=False,
                             widget=forms.HiddenInput)
    release_reason = forms.CharField(
        max_length=1000, label="Why the hold is released",
        widget=forms.TextInput(attrs={"placeholder": "e.g. case 2026-114 closed"}),
        error_messages={"required": "Say why the records need not be kept any longer."},
    )


class HoldKeepForm(ServiceForm):
    """Turning down a release asked for under four-eyes review, or withdrawing one's own request."""

    service_step = "hold_keep"

    keep_reason = forms.CharField(
        max_length=1000, label="Why the hold stays",
        widget=forms.TextInput(attrs={"placeholder": "e.g. the police have not closed case 2026-114"}),
        error_messages={"required": "Say why the records are still needed."},
    )


def hold_forms(sent: dict) -> dict:
    """The page's hold forms for an admin: the one sent back with its errors, the others new."""
    return {
        "hold_form": sent.get("hold_form") or HoldForm(),
        "release_form": sent.get("release_form") or HoldReleaseForm(),
        "keep_form": sent.get("keep_form") or HoldKeepForm(),
    }


def hold_in_force_text(name: str) -> str:
    return f"A hold on {name}'s records is in force already."


@dataclass(frozen=True)
class Refused:
    """A hold form to show again with its errors, and the page's status."""

    name: str
    form: ServiceForm
    status: int = 200

    def forms(self) -> dict:
        return {self.name: self.form}


def hold_place_send(request, holds: HoldsArea, *, config_uuid, entity_key: str, entity_uuid, name: str) -> Refused | None:
    form = HoldForm(request.POST)
    if not form.is_valid():
        return Refused("hold_form", form)
    try:
        holds.place(config_uuid, entity_key=entity_key, entity_uuid=entity_uuid, reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        return Refused("hold_form", form, form_refused(form, exc))
    acted(request, f"{name}'s records are held: nothing is deleted until the hold is released.")
    return None


# The hold changed since the page was read: said above the page read again, not on a form it may
# no longer show.
CHANGED_MEANWHILE = {
    "already_released": "The hold on {name}'s records was released meanwhile.",
    "release_already_requested": "Another admin asked for the release of {name}'s records meanwhile: confirm it "
                                 "or keep the hold below.",
    "no_release_requested": "The release of {name}'s records was withdrawn or turned down meanwhile: the hold stays "
                            "in force.",
}
CONFIRM_STEP = {HoldReleaseForm.ASK: False, HoldReleaseForm.CONFIRM: True}


def _changed_meanwhile(request, exc: ServiceError, *, name: str) -> bool:
    if exc.code == "four_eyes_required":  # the asker's page offers no confirm form
        messages.error(request, exc.detail)
        return True
    if exc.code in CHANGED_MEANWHILE:
        messages.error(request, CHANGED_MEANWHILE[exc.code].format(name=name))
        return True
    return False


def hold_release_send(request, holds: HoldsArea, hold: RecordsHold, *, name: str) -> Refused | None:
    form = HoldReleaseForm(request.POST)
    if not form.is_valid():
        return Refused("release_form", form)
    try:
        answer = holds.release(hold.uuid, release_reason=form.cleaned_data["release_reason"],
                               confirm_request=CONFIRM_STEP.get(form.cleaned_data["step"]))
    except ServiceError as exc:
        if _changed_meanwhile(request, exc, name=name):
            return None
        return Refused("release_form", form, form_refused(form, exc))
    if answer.in_force:
        acted(request, f"The release of {name}'s records is asked for: it takes effect when another admin confirms it "
                       "(four-eyes review). Until then nothing is deleted.")
    else:
        acted(request, f"The hold on {name}'s records is released: their retention period applies again.")
    return None


def hold_keep_send(request, holds: HoldsArea, hold: RecordsHold, *, name: str) -> Refused | None:
    form = HoldKeepForm(request.POST)
    if not form.is_valid():
        return Refused("keep_form", form)
    try:
        holds.keep(hold.uuid, keep_reason=form.cleaned_data["keep_reason"])
    except ServiceError as exc:
        if _changed_meanwhile(request, exc, name=name):
            return None
        return Refused("keep_form", form, form_refused(form, exc))
    acted(request, f"The hold on {name}'s records stays: no release waits any longer.")
    return None
