"""Re-screening runs: a list version's delta, or everything, split into chunks for the workers.

A run is planned once (its chunks written in one transaction) and each chunk is a Celery
task of its own, so several workers share the work. A chunk names a config and a range of
its monitoring uuids (inclusive bounds, in uuid order); it screens the monitorings in that
range that are screened when it runs (the §3 rule). The state lives here: a chunk's
`done_timestamp` and counts, a run's `finished_timestamp` once its last chunk is done. A
redelivered chunk screens again and makes no second case (the case constraints), and counts
are written only by the first delivery to finish.
"""

import uuid

from django.db import models
from django.db.models import Q


class ScreeningRun(models.Model):
    class Kind(models.TextChoices):
        LIST_VERSION = "list_version"  # a new list version's added and changed entries
        FULL = "full"  # every current list against every screened entity

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    list_version = models.ForeignKey(
        "ScreeningListVersion", on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        help_text="the version whose delta is screened (kind list_version)",
    )
    delta_entry_count = models.PositiveIntegerField(default=0, help_text="entries in the delta index (kind list_version)")
    chunk_count = models.PositiveIntegerField(default=0)
    created_timestamp = models.DateTimeField(auto_now_add=True)
    finished_timestamp = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_timestamp"]
        constraints = [
            models.UniqueConstraint(
                fields=["list_version"], condition=Q(kind="list_version"), name="screening_run_one_per_list_version"
            ),
            models.CheckConstraint(
                condition=Q(kind="full", list_version__isnull=True) | Q(kind="list_version", list_version__isnull=False),
                name="screening_run_kind_version",
            ),
        ]


class ScreeningRunChunk(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    run = models.ForeignKey(ScreeningRun, on_delete=models.CASCADE, related_name="chunks")
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="+")
    first_monitoring_uuid = models.UUIDField()
    last_monitoring_uuid = models.UUIDField()
    monitoring_count = models.PositiveIntegerField(help_text="screened monitorings in the range when planned")
    done_timestamp = models.DateTimeField(null=True, blank=True)
    screened = models.PositiveIntegerField(default=0)
    hits = models.PositiveIntegerField(default=0)
    cases_created = models.PositiveIntegerField(default=0)
    cases_updated = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["run", "screening_config", "first_monitoring_uuid"]
        indexes = [models.Index(fields=["run", "done_timestamp"], name="run_chunk_done")]
