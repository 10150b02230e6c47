"""The audit log: who changed what in an organisation, append-only.

A record is written by the service function that makes the change, inside its
transaction (`services.audit_record`), so a change and its record commit together or
not at all. Records are never updated or deleted through the code: `save` refuses an
update, and the model's `delete` and its queryset's `update`/`delete` raise. The one
change allowed is a redaction (`services.audit_records_redact`), once, when the records an
entry is about reach the end of their retention period.
"""

import uuid

from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone


class AuditAppendOnly(Exception):
    """Raised by any attempt to change or remove an audit record."""


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AuditAppendOnly("audit records cannot be changed")

    def delete(self):
        raise AuditAppendOnly("audit records cannot be deleted")


class AuditEvent(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey("service_auth.AppCustomer", on_delete=models.CASCADE, related_name="+")
    # The person (when the caller named one) and the API user that made the change. The
    # email and name are kept as they were, so a record reads the same after renames.
    actor_app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_email = models.CharField(max_length=254, blank=True)
    actor_api_user = models.ForeignKey(
        "service_auth.ApiUser", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_api_user_name = models.CharField(max_length=200, blank=True)
    action_key = models.CharField(max_length=64)
    object_type = models.CharField(max_length=64)
    object_uuid = models.UUIDField(null=True, blank=True)
    object_label = models.CharField(max_length=300, blank=True)
    before = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    created_timestamp = models.DateTimeField(default=timezone.now)
    # Set once, when the records the entry is about were deleted at the end of their retention
    # period (services.audit_records_redact): its label is emptied and the values of its
    # before/after replaced with nulls; who did what, when, on which object, stays.
    redacted_timestamp = models.DateTimeField(null=True, blank=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["-created_timestamp", "-uuid"]
        indexes = [
            models.Index(fields=["app_customer", "-created_timestamp"], name="audit_customer_time"),
            models.Index(fields=["app_customer", "object_uuid"], name="audit_customer_object"),
        ]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AuditAppendOnly("audit records cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditAppendOnly("audit records cannot be deleted")
