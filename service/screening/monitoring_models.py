"""Entity monitoring (spec §2.9, §3): the standing decision that an entity is screened for a config.

A monitoring names exactly one entity: a register person, a customer person or a
company (its own name). `entity_key` + `entity_uuid` repeat that choice in two plain
columns so that one index serves "every screened entity of a config" and the
no-duplicate constraint.

Decisions are append-only; `latest_decision` points at the newest one, written in the
same transaction, so the screening rule is one join, not a subquery per row:

    screened  <=>  removed_flag is false  and  latest_decision.approved_flag is true

(`monitoring_selectors.monitorings_screened` is the only place that spells it.)

No duplicate: at most one monitoring that is not removed per config + entity +
related company. Removed monitorings stay as history, so a company that leaves and
rejoins a watchlist gets a new monitoring (and, without auto-approve, needs a new
decision) instead of silently reviving an old approval.
"""

import uuid

from django.db import models
from django.db.models import Q

from service.screening.config_models import KeyedLookup


class EntityMonitoringType(KeyedLookup):
    """A fixed key (catalog.py), seeded by migration."""


class EntityMonitoring(models.Model):
    class EntityKey(models.TextChoices):
        PERSON = "person"
        CUSTOMER_PERSON = "customer_person"
        COMPANY = "company"

    class Origin(models.TextChoices):
        USER = "user"
        SUGGESTION = "suggestion"
        AUTO_APPROVE = "auto_approve"
        API = "api"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey(
        "ScreeningConfig", on_delete=models.CASCADE, related_name="entity_monitorings"
    )
    related_company = models.ForeignKey(
        "service_companies.Company", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    entity_key = models.CharField(max_length=20, choices=EntityKey.choices)
    entity_uuid = models.UUIDField()
    person = models.ForeignKey("service_companies.Person", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    customer_person = models.ForeignKey(
        "CustomerPerson", on_delete=models.CASCADE, null=True, blank=True, related_name="entity_monitorings"
    )
    company = models.ForeignKey(
        "service_companies.Company", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    entity_monitoring_type = models.ForeignKey(EntityMonitoringType, on_delete=models.PROTECT)
    monitoring_origin_key = models.CharField(max_length=20, choices=Origin.choices)
    monitoring_comment = models.TextField(blank=True)
    app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    relationship_start_date = models.DateField(null=True, blank=True)
    removed_flag = models.BooleanField(default=False)
    removed_timestamp = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(blank=True)
    latest_decision = models.ForeignKey(
        "EntityMonitoringDecision", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Set by an approving decision, cleared by the screening it enqueues (or by a decline or a
    # removal): a value older than VAKT_RESUME_AFTER_SECONDS is a screening whose message was lost.
    screening_owed_timestamp = models.DateTimeField(null=True, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["create_timestamp", "uuid"]
        indexes = [
            models.Index(fields=["screening_config", "removed_flag"], name="monitoring_config_removed"),
            # A page of cases reads the monitorings of its entities (related companies, monitored_flag).
            models.Index(fields=["screening_config", "entity_uuid"], name="monitoring_config_entity"),
            # The resume's look-up: the few rows that owe a screening, not the whole table.
            models.Index(
                fields=["screening_owed_timestamp"], condition=Q(screening_owed_timestamp__isnull=False),
                name="monitoring_screening_owed",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(entity_key="person", person__isnull=False, customer_person__isnull=True, company__isnull=True)
                | Q(entity_key="customer_person", person__isnull=True, customer_person__isnull=False, company__isnull=True)
                | Q(entity_key="company", person__isnull=True, customer_person__isnull=True, company__isnull=False),
                name="monitoring_one_entity",
            ),
            # Two partial constraints because NULLs are distinct in a unique index.
            models.UniqueConstraint(
                fields=["screening_config", "entity_key", "entity_uuid", "related_company"],
                condition=Q(removed_flag=False, related_company__isnull=False),
                name="monitoring_unique_with_company",
            ),
            models.UniqueConstraint(
                fields=["screening_config", "entity_key", "entity_uuid"],
                condition=Q(removed_flag=False, related_company__isnull=True),
                name="monitoring_unique_without_company",
            ),
        ]


class MonitoringEvidence(models.Model):
    """The evidence of screening of one monitoring: per list category, the version its entity was
    last screened against and when (screening_evidence.py writes it; every kind of run does).

    A table of its own, not a column of the monitoring: every chunk of a run records it for its
    2,000 monitorings, and rewriting those narrow rows (one index) costs a fifth of rewriting the
    monitorings' rows with their dozen indexes (docs/screening.md, *The evidence of screening*)."""

    monitoring = models.OneToOneField(EntityMonitoring, primary_key=True, on_delete=models.CASCADE, related_name="evidence")
    screened_against = models.JSONField(default=dict)


class EntityMonitoringDecision(models.Model):
    class Origin(models.TextChoices):
        USER = "user"
        AUTO_APPROVE = "auto_approve"
        SYSTEM = "system"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    entity_monitoring = models.ForeignKey(EntityMonitoring, on_delete=models.CASCADE, related_name="decisions")
    app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Who called, for the audit trail when no membership is named (a machine account).
    api_user = models.ForeignKey("service_auth.ApiUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    approved_flag = models.BooleanField()
    decision_origin_key = models.CharField(max_length=20, choices=Origin.choices)
    decision_comment = models.TextField(blank=True)
    decision_timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-decision_timestamp", "-uuid"]
