"""Screening setup (spec §2.8): configs, their list categories, lookups and customer persons.

A config belongs to one organisation. Its list categories say which sanction lists
raise hits (PEP hits always do, rule 5). Customer persons belong to one config and are
screened only through an approved monitoring (rule 4).
"""

import uuid

from django.db import models

# A config's own retention period of screening records, in years: the one range, in vakt_limits
# so that the dashboard's setup page offers the same; the service's checks import it from here.
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX
from vakt_limits.retention import RETENTION_YEARS_MAX, RETENTION_YEARS_MIN


class KeyedLookup(models.Model):
    """A fixed key the code relies on (catalog.py), seeded by migration."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    key = models.CharField(max_length=64, unique=True)
    description = models.CharField(max_length=300)

    class Meta:
        abstract = True
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key


class ScreeningConfigSystemSuggestionSetting(KeyedLookup):
    """Who the service suggests for a watchlisted company (catalog.SUGGESTION_SETTINGS)."""


class Gender(KeyedLookup):
    pass


class PersonLocationType(KeyedLookup):
    pass


class ScreeningConfig(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    app_customer = models.ForeignKey(
        "service_auth.AppCustomer", on_delete=models.CASCADE, related_name="screening_configs"
    )
    auto_approve_monitoring_flag = models.BooleanField(default=False)
    suggestion_setting = models.ForeignKey(ScreeningConfigSystemSuggestionSetting, on_delete=models.PROTECT)
    subscribe_to_email_notifications_flag = models.BooleanField(default=False)
    # Extension: a confirmed hit, or an escalated case, is closed only by a second member
    # (case_services.four_eyes_check; docs/screening.md).
    four_eyes_review_flag = models.BooleanField(default=False)
    # Extension: the organisation's own retention period for screening records, in years
    # (RETENTION_YEARS_MIN to _MAX); None: the deployment's VAKT_SCREENING_RECORDS_RETENTION_YEARS
    # (records_retention.py).
    records_retention_years = models.PositiveSmallIntegerField(null=True, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["create_timestamp", "uuid"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(records_retention_years__isnull=True)
                | models.Q(records_retention_years__gte=RETENTION_YEARS_MIN, records_retention_years__lte=RETENTION_YEARS_MAX),
                name="screening_config_retention_5_to_10_years",
            ),
        ]


class ScreeningConfigListCategory(models.Model):
    """A sanction or PEP list category selected for a config; selected at most once."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey(ScreeningConfig, on_delete=models.CASCADE, related_name="list_categories")
    category = models.ForeignKey("ScreeningListCategory", on_delete=models.PROTECT, related_name="+")
    create_timestamp = models.DateTimeField(auto_now_add=True)
    # Set when selected, cleared when the config's re-screen is planned: a value older than
    # VAKT_RESUME_AFTER_SECONDS is a re-screen whose message was lost.
    rescreen_owed_timestamp = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["screening_config", "category"], name="config_list_category_unique")
        ]


class CustomerPerson(models.Model):
    """A person screened for an organisation without a company (spec §2.8)."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey(ScreeningConfig, on_delete=models.CASCADE, related_name="customer_persons")
    full_name = models.CharField(max_length=300)
    birth_date = models.DateField(null=True, blank=True)
    gender = models.ForeignKey(Gender, on_delete=models.PROTECT, null=True, blank=True)
    # Extension: ISO 3166-1 alpha-2 codes, upper case, each once; the engine weighs them as a name
    # check's nationality (an empty list: not known).
    nationalities = models.JSONField(default=list, blank=True)
    # Extension: the organisation's own number for the customer (its core system's), so a hit is
    # traced back to them; one customer person of the config each ("" when none).
    customer_reference = models.CharField(max_length=CUSTOMER_REFERENCE_MAX, blank=True, default="")
    # Extension: the record this second record of one customer was merged into (`person_merge`): its
    # reference, national ids and addresses moved there, and it is never screened again.
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="merged_records"
    )
    merged_timestamp = models.DateTimeField(null=True, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["screening_config", "customer_reference"], condition=~models.Q(customer_reference=""),
                name="customer_person_reference_unique",
            )
        ]

    def __str__(self) -> str:
        return self.full_name


class CustomerPersonNationalIdentification(models.Model):
    """A national identity number, stored compact; readable only with `person_national_identification`."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    customer_person = models.ForeignKey(
        CustomerPerson, on_delete=models.CASCADE, related_name="national_identifications"
    )
    national_identification_schema = models.CharField(max_length=2)  # NO, SE, DK
    national_identification_number = models.CharField(max_length=20)
    geo_country = models.ForeignKey("service_companies.GeoCountry", on_delete=models.PROTECT, null=True, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["customer_person", "national_identification_schema", "national_identification_number"],
                name="customer_person_national_id_unique",
            )
        ]
        # Who has a number: the search by national id, the holder check of an add, an import's lookup.
        indexes = [models.Index(fields=["national_identification_number"], name="customer_person_nid_number")]


class CustomerPersonLocation(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    customer_person = models.ForeignKey(CustomerPerson, on_delete=models.CASCADE, related_name="locations")
    person_location_type = models.ForeignKey(PersonLocationType, on_delete=models.PROTECT, null=True, blank=True)
    # The spec names a geo location; the register has no such table yet, so the uuid is kept as given.
    geo_location_uuid = models.UUIDField(null=True, blank=True)
    street_address = models.CharField(max_length=300, blank=True)
    postal_code = models.CharField(max_length=20, blank=True)
    postal_place = models.CharField(max_length=100, blank=True)
    municipality_code = models.CharField(max_length=10, blank=True)
    municipality_name = models.CharField(max_length=100, blank=True)
    country_code_two = models.CharField(max_length=2, blank=True)
    country_name = models.CharField(max_length=100, blank=True)
    street_name = models.CharField(max_length=200, blank=True)
    street_number = models.CharField(max_length=20, blank=True)
    street_letter = models.CharField(max_length=10, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)


class ScreeningConfigWatchlist(models.Model):
    """A watchlist attached to a config: its companies and their persons get monitorings."""

    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    screening_config = models.ForeignKey(ScreeningConfig, on_delete=models.CASCADE, related_name="watchlist_links")
    watchlist = models.ForeignKey(
        "service_watchlists.Watchlist", on_delete=models.CASCADE, related_name="screening_config_links"
    )
    create_timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["screening_config", "watchlist"], name="config_watchlist_unique")
        ]
