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

from service.auth.models import AppMembership
from service.errors import bad_field
from service.screening.models import EntityMatchDecisionType, ScreeningCase, ScreeningCaseReview, ScreeningCaseReviewStatus

COMPLETE_REVIEW_KEYS = ("confirmed_hit", "false_positive")
ONGOING_REVIEW_KEYS = ("in_review", "escalated")


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
) -> ScreeningCaseReview:
    with transaction.atomic():
        locked = ScreeningCase.objects.select_for_update().get(pk=case.pk)
        complete = status.key in COMPLETE_REVIEW_KEYS
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
            latest_review=review, case_status_key=case_status_for(status.key), update_timestamp=timezone.now()
        )
    return review


def case_assign(*, case: ScreeningCase, app_customer_uuid: uuid.UUID, assignee_uuid: uuid.UUID | None) -> None:
    """Assigns the case to a member of the case's organisation, or unassigns it (None).
    Another organisation's membership, or an unknown one, is a 400 naming the field."""
    assignee = None
    if assignee_uuid is not None:
        assignee = AppMembership.objects.filter(uuid=assignee_uuid, app_customer_id=app_customer_uuid).first()
        if assignee is None:
            raise bad_field(["body", "assignee_app_membership_uuid"], "not a member of the calling organisation")
    ScreeningCase.objects.filter(pk=case.pk).update(assignee_app_membership=assignee, update_timestamp=timezone.now())
