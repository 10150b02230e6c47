"""Batch screening jobs: an uploaded screening file screened in the background (batch_services.py).

The job row holds the state a caller polls (status, progress, counts); the uploaded file and
the result files live in Django's storage under `screening-batch/<uuid>/`. While the job
runs, each finished chunk of rows is a `ScreeningBatchChunk` (UNIQUE per job and number),
written in one transaction with the job's progress: a redelivered task skips the chunks that
exist, so it resumes where the last one stopped and never writes a row twice. The chunks are
deleted when the result files are written and the job is complete.

Deleting a job (a member's request, or the retention period after its upload) removes what
the upload brought in, the names of the persons screened: its files, chunks and file name (a
name checked on the dashboard is its file name). The row stays with who uploaded it, when, and
its counts; the audit log keeps its records (batch_services.batch_delete).
"""

import uuid

from django.db import models


class ScreeningBatch(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        COMPLETE = "complete"
        FAILED = "failed"
        DELETED = "deleted"

    class DeletionReason(models.TextChoices):
        REQUEST = "request", "deleted by a member"
        RETENTION = "retention", "deleted after the retention period"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="batches")
    api_user = models.ForeignKey("service_auth.ApiUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="the member who uploaded the file, as the caller named them (null: none named)",
    )
    file_name = models.CharField(max_length=255, blank=True,
                                 help_text="the uploaded file's name, as sent; emptied when the job is deleted")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    rows_total = models.PositiveIntegerField()
    rows_done = models.PositiveIntegerField(default=0)
    rows_with_hits_count = models.PositiveIntegerField(default=0)
    hit_count = models.PositiveIntegerField(default=0, help_text="hits in the result (at most 3 per row)")
    failure_reason = models.TextField(blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)
    complete_timestamp = models.DateTimeField(null=True, blank=True)
    screened_against = models.JSONField(
        default=list, blank=True,
        help_text="the list versions its rows were screened against, once complete (batch_services.screened_against_of)",
    )
    deleted_timestamp = models.DateTimeField(null=True, blank=True, help_text="when its files were deleted")
    deletion_reason_key = models.CharField(max_length=10, choices=DeletionReason.choices, blank=True)

    class Meta:
        ordering = ["-create_timestamp", "-uuid"]
        indexes = [models.Index(fields=["screening_config", "-create_timestamp"], name="batch_config_newest")]

    STORAGE_FOLDER = "screening-batch"  # each job's files are in a folder named by its uuid under this

    def storage_name(self, file: str) -> str:
        """`source.csv`, `result.csv` or `result.json` of this job in the storage."""
        return f"{self.STORAGE_FOLDER}/{self.uuid}/{file}"


class ScreeningBatchChunk(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    batch = models.ForeignKey(ScreeningBatch, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField(help_text="0 for the first CHUNK_ROWS rows of the file, and so on")
    rows = models.PositiveIntegerField()
    rows_with_hits_count = models.PositiveIntegerField()
    hit_count = models.PositiveIntegerField()
    results = models.JSONField(help_text="person_file.row_result of each row, in file order")
    version_uuids = models.JSONField(default=list, help_text="the list versions searched for these rows")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["batch", "number"], name="batch_chunk_unique_number")]
