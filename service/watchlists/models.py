"""Watchlists: named lists of companies, private to the owning organisation (spec §2.7).

A company is on a watchlist at most once: the UNIQUE(watchlist, company) constraint is
what keeps concurrent adds idempotent (services insert with ON CONFLICT DO NOTHING).
"""

import uuid

from django.db import models
from django.utils import timezone


class Watchlist(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey("service_auth.AppCustomer", on_delete=models.CASCADE, related_name="watchlists")
    watchlist_name = models.CharField(max_length=200)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return self.watchlist_name


class WatchlistCompany(models.Model):
    """A company's membership of one watchlist."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    watchlist = models.ForeignKey(Watchlist, on_delete=models.CASCADE, related_name="memberships")
    # Indexed: screening asks which watchlists hold a company.
    company = models.ForeignKey(
        "service_companies.Company", on_delete=models.CASCADE, related_name="watchlist_memberships"
    )
    added_timestamp = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["watchlist", "company"], name="watchlist_company_unique")
        ]
