"""Dashboard members: a login tied to an organisation, its API credentials and a role.

The dashboard is a client of the service like any other: it holds the
organisation's API credentials (encrypted at rest) and acts through them.
"""

import uuid

from django.conf import settings
from django.db import models

from portal.crypto import decrypt, encrypt


class Organisation(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    app_customer_uuid = models.UUIDField(unique=True, help_text="the organisation's id in the service")
    api_client_id = models.CharField(max_length=64, help_text="token auth id of the organisation's API user")
    api_client_secret_encrypted = models.TextField()
    api_role_keys = models.CharField(
        max_length=500, blank=True, help_text="comma-separated roles the dashboard asks for (Nk-Role-Keys)"
    )

    def __str__(self) -> str:
        return self.name

    @property
    def api_client_secret(self) -> str:
        return decrypt(self.api_client_secret_encrypted)

    @api_client_secret.setter
    def api_client_secret(self, value: str) -> None:
        self.api_client_secret_encrypted = encrypt(value)

    @property
    def role_keys(self) -> list[str]:
        return [key.strip() for key in self.api_role_keys.split(",") if key.strip()]


class Member(models.Model):
    class Role(models.TextChoices):
        OFFICER = "officer", "Compliance officer"
        ADMIN = "admin", "Admin"
        VIEWER = "viewer", "Viewer"

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="member")
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="members")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.VIEWER)
    app_membership_uuid = models.UUIDField(
        null=True, blank=True, help_text="the member as a person in the service (reviewer identity)"
    )

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.organisation})"

    @property
    def can_review(self) -> bool:
        return self.role in (self.Role.OFFICER, self.Role.ADMIN)

    @property
    def can_administer(self) -> bool:
        return self.role == self.Role.ADMIN


class WorkerHeartbeat(models.Model):
    """Written by a beat-scheduled task, so the health page knows a worker and beat are alive."""

    STALE_AFTER_SECONDS = 120

    name = models.CharField(max_length=50, primary_key=True)
    seen_at = models.DateTimeField()
