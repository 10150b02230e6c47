"""Writes of screening case reviews.

Reviews are append-only. Recording one locks the case row and moves `latest_review` and
`case_status_key` in the same transaction (DESIGN.md, case status), so the status filter
never reads a half-written state: pending (no review), ongoing (in_review, escalated),
complete (confirmed_hit, false_positive).
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.auth.models import AppMembership
from service.auth.selectors import membership_active_check
from service.errors import ApiError, bad_field
from service.screening.models import EntityMatchDecisionType, ScreeningCase, ScreeningCaseReview, ScreeningCaseReviewStatus

COMPLETE_REVIEW_KEYS = ("confirmed_hit", "false_positive")
ONGOING_REVIEW_KEYS = ("in_review", "escalated")
REVIEWER_LOC = ["body", "reviewer_app_membership_uuid"]


class FourEyesRequired(ApiError):
    status = 409
    code = "four_eyes_required"

    def __init__(self, detail: str, loc: list = REVIEWER_LOC) -> None:
        super().__init__(detail, errors=[{"loc": loc, "msg": detail}])


class CaseComplete(ApiError):
    status = 409
    code = "case_complete"


def four_eyes_check(*, case: ScreeningCase, status_key: str, reviewer: AppMembership) -> bool:
    """The four-eyes rule of a config with `four_eyes_review_flag` (docs/screening.md), for a review
    about to be recorded on the locked `case` (locked alone: its latest review is read after the
    lock, so a review written while this one waited is seen). Refuses (409) what only a second member may do;
    answers True when the review is a confirmed_hit *proposal* that leaves the case ongoing."""
    if not case.screening_config.four_eyes_review_flag or status_key not in COMPLETE_REVIEW_KEYS:
        return False
    latest = case.latest_review
    proposal_pending = (
        latest is not None
        and latest.screening_case_review_status.key == "confirmed_hit"
        and latest.complete_timestamp is None
    )
    if proposal_pending and latest.reviewer_app_membership_id == reviewer.pk:
        raise FourEyesRequired(
            f"Four-eyes review: {reviewer.email} proposed this confirmed hit, so another officer must confirm it "
            f"(a second confirmed hit) or reject it (a false positive)."
        )
    # The escalator may confirm a hit another member proposed: that is two members agreeing. Closing
    # it otherwise (or rejecting the proposal) would be the escalator's judgement alone.
    confirms_another = proposal_pending and status_key == "confirmed_hit"
    escalation = (
        ScreeningCaseReview.objects.filter(screening_case=case, screening_case_review_status__key="escalated")
        .order_by("-created_timestamp", "-uuid")
        .first()
    )
    if escalation is not None and escalation.reviewer_app_membership_id == reviewer.pk and not confirms_another:
        raise FourEyesRequired(
            f"Four-eyes review: {reviewer.email} escalated this case, so another officer must close it "
            f"as a confirmed hit or a false positive. You can still mark it in review or escalate it"
            + (", or confirm the hit another officer proposed." if proposal_pending else ".")
        )
    return status_key == "confirmed_hit" and not proposal_pending


# A closing review's match decision must say what its status says: a false positive is no match,
# a confirmed hit a match. The filed record would otherwise contradict itself.
CLOSING_DECISION = {"false_positive": "no_match", "confirmed_hit": "match"}


def review_decision_check(*, status_key: str, decision_key: str) -> None:
    needed = CLOSING_DECISION.get(status_key)
    if needed is not None and decision_key != needed:
        raise bad_field(
            ["body", "entity_match_decision_type_uuid"],
            f"a {status_key.replace('_', ' ')} review needs the match decision {needed.replace('_', ' ')}, "
            f"not {decision_key.replace('_', ' ')}",
            code="decision_contradicts_status",
        )


def case_label(case: ScreeningCase) -> str:
    """Who the case is about, for the audit log."""
    inquiry = case.entity_inquiry
    entity = inquiry.person or inquiry.customer_person or inquiry.company
    return str(getattr(entity, "full_name", None) or getattr(entity, "name", None) or case.uuid)


def case_status_for(review_status_key: str) -> str:
    if review_status_key in COMPLETE_REVIEW_KEYS:
        return ScreeningCase.Status.COMPLETE
    return ScreeningCase.Status.ONGOING


def review_record(
    *,
    case: ScreeningCase,
    status: ScreeningCaseReviewStatus,
    decision_type: EntityMatchDecisionType,
    reviewer: AppMembership,
    pep_confirmed_flag: bool,
    comment: str = "",
    api_user_uuid: uuid.UUID | None = None,
    batch_case_count: int | None = None,
) -> ScreeningCaseReview:
    """`batch_case_count`: the review is one of a batch of that many cases (`reviews_record`); the audit
    record says so, for an auditor who asks which decisions were taken a page at a time."""
    membership_active_check(reviewer, REVIEWER_LOC)
    review_decision_check(status_key=status.key, decision_key=decision_type.key)
    with transaction.atomic():
        # The case row alone is locked; its config and latest review are read after the lock from
        # its current ids. Joined into the locking query, PostgreSQL would give them as they were
        # before the lock was waited for: a review written meanwhile would be missed by the
        # four-eyes rule and by the record's before.
        locked = ScreeningCase.objects.select_for_update().get(pk=case.pk)
        previous = locked.latest_review
        proposal = four_eyes_check(case=locked, status_key=status.key, reviewer=reviewer)
        complete = status.key in COMPLETE_REVIEW_KEYS and not proposal
        new_status = ScreeningCase.Status.COMPLETE if complete else ScreeningCase.Status.ONGOING
        review = ScreeningCaseReview.objects.create(
            screening_case=locked,
            reviewer_app_membership=reviewer,
            api_user_id=api_user_uuid,
            screening_case_review_status=status,
            entity_match_decision_type=decision_type,
            pep_confirmed_flag=pep_confirmed_flag,
            screening_case_review_comment=comment,
            complete_timestamp=timezone.now() if complete else None,
        )
        ScreeningCase.objects.filter(pk=locked.pk).update(
            latest_review=review, case_status_key=new_status, update_timestamp=timezone.now()
        )
        audit_record(
            app_customer_uuid=locked.screening_config.app_customer_id,
            actor=Actor(api_user_uuid=api_user_uuid, app_membership=reviewer),
            action="screening_case.review",
            object_type="screening_case",
            object_uuid=locked.uuid,
            object_label=case_label(case),
            before={
                "case_status_key": locked.case_status_key,
                "review_status_key": previous.screening_case_review_status.key if previous else None,
            },
            after={
                "case_status_key": new_status,
                "review_status_key": status.key,
                "entity_match_decision_type_key": decision_type.key,
                "pep_confirmed_flag": pep_confirmed_flag,
                "comment": comment,
                **({"four_eyes": "proposal awaiting a second review"} if proposal else {}),
                **({"batch_case_count": batch_case_count} if batch_case_count else {}),
            },
        )
    return review


def reviews_record(
    *,
    cases: list[ScreeningCase],
    status: ScreeningCaseReviewStatus,
    decision_type: EntityMatchDecisionType,
    reviewer: AppMembership,
    pep_confirmed_flag: bool,
    comment: str = "",
    api_user_uuid: uuid.UUID | None = None,
    loc: list,
) -> None:
    """The same review of several open cases, all or none: each recorded as `review_record` records one
    (the four-eyes rule per case, an audit record each). A complete case, or one the four-eyes rule
    refuses, is a 409 naming its place in `loc`'s list, and no case is reviewed: a closed decision,
    a confirmed hit above all, is changed on its own, never by a batch. Cases are locked first, in
    uuid order, so two batches that share cases wait for each other instead of deadlocking."""
    places = {case.uuid: index for index, case in enumerate(cases)}
    with transaction.atomic():
        locked = ScreeningCase.objects.select_for_update().filter(pk__in=places).order_by("uuid")
        complete = {case_uuid for case_uuid, status in locked.values_list("uuid", "case_status_key") if status == ScreeningCase.Status.COMPLETE}
        if complete:
            closed = [case for case in cases if case.uuid in complete]
            errors = [{"loc": [*loc, places[case.uuid]], "msg": "the case is complete: review it on its own"} for case in closed]
            names = ", ".join(case_label(case) for case in closed)
            raise CaseComplete(
                f"The case{'s' if len(closed) > 1 else ''} of {names} {'are' if len(closed) > 1 else 'is'} complete already; "
                "a batch reviews open cases only (a closed decision is changed case by case). No case was reviewed.",
                errors=errors,
            )
        for case in sorted(cases, key=lambda c: c.uuid):
            try:
                review_record(
                    case=case, status=status, decision_type=decision_type, reviewer=reviewer,
                    pep_confirmed_flag=pep_confirmed_flag, comment=comment, api_user_uuid=api_user_uuid,
                    batch_case_count=len(cases),
                )
            except FourEyesRequired as exc:
                raise FourEyesRequired(f"{case_label(case)}: {exc.detail} No case was reviewed.", [*loc, places[case.uuid]]) from None


def cases_assign(
    *, cases: list[ScreeningCase], app_customer_uuid: uuid.UUID, assignee_uuid: uuid.UUID | None, actor: Actor | None = None
) -> None:
    """Several cases to one assignee (or to nobody), all or none, each as `case_assign` assigns one."""
    with transaction.atomic():
        for case in sorted(cases, key=lambda c: c.uuid):
            case_assign(case=case, app_customer_uuid=app_customer_uuid, assignee_uuid=assignee_uuid, actor=actor)


def case_assign(
    *, case: ScreeningCase, app_customer_uuid: uuid.UUID, assignee_uuid: uuid.UUID | None, actor: Actor | None = None
) -> None:
    """Assigns the case to an active member of the case's organisation, or unassigns it (None).
    Another organisation's membership, or an unknown or deactivated one, is a 400 naming the field."""
    assignee = None
    loc = ["body", "assignee_app_membership_uuid"]
    if assignee_uuid is not None:
        assignee = AppMembership.objects.filter(uuid=assignee_uuid, app_customer_id=app_customer_uuid).first()
        if assignee is None:
            raise bad_field(loc, "not a member of the calling organisation")
        membership_active_check(assignee, loc)
    with transaction.atomic():
        # Locked before the "before" is read: two assignments at once then record a chain
        # (one's after is the other's before), not the same before twice. The assignee is read
        # after the lock, not joined into the locking query: PostgreSQL would give the joined
        # row as it was before the lock was waited for.
        locked = ScreeningCase.objects.select_for_update().get(pk=case.pk)
        before = locked.assignee_app_membership.email if locked.assignee_app_membership_id else None
        ScreeningCase.objects.filter(pk=case.pk).update(assignee_app_membership=assignee, update_timestamp=timezone.now())
        audit_record(
            app_customer_uuid=app_customer_uuid,
            actor=actor,
            action="screening_case.assign",
            object_type="screening_case",
            object_uuid=case.uuid,
            object_label=case_label(case),
            before={"assignee_email": before},
            after={"assignee_email": assignee.email if assignee else None},
        )
