"""The organisation's ordered reports as the dashboard keeps them: status and a download link.

One row per report of an order. The service holds the report and its file; this
row holds what the reports page shows without calling it: the company's name,
the status the poll task last saw, and the file session link a browser follows
straight to the service (renewed when it runs out).
"""

import uuid

from django.db import models
from django.utils import timezone


class ReportDownload(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Ordered"
        PROCESSING = "processing", "In progress"
        COMPLETE = "complete", "Ready"
        FAILED = "failed", "Failed"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organisation = models.ForeignKey("portal.Organisation", on_delete=models.CASCADE, related_name="reports")
    ordered_by = models.ForeignKey("portal.Member", null=True, blank=True, on_delete=models.SET_NULL)
    order_uuid = models.UUIDField(db_index=True)
    report_uuid = models.UUIDField(unique=True)
    company_uuid = models.UUIDField()
    company_name = models.CharField(max_length=300)
    company_org_nr = models.CharField(max_length=40, blank=True)
    report_type = models.CharField(max_length=50)
    # The roles the order was placed with that change what its type shows (the service's rule,
    # reports.catalogue.content_roles_by_type), comma-separated: the row is shown only to members whose
    # calls carry each of those its type depends on, and its links are made with them.
    role_keys = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    failure_reason = models.TextField(blank=True)
    file_path = models.CharField(max_length=500, blank=True)
    file_name = models.CharField(max_length=200, blank=True)
    file_size = models.PositiveBigIntegerField(null=True, blank=True)
    file_session_uuid = models.UUIDField(null=True, blank=True)
    download_url = models.CharField(max_length=1000, blank=True)
    link_expires_at = models.DateTimeField(null=True, blank=True)
    ordered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordered_at"]
        indexes = [models.Index(fields=["organisation", "-ordered_at"])]

    def __str__(self) -> str:
        return f"{self.report_type} of {self.company_name} ({self.status})"

    @property
    def role_key_list(self) -> list[str]:
        return [key for key in self.role_keys.split(",") if key]

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.COMPLETE, self.Status.FAILED)

    @property
    def link_is_live(self) -> bool:
        """A link to follow: a renewal the service refused leaves the old one, which no longer opens."""
        return bool(self.download_url) and (self.link_expires_at is None or self.link_expires_at > timezone.now())
