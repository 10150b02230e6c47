"""Four-eyes review as the dashboard explains it (the service enforces it: docs/screening.md).

With the config's four-eyes flag on, an escalated case or a confirmed hit is closed only by a
second officer. Here: what the case page and a queue row say about it, and whether the member
looking at the case is the one who may not close it (the form says so before they try; the
service's 409 is still the rule, and its sentence is shown at the form when it refuses).
"""

from __future__ import annotations

from dataclasses import dataclass

from portal.formatting import member_label
from portal.models import Member
from portal.service.cases import Case, Review

REVIEWERS = (Member.Role.OFFICER, Member.Role.ADMIN)
CLOSING = frozenset({"confirmed_hit", "false_positive"})  # the review statuses that close a case

RULE_TEXT = (
    "Four-eyes review is on: an escalated case or a confirmed hit is closed only when a second officer agrees. "
    "A confirmed hit stands as a proposal until another officer confirms it; the one who escalated the case may "
    "confirm another officer's proposal, but not close the case alone."
)


@dataclass(frozen=True)
class FourEyes:
    on: bool  # the config's flag
    proposal: Review | None  # a confirmed hit awaiting a second officer
    proposer: str  # who proposed it, in words ("you" for the member)
    blocked_reason: str  # why this member cannot close the case now; "" when they can
    blocked_statuses: frozenset[str] = frozenset()  # the review statuses the service would refuse them (not offered)

    @property
    def proposal_text(self) -> str:
        return f"Confirmed hit proposed by {self.proposer} — awaiting a second officer" if self.proposal else ""


def reviewers_of(organisation):
    """Who can review the organisation's cases (and be handed one): its officers and admins who can sign in
    and are linked to a person of the service (a review and an assignment name that person)."""
    return Member.objects.filter(organisation=organisation, role__in=REVIEWERS, user__is_active=True,
                                 app_membership_uuid__isnull=False)


def too_few_reviewers(member: Member, *, on: bool) -> str:
    """With four-eyes review on and fewer than two members who can review, an escalated case or a
    confirmed hit can never be closed (the second officer does not exist): the sentence that says so
    where cases are worked (the queue, the case page), and what an admin does about it; "" otherwise.
    One query, of at most two rows."""
    if not on:
        return ""
    found = list(reviewers_of(member.organisation).select_related("user").order_by("pk")[:2])
    if len(found) >= 2:
        return ""
    if not found:
        who = "no member can review cases"
    elif found[0].pk == member.pk:
        who = "you are the only member who can review cases"
    else:
        who = f"{member_label(found[0])} is the only member who can review cases"
    return (f"Four-eyes review is on, but {who}: an escalated case or a confirmed hit waits for a second officer, "
            "so it cannot be closed. An admin adds a second compliance officer or admin under Members, or switches "
            "four-eyes review off in the screening setup.")


def _who(review: Review, member: Member) -> str:
    if member.app_membership_uuid is not None and review.reviewer_uuid == member.app_membership_uuid:
        return "you"
    return review.reviewer_email or "an API integration"


def _is_member(review: Review | None, member: Member) -> bool:
    return review is not None and member.app_membership_uuid is not None and review.reviewer_uuid == member.app_membership_uuid


def four_eyes_for(case: Case, *, on: bool, member: Member) -> FourEyes:
    # With the flag off, a proposal left from when it was on waits for nobody: any confirmed hit closes it.
    proposal = case.hit_proposal if on else None
    reason, blocked = "", frozenset()
    if on and case.status_key != "complete":
        if _is_member(proposal, member):
            reason = ("You proposed this confirmed hit, so another officer must confirm it (confirmed hit) or reject it "
                      "(false positive). You can still add an in-review or escalated review.")
            blocked = CLOSING
        elif _is_member(case.latest_escalation, member) and proposal is not None:
            reason = (f"You escalated this case: you may confirm the hit {_who(proposal, member)} proposed, but rejecting "
                      "it (false positive) needs another officer.")
            blocked = frozenset({"false_positive"})
        elif _is_member(case.latest_escalation, member):
            reason = ("You escalated this case, so another officer must close it (confirmed hit or false positive). "
                      "You can still add an in-review or escalated review.")
            blocked = CLOSING
    return FourEyes(on=on, proposal=proposal, proposer=_who(proposal, member) if proposal else "", blocked_reason=reason,
                    blocked_statuses=blocked)


def proposal_badge_title(case: Case, member: Member, *, on: bool) -> str:
    """A queue row's words for a proposal awaiting a second officer ("" when there is none, or four-eyes is off)."""
    proposal = case.hit_proposal if on else None
    return f"Confirmed hit proposed by {_who(proposal, member)} — awaiting a second officer" if proposal else ""


def escalation_badge_title(case: Case, member: Member, *, on: bool) -> str:
    """A queue row's words for an open case whose latest review escalated it ("" otherwise): without them
    the row reads only "In review", and nobody scanning the queue sees which cases wait for a second opinion."""
    latest = case.latest_review
    if case.status_key == "complete" or latest is None or latest.status_key != "escalated":
        return ""
    who = _who(latest, member)
    if on:
        return f"Escalated by {who} — another officer must close it (four-eyes review)"
    return f"Escalated by {who} for a second opinion"
