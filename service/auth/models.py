"""Organisations (app customers), their people and their API users."""

import uuid

from django.db import models

# Spec §5.3. Seeded by migration; assigned per API user.
ROLE_KEYS = (
    ("aml", "AML: PEP and sanction screening"),
    ("credit_check", "Payment remarks and credit reports"),
    ("norwegian_mortgaged_movable_property_data", "Mortgaged movable property"),
    ("person_national_identification", "Personal national identification numbers"),
    ("norwegian_property_data", "Property data"),
    ("network_risk_score", "Network risk score"),
    ("bank_account_prevalidation", "Bank account register check"),
    ("adverse_event", "Adverse media"),
    ("fraud_risk_score", "Fraud risk score"),
    # Extension: the organisation's own administration (members, API users, audit log).
    ("app_admin", "Organisation admin: members, API users and the audit log"),
)


class AppCustomer(models.Model):
    """An organisation using the service. Everything private belongs to one."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class AppMembership(models.Model):
    """A person in an organisation (reviewers, approvers), identified by email."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey(AppCustomer, on_delete=models.CASCADE, related_name="memberships")
    email = models.EmailField()
    full_name = models.CharField(max_length=200, blank=True)
    # A deactivated member stays (their past reviews and decisions name them) but can no
    # longer review, decide, be assigned or be named as the actor of a change.
    active_flag = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["app_customer", "email"], name="membership_unique_email_per_org")
        ]

    def __str__(self) -> str:
        return self.email


class AppRole(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=64, unique=True)
    description = models.CharField(max_length=200)

    def __str__(self) -> str:
        return self.key


class ApiUser(models.Model):
    """A machine account. Two credential pairs: basic auth and token auth.

    Secrets are random 256-bit values, so a fast keyed hash (HMAC-SHA256) is as
    safe as a slow password hash here and keeps basic auth cheap per request.
    """

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey(AppCustomer, on_delete=models.CASCADE, related_name="api_users")
    name = models.CharField(max_length=200)
    basic_auth_id = models.CharField(max_length=64, unique=True)
    basic_auth_secret_hash = models.CharField(max_length=128)
    token_auth_id = models.CharField(max_length=64, unique=True)
    token_auth_secret_hash = models.CharField(max_length=128)
    roles = models.ManyToManyField(AppRole, blank=True, related_name="api_users")
    is_active = models.BooleanField(default=True)
    # Carried in every token; rotating the secrets bumps it, so tokens issued before stop working.
    credentials_version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.app_customer})"
