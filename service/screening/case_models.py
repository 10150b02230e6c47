"""Screening cases (spec §2.10): what a screening run found and what reviewers said about it.

An entity inquiry is one screened entity of a config (a register person, a customer
person or a company): exactly one of `person`, `customer_person`, `company` is set, and
`inquiry_entity_key` + `inquiry_entity_uuid` repeat that choice for one unique index.

A case is one possible hit: an inquiry against one listed entity, identified across list
versions by its category and `list_source_id` (an unchanged entry gets a new row in every
version). `list_entry` points at the entry the case was raised on (an open case is moved to
the newest one when the entry changes) and `list_content_hash` keeps that entry's hash.

The cases of one inquiry and listed entity form a chain: the first has no `previous_case`;
a later one exists only because the one before was closed as a false positive and the
entry's content changed since (screening_cases.py has the rule). Two constraints make the
chain race-safe under the runs' insert-ignore: one first case per inquiry and listed entity
(a partial UNIQUE), and at most one successor per case (`previous_case` is one-to-one).

Reviews are append-only; `latest_review` and `case_status_key` follow the newest one, written
in the same transaction (DESIGN.md, case status):
pending (no review), ongoing (in_review, escalated), complete (confirmed_hit, false_positive).
"""

import uuid

from django.db import models
from django.db.models import Q

from service.screening.config_models import KeyedLookup


class ScreeningCaseReviewStatus(KeyedLookup):
    """A fixed key (catalog.py), seeded by migration."""


class EntityMatchDecisionType(KeyedLookup):
    """A fixed key (catalog.py), seeded by migration."""


class EntityInquiry(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="entity_inquiries")
    inquiry_entity_key = models.CharField(max_length=20)  # person | customer_person | company
    inquiry_entity_uuid = models.UUIDField()
    person = models.ForeignKey("service_companies.Person", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    customer_person = models.ForeignKey("CustomerPerson", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    company = models.ForeignKey("service_companies.Company", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    create_timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(inquiry_entity_key="person", person__isnull=False, customer_person__isnull=True, company__isnull=True)
                | Q(inquiry_entity_key="customer_person", person__isnull=True, customer_person__isnull=False, company__isnull=True)
                | Q(inquiry_entity_key="company", person__isnull=True, customer_person__isnull=True, company__isnull=False),
                name="inquiry_one_entity",
            ),
            models.UniqueConstraint(
                fields=["screening_config", "inquiry_entity_key", "inquiry_entity_uuid"], name="inquiry_unique_entity"
            ),
        ]
        # The cases of one entity, and of the entities monitored for a company, look inquiries up by entity alone.
        indexes = [models.Index(fields=["inquiry_entity_uuid"], name="inquiry_entity")]


class ScreeningCase(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ONGOING = "ongoing"
        COMPLETE = "complete"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="screening_cases")
    entity_inquiry = models.ForeignKey(EntityInquiry, on_delete=models.CASCADE, related_name="cases")
    list_category = models.ForeignKey("ScreeningListCategory", on_delete=models.PROTECT, related_name="+")
    list_source_id = models.CharField(max_length=100)
    list_entry = models.ForeignKey("ScreeningListEntry", on_delete=models.PROTECT, related_name="+")
    list_content_hash = models.CharField(max_length=64)
    pep_flag = models.BooleanField(default=False)
    sanction_flag = models.BooleanField(default=False)
    score = models.FloatField()
    explanation = models.JSONField(default=dict, help_text="the engine's Explanation.as_dict()")
    explanation_summary = models.TextField(blank=True)
    assignee_app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    case_status_key = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    latest_review = models.ForeignKey("ScreeningCaseReview", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    previous_case = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="next_case",
        help_text="the false positive this case re-raises because its list entry changed",
    )
    created_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_timestamp", "-uuid"]
        indexes = [
            # The counts per status and hit kind: answered from the index alone (an index-only scan).
            models.Index(
                fields=["screening_config", "case_status_key", "pep_flag", "sanction_flag"], name="case_config_status_flags"
            ),
            # The queue's order (oldest or newest first): the first page reads a few rows in order, not every open case.
            models.Index(fields=["screening_config", "created_timestamp", "uuid"], name="case_config_created"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["entity_inquiry", "list_category", "list_source_id"],
                condition=Q(previous_case__isnull=True),
                name="case_unique_first_per_listed_entity",
            )
        ]


class ScreeningCaseReview(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_case = models.ForeignKey(ScreeningCase, on_delete=models.CASCADE, related_name="reviews")
    reviewer_app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    api_user = models.ForeignKey("service_auth.ApiUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    screening_case_review_status = models.ForeignKey(ScreeningCaseReviewStatus, on_delete=models.PROTECT)
    entity_match_decision_type = models.ForeignKey(EntityMatchDecisionType, on_delete=models.PROTECT)
    pep_confirmed_flag = models.BooleanField(default=False)
    screening_case_review_comment = models.TextField(blank=True)
    created_timestamp = models.DateTimeField(auto_now_add=True)
    save_timestamp = models.DateTimeField(auto_now=True)
    complete_timestamp = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_timestamp", "-uuid"]
