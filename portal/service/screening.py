"""Screening setup and monitoring (spec §2.8, §2.9, §4.7 and the extension reads).

The dashboard's screening pages start here: the organisation's config (most have one),
its suggestion setting, list categories and watchlists, what the setting would suggest,
the monitorings and their decisions, customer persons and the lookups. Cases, reviews
and related-company states live in `portal.service.cases`. Every call needs `aml`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID

from portal.service.common import Area, moment, path_segment
from portal.service.holds import RecordsHold
from portal.service.person_import import CustomerPersonImport, CustomerPersonImportJob
from portal.service.screening_records import (
    CustomerPerson,
    CustomerPersonDetail,
    DuplicateGroup,
    Monitoring,
    MonitoringPage,
    PersonAddress,
    PersonMerge,
    SuggestedPerson,
    location_from_json,
    national_id_from_json,
    suggested_from_json,
)

PEP_TYPE = "pep"
UNCHANGED: Any = object()  # a field of a correction that is not sent (None clears a field that may be empty)

# A file of 10,000 customers takes 9-12 s to import on the benchmark's 2-core machine
# (bench/bench_customer_person_import.py), more than the client's usual timeout allows on a slower
# one; the web worker's own limit (VAKT_WEB_TIMEOUT_SECONDS, 60) stays the bound.
IMPORT_TIMEOUT_SECONDS = 55.0


@dataclass(frozen=True, slots=True)
class ScreeningConfig:
    uuid: UUID
    app_customer_uuid: UUID
    auto_approve_monitoring: bool
    suggestion_setting_uuid: UUID
    suggestion_setting_key: str
    subscribe_to_email_notifications: bool
    four_eyes_review: bool  # escalations and confirmed hits (and hold releases) take a second member
    created_at: datetime | None
    updated_at: datetime | None
    app_url: str | None
    records_retention_years: int | None = None  # its own period (vakt_limits.retention's range); None: the service's default
    effective_records_retention_years: int = 5  # the period that applies (0: kept for ever)

    @classmethod
    def from_json(cls, data: dict) -> ScreeningConfig:
        return cls(
            uuid=UUID(str(data["uuid"])),
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            auto_approve_monitoring=bool(data.get("auto_approve_monitoring_flag")),
            suggestion_setting_uuid=UUID(str(data["screening_config_system_suggestion_setting_uuid"])),
            suggestion_setting_key=data.get("screening_config_system_suggestion_setting_key") or "",
            subscribe_to_email_notifications=bool(data.get("subscribe_to_email_notifications_flag")),
            four_eyes_review=bool(data.get("four_eyes_review_flag")),
            created_at=moment(data.get("create_timestamp")),
            updated_at=moment(data.get("update_timestamp")),
            app_url=data.get("app_url"),
            records_retention_years=data.get("records_retention_years"),
            effective_records_retention_years=int(data.get("effective_records_retention_years") or 0),
        )


@dataclass(frozen=True, slots=True)
class SuggestionSetting:
    uuid: UUID
    key: str
    description: str

    @property
    def extended(self) -> bool:
        return "extended" in self.key


@dataclass(frozen=True, slots=True)
class ListCategory:
    """A list the service screens against, with its current version."""

    uuid: UUID
    key: str
    name: str
    description: str
    list_type: str  # pep or sanction
    source_format: str
    version_number: int | None
    version_at: datetime | None
    entry_count: int

    @property
    def is_pep(self) -> bool:
        return self.list_type == PEP_TYPE

    @classmethod
    def from_json(cls, data: dict) -> ListCategory:
        return cls(
            uuid=UUID(str(data["uuid"])),
            key=data["screening_list_category_key"],
            name=data.get("screening_list_category_name") or data["screening_list_category_key"],
            description=data.get("description") or "",
            list_type=data.get("screening_list_type_key") or "",
            source_format=data.get("source_format") or "",
            version_number=data.get("latest_version_number"),
            version_at=moment(data.get("latest_version_timestamp")),
            entry_count=int(data.get("entry_count") or 0),
        )


@dataclass(frozen=True, slots=True)
class CategorySelection:
    uuid: UUID  # the selection (what unselecting names)
    category_uuid: UUID
    category_key: str


@dataclass(frozen=True, slots=True)
class WatchlistLink:
    uuid: UUID  # the attachment (what detaching names)
    watchlist_uuid: UUID
    watchlist_name: str
    attached_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> WatchlistLink:
        return cls(
            UUID(str(data["uuid"])), UUID(str(data["watchlist_uuid"])), data.get("watchlist_name") or "", moment(data.get("create_timestamp"))
        )


@dataclass(frozen=True, slots=True)
class Lookup:
    """A lookup row (gender, person location type, entity monitoring type): its uuid, key and words."""

    uuid: UUID
    key: str
    description: str


@dataclass(frozen=True, slots=True)
class Country:
    uuid: UUID
    key: str  # ISO alpha-2
    name: str


@dataclass(frozen=True, slots=True)
class SettingPreview:
    setting_uuid: UUID
    setting_key: str
    person_count: int
    beneficial_owner_count: int
    alternative_beneficial_owner_count: int
    companies_without_person_count: int


@dataclass(frozen=True, slots=True)
class SuggestionPreview:
    """What each suggestion setting would suggest for the companies on the attached watchlists."""

    company_count: int
    estimated: bool  # counted on a sample and scaled
    settings: tuple[SettingPreview, ...]

    def for_setting(self, setting_uuid) -> SettingPreview | None:
        return next((s for s in self.settings if s.setting_uuid == UUID(str(setting_uuid))), None)


@dataclass(frozen=True, slots=True)
class RecordsDue:
    """What the daily deletion would take in a config with a given retention period, beside what it
    takes with the present one."""

    years: int  # the period counted with (0: kept for ever)
    cutoff: date | None  # relationships that ended before this day are past it
    due: int  # customer persons, persons and companies whose records the next daily pass deletes
    held: int  # those past the period that a legal hold keeps
    present_years: int  # the config's present period (0: kept for ever)
    present_cutoff: date | None
    present_due: int  # past the present period already: deleted whatever is chosen
    due_by_change: int  # those the asked period makes due that the present one does not
    held_by_change: int  # those it puts past it that a hold keeps, less the present period's

    @classmethod
    def from_json(cls, data: dict) -> RecordsDue:
        def day(key):
            return date.fromisoformat(data[key]) if data.get(key) else None

        return cls(
            years=int(data.get("effective_records_retention_years") or 0),
            cutoff=day("retention_cutoff_date"),
            due=int(data.get("due_count") or 0),
            held=int(data.get("held_count") or 0),
            present_years=int(data.get("present_effective_records_retention_years") or 0),
            present_cutoff=day("present_retention_cutoff_date"),
            present_due=int(data.get("present_due_count") or 0),
            due_by_change=int(data.get("due_by_change_count") or 0),
            held_by_change=int(data.get("held_by_change_count") or 0),
        )


class ScreeningArea(Area):
    # --- configs ---------------------------------------------------------------------------

    def configs(self) -> list[ScreeningConfig]:
        """The organisation's configs, oldest first (needs `aml`)."""
        return [ScreeningConfig.from_json(c) for c in self.client.get("analysis", self._configs_path())]

    def current_config(self) -> ScreeningConfig | None:
        """The config the dashboard works with: the organisation's oldest, or None before setup."""
        configs = self.configs()
        return configs[0] if configs else None

    def config(self, config_uuid) -> ScreeningConfig:
        return ScreeningConfig.from_json(self.client.get("analysis", _config_path(config_uuid)))

    def create_config(
        self,
        *,
        suggestion_setting_uuid=None,
        auto_approve_monitoring: bool = False,
        subscribe_to_email_notifications: bool = False,
        four_eyes_review: bool = False,
        records_retention_years: int | None = None,
    ) -> ScreeningConfig:
        """A 400 naming `records_retention_years` outside vakt_limits.retention's range."""
        body = {
            "auto_approve_monitoring_flag": auto_approve_monitoring,
            "subscribe_to_email_notifications_flag": subscribe_to_email_notifications,
            "four_eyes_review_flag": four_eyes_review,
            "records_retention_years": records_retention_years,
            **self.acting_body(),
        }
        if suggestion_setting_uuid:
            body["screening_config_system_suggestion_setting_uuid"] = str(suggestion_setting_uuid)
        return ScreeningConfig.from_json(self.client.post("analysis", self._configs_path(), json=body))

    def update_config(
        self,
        config_uuid,
        *,
        suggestion_setting_uuid=None,
        auto_approve_monitoring: bool | None = None,
        subscribe_to_email_notifications: bool | None = None,
        four_eyes_review: bool | None = None,
        records_retention_years: int | None = UNCHANGED,
    ) -> ScreeningConfig:
        """Only the fields given are sent (the service re-evaluates monitorings when setting or auto-approve change);
        `records_retention_years` None: back to the service's default period."""
        body: dict = self.acting_body()
        if suggestion_setting_uuid is not None:
            body["screening_config_system_suggestion_setting_uuid"] = str(suggestion_setting_uuid)
        if auto_approve_monitoring is not None:
            body["auto_approve_monitoring_flag"] = auto_approve_monitoring
        if subscribe_to_email_notifications is not None:
            body["subscribe_to_email_notifications_flag"] = subscribe_to_email_notifications
        if four_eyes_review is not None:
            body["four_eyes_review_flag"] = four_eyes_review
        if records_retention_years is not UNCHANGED:
            body["records_retention_years"] = records_retention_years
        return ScreeningConfig.from_json(self.client.patch("analysis", _config_path(config_uuid), json=body))

    def records_due(self, config_uuid, *, years: int | None) -> RecordsDue:
        """With `years` as the config's period (None: the service's default), what becomes due for
        deletion; a 400 naming `records_retention_years` outside the allowed range."""
        params = {} if years is None else {"records_retention_years": years}
        return RecordsDue.from_json(self.client.get("analysis", _config_path(config_uuid, "/records-due"), params=params))

    def suggestion_settings(self) -> list[SuggestionSetting]:
        rows = self.client.get("analysis", "v1/screening-config-system-suggestion-setting")
        return [
            SuggestionSetting(UUID(str(r["uuid"])), r["screening_config_system_suggestion_setting_key"], r.get("description") or "")
            for r in rows
        ]

    def suggestion_preview(self, config_uuid) -> SuggestionPreview:
        data = self.client.get("analysis", _config_path(config_uuid, "/suggestion-preview"))
        return SuggestionPreview(
            company_count=int(data["company_count"]),
            estimated=bool(data.get("estimated_flag")),
            settings=tuple(
                SettingPreview(
                    setting_uuid=UUID(str(s["screening_config_system_suggestion_setting_uuid"])),
                    setting_key=s["screening_config_system_suggestion_setting_key"],
                    person_count=int(s["person_count"]),
                    beneficial_owner_count=int(s["beneficial_owner_count"]),
                    alternative_beneficial_owner_count=int(s["alternative_beneficial_owner_count"]),
                    companies_without_person_count=int(s["companies_without_person_count"]),
                )
                for s in data.get("settings") or ()
            ),
        )

    # --- list categories -------------------------------------------------------------------------

    def list_categories(self) -> list[ListCategory]:
        return [ListCategory.from_json(r) for r in self.client.get("analysis", "v1/screening-list-category")]

    def selected_categories(self, config_uuid) -> list[CategorySelection]:
        rows = self.client.get("analysis", _config_path(config_uuid, "/screening-config-screening-list-category"))
        return [
            CategorySelection(UUID(str(r["uuid"])), UUID(str(r["screening_list_category_uuid"])), r.get("screening_list_category_key") or "")
            for r in rows
        ]

    def select_category(self, config_uuid, category_uuid) -> None:
        self.client.post(
            "analysis",
            _config_path(config_uuid, "/screening-config-screening-list-category"),
            json={"screening_list_category_uuid": str(category_uuid), **self.acting_body()},
        )

    def unselect_category(self, config_uuid, selection_uuid) -> None:
        self.client.delete(
            "analysis",
            _config_path(config_uuid, f"/screening-config-screening-list-category/{path_segment(selection_uuid)}"),
            params=self.acting_params(),
        )

    # --- watchlists ------------------------------------------------------------------------------

    def attached_watchlists(self, config_uuid) -> list[WatchlistLink]:
        """The watchlists whose companies the config screens (needs `aml`)."""
        rows = self.client.get("analysis", _config_path(config_uuid, "/screening-config-watchlist"))
        return [WatchlistLink.from_json(r) for r in rows]

    def attach_watchlist(self, config_uuid, watchlist_uuid) -> WatchlistLink:
        r = self.client.post(
            "analysis", _config_path(config_uuid, "/screening-config-watchlist"), json={"watchlist_uuid": str(watchlist_uuid), **self.acting_body()}
        )
        return WatchlistLink.from_json(r)

    def detach_watchlist(self, config_uuid, link_uuid) -> None:
        self.client.delete(
            "analysis", _config_path(config_uuid, f"/screening-config-watchlist/{path_segment(link_uuid)}"), params=self.acting_params()
        )

    # --- lookups ---------------------------------------------------------------------------------

    def genders(self) -> list[Lookup]:
        return self._lookup("gender")

    def person_location_types(self) -> list[Lookup]:
        return self._lookup("person-location-type")

    def monitoring_types(self) -> list[Lookup]:
        return self._lookup("entity-monitoring-type")

    def countries(self) -> list[Country]:
        rows = self.client.get("analysis", "v1/geo-country")
        return [Country(UUID(str(r["uuid"])), r["geo_country_key"], r.get("name") or r["geo_country_key"]) for r in rows]

    def _lookup(self, name: str) -> list[Lookup]:
        key = f"{name.replace('-', '_')}_key"
        return [Lookup(UUID(str(r["uuid"])), r[key], r.get("description") or "") for r in self.client.get("analysis", f"v1/{name}")]

    # --- monitorings -----------------------------------------------------------------------------

    def monitorings(
        self,
        config_uuid,
        *,
        status_key: str | None = None,
        related_company_uuid=None,
        entity_uuid=None,
        customer_persons_only: bool = False,
        limit: int = 100,
        offset: int = 0,
    ) -> MonitoringPage:
        """Oldest first; status pending, active, declined or removed (None: every one); `entity_uuid`:
        one person's, customer person's or company's monitorings (every company it is monitored for);
        `customer_persons_only`: those with no related company, which only customer persons have."""
        params = {
            "approval_status_key": status_key,
            "no_related_company_flag": "true" if customer_persons_only else None,
            "related_company_uuid": related_company_uuid,
            "monitoring_entity_uuid": entity_uuid,
            "limit": limit,
            "offset": offset,
        }
        rows = self.client.get("analysis", _config_path(config_uuid, "/entity-monitoring-composite"), params=params)
        return MonitoringPage(tuple(Monitoring.from_json(r) for r in rows), has_more=len(rows) >= limit)

    def monitoring(self, config_uuid, monitoring_uuid) -> Monitoring:
        path = _config_path(config_uuid, f"/entity-monitoring-composite/{path_segment(monitoring_uuid)}")
        return Monitoring.from_json(self.client.get("analysis", path))

    def decide(self, config_uuid, monitoring_uuid, *, approved: bool, comment: str = "") -> Monitoring:
        """Approve (screened from now on) or decline a monitoring, as the member the client acts for."""
        body = {
            "entity_monitoring_uuid": str(monitoring_uuid),
            "approved_flag": approved,
            "decision_comment": comment,
            "decision_origin_key": "user",
            **self.acting_body(),
        }
        data = self.client.post("analysis", _config_path(config_uuid, "/entity-monitoring-decision"), json=body)
        return Monitoring.from_json(data)

    def remove_monitoring(self, config_uuid, monitoring_uuid, *, reason: str) -> Monitoring:
        path = _config_path(config_uuid, f"/entity-monitoring/{path_segment(monitoring_uuid)}")
        return Monitoring.from_json(self.client.patch("analysis", path, json={"removed_flag": True, "removal_reason": reason, **self.acting_body()}))

    def suggested_persons(self, config_uuid, company_uuids) -> dict[UUID, tuple[SuggestedPerson, ...]]:
        """Company uuid -> the persons the config's setting names for it today, with roles, share and chains."""
        ids = [str(c) for c in dict.fromkeys(company_uuids)]
        if not ids:
            return {}
        data = self.client.get(
            "analysis", _config_path(config_uuid, "/suggested-person"), params={"related_company_uuid": ids}
        )
        return {UUID(str(row["related_company"]["uuid"])): tuple(suggested_from_json(p) for p in row["suggested_persons"]) for row in data}

    # --- customer persons -------------------------------------------------------------------------

    def customer_persons(
        self, config_uuid, *, name_contains: str = "", customer_reference: str = "", limit: int = 100, offset: int = 0
    ) -> list[CustomerPerson]:
        """By name; `name_contains` keeps those whose name contains it (any case); `customer_reference` (at
        most 100 characters, else a 400) the one whose reference it is, exactly, spaces at either end aside
        (extension; blank filters nothing)."""
        params = {"limit": limit, "offset": offset, "name_contains": name_contains or None,
                  "customer_reference": customer_reference or None}
        rows = self.client.get("analysis", _config_path(config_uuid, "/customer-person"), params=params)
        return [CustomerPerson.from_json(r) for r in rows]

    def customer_person_duplicates(
        self, config_uuid, *, customer_person_uuid=None, limit: int = 100, offset: int = 0,
    ) -> tuple[list[DuplicateGroup], int]:
        """Groups of customer persons that are possibly one customer entered twice (one birth date, the same name or
        one written two ways; not told apart by references), by name; with how many groups there are in all.
        `customer_person_uuid`: only that person's groups (read from those born the day they were: quick)."""
        params = {"limit": limit, "offset": offset, "customer_person_uuid": str(customer_person_uuid) if customer_person_uuid else None}
        data = self.client.get("analysis", _config_path(config_uuid, "/customer-person-duplicate"), params=params)
        page = data[0] if data else {}
        return [DuplicateGroup.from_json(g) for g in page.get("elements") or ()], int(page.get("count") or 0)

    def customer_person_with_national_id(
        self, config_uuid, *, schema: str, number: str, birth_date: date | None = None
    ) -> CustomerPerson | None:
        """The config's customer person who has this national id, if any (the service checks the number
        first: a 400 naming the query field; needs the national-id role). With `birth_date`, a number of
        someone born on another day is refused as adding it to a person born then would be (extension)."""
        params = {"national_identification_schema": schema, "national_identification_number": number}
        if birth_date:
            params["check_birth_date"] = birth_date.isoformat()
        rows = self.client.get("analysis", _config_path(config_uuid, "/customer-person"), params=params)
        return CustomerPerson.from_json(rows[0]) if rows else None

    def customer_person(self, customer_person_uuid) -> CustomerPersonDetail:
        data = self.client.get("analysis", _person_path(customer_person_uuid))
        ids = data.get("customer_person_national_identifications")
        return CustomerPersonDetail(
            person=CustomerPerson.from_json(data["customer_person"]),
            national_ids=None if ids is None else tuple(national_id_from_json(i) for i in ids),
            locations=tuple(location_from_json(row) for row in data.get("customer_person_locations") or ()),
            hold=RecordsHold.from_json(data["records_hold"]) if data.get("records_hold") else None,
        )

    def create_customer_person(
        self, config_uuid, *, full_name: str, birth_date: date | None = None, gender_uuid=None, nationalities=(),
        customer_reference: str = "",
    ) -> CustomerPerson:
        """`customer_reference` (extension): the organisation's own number for the customer, at most 100
        characters; one another customer person of the config has is a 400 naming it (code `reference_taken`)."""
        body: dict = {"full_name": full_name, **self.acting_body()}
        if customer_reference:
            body["customer_reference"] = customer_reference
        if birth_date:
            body["birth_date"] = birth_date.isoformat()
        if gender_uuid:
            body["gender_uuid"] = str(gender_uuid)
        if nationalities:  # extension: countries' two letters
            body["nationalities"] = list(nationalities)
        return CustomerPerson.from_json(self.client.post("analysis", _config_path(config_uuid, "/customer-person"), json=body))

    def update_customer_person(
        self, customer_person_uuid, *, full_name=UNCHANGED, birth_date=UNCHANGED, gender_uuid=UNCHANGED,
        nationalities=UNCHANGED, customer_reference=UNCHANGED,
    ) -> CustomerPerson:
        """Correct a customer person (extension): only the fields given are sent; a birth date or gender of
        None clears it, as an empty tuple does the nationalities and "" the customer reference. The service
        screens the person again at once under every monitoring that screens them (cases raised before stay;
        a changed reference alone is not screened); a birth date that disagrees with a recorded national id
        is a 400 naming it, as is a reference another customer person of the config has (code
        `reference_taken`); another organisation's person or an unknown gender is a 404."""
        body: dict = self.acting_body()
        if full_name is not UNCHANGED:
            body["full_name"] = full_name
        if birth_date is not UNCHANGED:
            body["birth_date"] = birth_date.isoformat() if birth_date else None
        if gender_uuid is not UNCHANGED:
            body["gender_uuid"] = str(gender_uuid) if gender_uuid else None
        if nationalities is not UNCHANGED:
            body["nationalities"] = list(nationalities)
        if customer_reference is not UNCHANGED:
            body["customer_reference"] = customer_reference or ""
        return CustomerPerson.from_json(self.client.patch("analysis", _person_path(customer_person_uuid), json=body))

    def merge_customer_person(self, customer_person_uuid, duplicate_uuid, *, dry_run: bool = False) -> PersonMerge:
        """Merges a second record of the customer into this one: its reference, national ids and the addresses this
        one lacks move here, its screening stops (a 400 naming `duplicate_customer_person_uuid` when the two could be
        two people, or the customer would go unscreened). Needs the national-id role besides `aml`, except `dry_run`:
        what a merge now would move, or its refusal, writing nothing."""
        body = {"duplicate_customer_person_uuid": str(duplicate_uuid), "dry_run": dry_run, **self.acting_body()}
        return PersonMerge.from_json(self.client.post("analysis", _person_path(customer_person_uuid, "/merge"), json=body))

    def add_national_id(self, customer_person_uuid, *, schema: str, number: str) -> None:
        """Needs `person_national_identification` besides `aml`; NO, SE and DK numbers are checked."""
        self.client.post(
            "analysis",
            _person_path(customer_person_uuid, "/customer-person-national-identification"),
            json={"national_identification_schema": schema, "national_identification_number": number, **self.acting_body()},
        )

    def add_location(self, customer_person_uuid, address: PersonAddress, *, location_type_uuid=None) -> None:
        body = {
            "street_address": address.street_address,
            "postal_code": address.postal_code,
            "postal_place": address.postal_place,
            "country_code_two": address.country_code,
        }
        body = {key: value for key, value in body.items() if value} | self.acting_body()
        if location_type_uuid:
            body["person_location_type_uuid"] = str(location_type_uuid)
        self.client.post("analysis", _person_path(customer_person_uuid, "/customer-person-location"), json=body)

    def remove_national_id(self, customer_person_uuid, national_identification_uuid) -> None:
        """Remove a wrongly recorded number (extension); needs `person_national_identification` besides `aml`.
        One that is not this person's is a 404; the audit log names the member, never the number."""
        tail = f"/customer-person-national-identification/{path_segment(national_identification_uuid)}"
        self.client.delete("analysis", _person_path(customer_person_uuid, tail), params=self.acting_params())

    def remove_location(self, customer_person_uuid, location_uuid) -> None:
        """Remove an address (extension); one that is not this person's is a 404."""
        tail = f"/customer-person-location/{path_segment(location_uuid)}"
        self.client.delete("analysis", _person_path(customer_person_uuid, tail), params=self.acting_params())

    def monitor_customer_person(
        self, config_uuid, customer_person_uuid, *, monitoring_type_uuid, approve: bool, comment: str = ""
    ) -> Monitoring:
        """Put a customer person under monitoring (type `other`: no company); approved at once when `approve`,
        both as the member the client acts for."""
        membership = self.acting_app_membership_uuid
        body: dict = {
            "entity_monitoring": {
                "monitoring_customer_person_uuid": str(customer_person_uuid),
                "entity_monitoring_type_uuid": str(monitoring_type_uuid),
                "monitoring_origin_key": "user",
                "monitoring_comment": comment,
                "app_membership_uuid": membership,
            }
        }
        if approve:
            body["entity_monitoring_decision"] = {
                "approved_flag": True,
                "decision_comment": comment,
                "decision_origin_key": "user",
                "app_membership_uuid": membership,
            }
        data = self.client.post("analysis", _config_path(config_uuid, "/entity-monitoring-composite"), json=body)
        return Monitoring.from_json(data)

    def import_customer_persons(
        self, config_uuid, *, file_name: str, content: bytes, approve: bool = False, comment: str = "", dry_run: bool = False
    ) -> CustomerPersonImport:
        """A CSV file of private customers made customer persons and put under monitoring (extension), as the
        member the client acts for: approved at once when `approve`, else waiting for a decision; `comment`
        (at most 500) is each monitoring's reason, blank: the service names the file. An existing customer
        person (a recorded national id, or the same name and birth date) is put under monitoring if they are
        not, else left as they are. `dry_run`: checked whole, nothing written, what would be done. A bad row
        is a ServiceBadRequest naming each bad line and column, and nothing is written; national ids in the
        file need `person_national_identification` besides `aml` (else a ServiceForbidden)."""
        files = {"file": (file_name, content, "text/csv")}
        params = {"approved_flag": approve, "monitoring_comment": comment or None, "dry_run": dry_run, **self.acting_params()}
        data = self.client.post("analysis", _config_path(config_uuid, "/customer-person-import"), files=files, params=params,
                                timeout=IMPORT_TIMEOUT_SECONDS)
        return CustomerPersonImport.from_json(data)

    def import_job_start(
        self, config_uuid, *, file_name: str, content: bytes, approve: bool = False, comment: str = "", dry_run: bool = False
    ) -> CustomerPersonImportJob:
        """The same import of a file too large for `import_customer_persons` (up to the service's
        VAKT_IMPORT_JOB_MAX_BYTES), run in the background: the job as started (202), usually pending. Only the
        upload is refused here (no file, too large, a comment too long); whatever is wrong with the file's content
        is the job's failure, read with `import_job`."""
        files = {"file": (file_name, content, "text/csv")}
        params = {"approved_flag": approve, "monitoring_comment": comment or None, "dry_run": dry_run, **self.acting_params()}
        data = self.client.post("analysis", _config_path(config_uuid, "/customer-person-import-job"), files=files, params=params,
                                timeout=IMPORT_TIMEOUT_SECONDS)
        return CustomerPersonImportJob.from_json(data)

    def import_job(self, config_uuid, job_uuid) -> CustomerPersonImportJob:
        """An import job of the config as it is now; another organisation's or config's is a ServiceNotFound."""
        path = _config_path(config_uuid, f"/customer-person-import-job/{path_segment(job_uuid)}")
        return CustomerPersonImportJob.from_json(self.client.get("analysis", path))

    def _configs_path(self) -> str:
        return f"v1/app-customer/{path_segment(self.app_customer_uuid)}/screening-config"


def _config_path(config_uuid, tail: str = "") -> str:
    return f"v1/screening-config/{path_segment(config_uuid)}{tail}"


def _person_path(customer_person_uuid, tail: str = "") -> str:
    return f"v1/customer-person/{path_segment(customer_person_uuid)}{tail}"
