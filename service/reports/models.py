"""Partner report orders, the reports they produce and file sessions (spec §2.6, §3, §4.4).

An order has one PartnerReport per requested report (its "lines"). Lines and the
order move pending -> processing -> complete | failed; a Celery task drives them
(tasks.py). A complete report's file lives in Django's storage under the
`general` bucket at its `file_path`; a FileSession lets a browser fetch that one
file without an authorization header until it expires.
"""

import uuid

from django.db import models

from service.auth.models import AppCustomer
from service.companies.models import Company

PENDING, PROCESSING, COMPLETE, FAILED = "pending", "processing", "complete", "failed"
STATUSES = [(key, key) for key in (PENDING, PROCESSING, COMPLETE, FAILED)]

# key: (description, role needed to order it). Seeded by migration 0002.
REPORT_TYPES = {
    "company_profile": ("Company profile: register facts, credit risk with its factors, active flags and key figures", ""),
    "credit_report": ("Credit report: the company profile plus payment remarks and collection cases", "credit_check"),
    "ownership_report": ("Ownership report: roles, ownership through holding chains and beneficial owners", ""),
}


class PartnerReportType(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=64, unique=True)
    description = models.CharField(max_length=300)
    required_role_key = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return self.key


class PartnerReportOrder(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey(AppCustomer, on_delete=models.CASCADE, related_name="partner_report_orders")
    status = models.CharField(max_length=16, choices=STATUSES, default=PENDING)
    failure_reason = models.TextField(blank=True)
    # The roles the caller held when ordering: what the reports may show (payment remarks need credit_check).
    granted_role_keys = models.JSONField(default=list)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)
    complete_timestamp = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["app_customer", "-create_timestamp"])]


class PartnerReport(models.Model):
    """One report of an order. Its file name is fixed at creation (`<uuid>.pdf`), so a
    report produced twice (a worker died after writing) still has exactly one file."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    order = models.ForeignKey(PartnerReportOrder, on_delete=models.CASCADE, related_name="reports")
    app_customer = models.ForeignKey(AppCustomer, on_delete=models.CASCADE, related_name="partner_reports")
    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="partner_reports")
    report_type = models.ForeignKey(PartnerReportType, on_delete=models.PROTECT)
    position = models.PositiveSmallIntegerField(default=0)  # order in the request
    status = models.CharField(max_length=16, choices=STATUSES, default=PENDING)
    failure_reason = models.TextField(blank=True)
    file_path = models.CharField(max_length=300, unique=True)
    file_size = models.PositiveBigIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    complete_timestamp = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["app_customer", "-create_timestamp"])]

    @property
    def file_name(self) -> str:
        return self.file_path.rsplit("/", 1)[-1]


class FileSession(models.Model):
    """Download without an authorization header: bound to one file, valid until `expires`."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey(AppCustomer, on_delete=models.CASCADE, related_name="file_sessions")
    file_path = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(db_index=True)
