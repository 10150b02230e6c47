"""Two records of one customer on the customer person page: what an admin may do about each record of
the same name and birth date, and what it would move.

The service decides what a merge moves and when it refuses (`POST .../merge`); the page asks it with a
dry run for each such record, so what the page says is what a merge does. An admin whose role reads
national ids merges; any admin may instead only stop screening the other record (its details stay on it).
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.formatting import key_words
from portal.service import ServiceBadRequest, ServiceError
from portal.service.screening_records import CustomerPerson, PersonMerge

MAX_PREVIEWS = 5  # records of one customer the page asks the service about
# Refusals that mean two people, not one: the page then offers neither a merge nor a stop.
TWO_PEOPLE = {"references_differ", "national_ids_differ", "not_same_customer"}


@dataclass(frozen=True, slots=True)
class DuplicateChoice:
    other: CustomerPerson
    moves: list[str] | None  # what a merge moves here, in words; None when not known (the service did not say)
    refusal: str | None  # why the service would not merge them, in its words ("has another customer reference ...")
    can_merge: bool
    can_stop: bool
    two_people: bool  # the service says the two are two people: not a duplicate at all


def merge_moves(merge: PersonMerge) -> list[str]:
    """What a merge moves to the record kept, in words: national ids masked (none said when the caller's role
    hides them), addresses, the customer reference, nationalities and the gender."""
    words = [f"the national id {n.masked}" for n in merge.national_ids or ()]
    words += [f"the address {place.one_line}" for place in merge.locations]
    if merge.customer_reference:
        words.append(f"the customer reference {merge.customer_reference}")
    if merge.nationalities:
        words.append(f"the nationalit{'y' if len(merge.nationalities) == 1 else 'ies'} {', '.join(merge.nationalities)}")
    if merge.gender_key:
        words.append(f"the gender {key_words(merge.gender_key).lower()}")
    return words


def duplicate_choices(*, person: CustomerPerson, namesakes: list[CustomerPerson], screening, gather,
                      screened: bool, merge_allowed: bool) -> list[DuplicateChoice]:
    """For an admin: each namesake (none merged: the page leaves those out), with what a merge would move (asked
    of the service for the first MAX_PREVIEWS) and what the page offers. A stop needs the other to be monitored
    and this record screened, as before a merge; neither is offered for two people."""

    def preview(other):
        def ask():
            try:
                return screening.merge_customer_person(person.uuid, other.uuid, dry_run=True)
            except ServiceBadRequest as refusal:
                return refusal
        return ask

    try:
        answers = gather(*(preview(other) for other in namesakes[:MAX_PREVIEWS]))
    except ServiceError:
        answers = []
    choices = []
    for position, other in enumerate(namesakes):
        answer = answers[position] if position < len(answers) else None
        refusal = answer if isinstance(answer, ServiceBadRequest) else None
        two_people = refusal is not None and refusal.code in TWO_PEOPLE
        monitored = other.monitoring_status_key not in (None, "removed")
        choices.append(DuplicateChoice(
            other=other,
            moves=merge_moves(answer) if isinstance(answer, PersonMerge) else None,
            refusal=_refusal_text(refusal) if refusal is not None else None,
            can_merge=merge_allowed and refusal is None,
            can_stop=screened and monitored and not two_people,
            two_people=two_people,
        ))
    return choices


def _refusal_text(refusal: ServiceBadRequest) -> str:
    """The service's reason, about the other record ("has another customer reference (K-2) than this record (K-1) ..."):
    the service speaks of "the record kept", which on this page is this record."""
    text = refusal.errors[0]["msg"] if refusal.errors else refusal.detail
    return text.replace("the record kept", "this record")
