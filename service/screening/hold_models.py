"""A legal hold: an entity's screening records kept past the retention period.

An investigation (a report to the financial intelligence unit, a police request, a
dispute) can need a former customer's records after the five years of the AML acts;
the acts allow keeping them longer for it. While a hold is placed and not released,
`records_retention` deletes nothing of the entity in that config; a hold on a company
keeps the records of the persons screened for it too. Released holds stay as history
until the records themselves go, and go with them (their reason can name a person). With
the config's four-eyes review on, a release takes two members: one asks, another confirms.
"""

import uuid

from django.db import models
from django.db.models import Q

from service.screening.monitoring_models import EntityMonitoring


class ScreeningRecordsHold(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey("ScreeningConfig", on_delete=models.CASCADE, related_name="records_holds")
    entity_key = models.CharField(max_length=20, choices=EntityMonitoring.EntityKey.choices)
    entity_uuid = models.UUIDField()
    reason = models.TextField()
    app_membership = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text="who placed the hold",
    )
    create_timestamp = models.DateTimeField(auto_now_add=True)
    released_timestamp = models.DateTimeField(null=True, blank=True)
    released_by = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
    )
    release_reason = models.TextField(blank=True)
    # With the config's four-eyes review, a release is first asked for by one member and takes
    # effect when another confirms it (`hold_services.records_hold_release`). Turning the request
    # down clears them; the audit log keeps who asked and why.
    release_requested_timestamp = models.DateTimeField(null=True, blank=True)
    release_requested_by = models.ForeignKey(
        "service_auth.AppMembership", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
    )
    release_request_reason = models.TextField(blank=True)

    class Meta:
        indexes = [models.Index(fields=["screening_config", "entity_uuid"], name="records_hold_config_entity")]
        constraints = [
            # One hold in force per entity: a second would say nothing more, and releasing one
            # of two would look like the records were free to go.
            models.UniqueConstraint(
                fields=["screening_config", "entity_key", "entity_uuid"],
                condition=Q(released_timestamp__isnull=True),
                name="records_hold_one_in_force",
            ),
        ]

    @property
    def in_force(self) -> bool:
        return self.released_timestamp is None
