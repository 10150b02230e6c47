"""Screening lists: categories (one per source list, plus PEP) and versioned snapshots.

A list version is a full snapshot of the entries a source published at one
time. Importing writes a new version beside the current one and switches the
category's `current_version` only when the whole file was read, so a bad file
never replaces a good list. Each version records which entries were added,
changed and removed against the version before it, so re-screening can be
limited to what changed.
"""

import uuid

from django.db import models


class ScreeningListCategory(models.Model):
    class ListType(models.TextChoices):
        PEP = "pep", "PEP"
        SANCTION = "sanction", "Sanction"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    list_type = models.CharField(max_length=10, choices=ListType.choices)
    source_format = models.CharField(max_length=20, help_text="a key of the list parsers' FORMATS")
    refresh_url = models.URLField(
        max_length=500, blank=True, help_text="when set, a scheduled task downloads and imports this URL"
    )
    current_version = models.OneToOneField(
        "ScreeningListVersion", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key


class ScreeningListVersion(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    category = models.ForeignKey(ScreeningListCategory, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source_name = models.CharField(max_length=300)
    source_sha256 = models.CharField(max_length=64)
    imported_at = models.DateTimeField(auto_now_add=True)
    entry_count = models.PositiveIntegerField(default=0)
    added_count = models.PositiveIntegerField(default=0)
    changed_count = models.PositiveIntegerField(default=0)
    removed_count = models.PositiveIntegerField(default=0)
    rejected_count = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict, help_text="read/accepted counts, rejected records and warnings")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["category", "number"], name="list_version_unique_number")]
        ordering = ["category", "-number"]

    def __str__(self) -> str:
        return f"{self.category.key} v{self.number}"


class ScreeningListEntry(models.Model):
    """One listed person or organisation in one version, as the parsers read it."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    version = models.ForeignKey(ScreeningListVersion, on_delete=models.CASCADE, related_name="entries")
    source_id = models.CharField(max_length=100)
    schema = models.CharField(max_length=20)  # Person, Organization, LegalEntity, Vessel, Airplane
    primary_name = models.CharField(max_length=500)
    names = models.JSONField(default=list)  # [{"name", "quality", "kind"}]
    birth_dates = models.JSONField(default=list)  # partial ISO dates
    nationalities = models.JSONField(default=list)  # ISO 3166-1 alpha-2, lower case
    gender = models.CharField(max_length=10, blank=True)
    identifiers = models.JSONField(default=list)  # [{"kind", "value", "country"}]
    programmes = models.JSONField(default=list)
    listed_date = models.CharField(max_length=10, blank=True)
    source_url = models.CharField(max_length=500, blank=True)
    remarks = models.TextField(blank=True)
    addresses = models.JSONField(default=list)
    positions = models.JSONField(default=list)  # a PEP's public functions, as the list names them
    content_hash = models.CharField(max_length=64, help_text="tells a changed entry from an unchanged one")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "source_id"], name="list_entry_unique_per_version")
        ]

    def __str__(self) -> str:
        return f"{self.primary_name} ({self.source_id})"


class ScreeningListEntryChange(models.Model):
    class Change(models.TextChoices):
        ADDED = "added"
        CHANGED = "changed"
        REMOVED = "removed"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    version = models.ForeignKey(ScreeningListVersion, on_delete=models.CASCADE, related_name="changes")
    source_id = models.CharField(max_length=100)
    change = models.CharField(max_length=10, choices=Change.choices)
    entry = models.ForeignKey(
        ScreeningListEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        help_text="the entry in this version (empty when removed)",
    )
    previous_entry = models.ForeignKey(
        ScreeningListEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        help_text="the entry in the version before (empty when added)",
    )


# The screening setup and monitoring models live in modules of their own; Django finds them here.
from service.screening.config_models import (  # noqa: E402,F401
    CustomerPerson,
    CustomerPersonLocation,
    CustomerPersonNationalIdentification,
    Gender,
    PersonLocationType,
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningConfigSystemSuggestionSetting,
    ScreeningConfigWatchlist,
)
from service.screening.monitoring_models import (  # noqa: E402,F401
    EntityMonitoring,
    EntityMonitoringDecision,
    EntityMonitoringType,
    MonitoringEvidence,
)
from service.screening.case_models import (  # noqa: E402,F401
    EntityInquiry,
    EntityMatchDecisionType,
    ScreeningCase,
    ScreeningCaseReview,
    ScreeningCaseReviewStatus,
)
from service.screening.batch_models import ScreeningBatch, ScreeningBatchChunk  # noqa: E402,F401
from service.screening.person_import_job_models import CustomerPersonImportJob  # noqa: E402,F401
from service.screening.hold_models import ScreeningRecordsHold  # noqa: E402,F401
from service.screening.notification_models import ScreeningDigest  # noqa: E402,F401
from service.screening.run_models import (  # noqa: E402,F401
    ScreeningRun,
    ScreeningRunChunk,
)
