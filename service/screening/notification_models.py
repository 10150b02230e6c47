"""The daily digest of a screening config (notifications.py): one row per config and day,
inserted before any email leaves, so the UNIQUE constraint decides which worker sends it."""

import uuid

from django.db import models


class ScreeningDigest(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="digests")
    digest_date = models.DateField(help_text="the day (TIME_ZONE) this digest was sent for")
    window_end = models.DateTimeField(help_text="cases and monitorings up to here are in it; the next one starts here")
    case_count = models.PositiveIntegerField(default=0)
    pending_monitoring_count = models.PositiveIntegerField(default=0)
    recipient_count = models.PositiveIntegerField(default=0)
    create_timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-digest_date"]
        constraints = [
            models.UniqueConstraint(fields=["screening_config", "digest_date"], name="digest_one_per_config_and_day")
        ]
