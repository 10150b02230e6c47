"""Customer person import jobs: a large file of customer persons imported in the background
(person_import_job.py), by the same import as the synchronous endpoint (person_import.py).

The row holds what a caller polls: the state, the counts once done, or why it failed (the
problems of the file by line and column, as the synchronous import's 400 names them). The
uploaded file lives in Django's storage as `customer-person-import/<uuid>.csv` only
until the job ends: it holds national ids, and the persons it brings in are recorded as
customer persons, so nothing else needs it.
"""

import uuid

from django.db import models


class CustomerPersonImportJob(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        COMPLETE = "complete"
        FAILED = "failed"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="import_jobs")
    api_user = models.ForeignKey("service_auth.ApiUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="the member who uploaded the file, as the caller named them (null: none named)",
    )
    file_name = models.CharField(max_length=255, blank=True)
    dry_run = models.BooleanField(default=False)
    approved_flag = models.BooleanField(default=False)
    monitoring_comment = models.CharField(max_length=500, blank=True)
    national_ids_allowed = models.BooleanField(
        default=False, help_text="the upload's caller had person_national_identification: the file may give national ids",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="deliveries of its task that started it; past the limit it fails (person_import_job.py)",
    )
    rows_count = models.PositiveIntegerField(null=True, blank=True, help_text="the file's rows, once read")
    created_count = models.PositiveIntegerField(default=0)
    monitored_count = models.PositiveIntegerField(default=0)
    already_monitored_count = models.PositiveIntegerField(default=0)
    national_ids_added_count = models.PositiveIntegerField(default=0)
    approved_now_count = models.PositiveIntegerField(default=0)
    failure_code = models.CharField(max_length=40, blank=True)
    failure_detail = models.TextField(blank=True)
    failure_errors = models.JSONField(default=list, blank=True, help_text="[{loc, msg}], as the API's 400 lists them")
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)
    complete_timestamp = models.DateTimeField(null=True, blank=True, help_text="when it completed or failed")

    class Meta:
        ordering = ["-create_timestamp", "-uuid"]
        indexes = [models.Index(fields=["screening_config", "-create_timestamp"], name="import_job_config_newest")]

    STORAGE_FOLDER = "customer-person-import"

    @property
    def source_name(self) -> str:
        # One file per job in one folder: deleting it leaves no empty folder behind.
        return f"{self.STORAGE_FOLDER}/{self.uuid}.csv"

    @property
    def ended(self) -> bool:
        return self.status in (self.Status.COMPLETE, self.Status.FAILED)
