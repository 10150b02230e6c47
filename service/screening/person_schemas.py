"""In/Out shapes of customer persons, their national ids and locations (spec §2.8)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Literal

from ninja import Field, Schema

from service.screening.access import screening_app_url
from service.screening.hold_schemas import RecordsHoldOut, records_hold_out
from service.screening.hold_selectors import records_holds_list
from service.screening.records_retention import retained_until
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX


class CustomerPersonIn(Schema):
    full_name: str = Field(..., max_length=300)
    birth_date: date | None = Field(None, description="YYYY-MM-DD; not in the future")
    screening_config_uuid: uuid.UUID | None = Field(None, description="When sent, must be the path's config")
    gender_uuid: uuid.UUID | None = None
    nationalities: list[str] | None = Field(
        None,
        description=(
            "Extension: the person's nationalities, countries' two letters (ISO 3166-1 alpha-2, e.g. NO), at most 10; "
            "screening weighs them against a listed person's as a name check's nationality does"
        ),
        json_schema_extra={"x-vakt-extension": True},
    )
    customer_reference: str | None = Field(
        None,
        max_length=CUSTOMER_REFERENCE_MAX,
        description=(
            "Extension: your own number for the customer (your core system's), at most 100 characters, spaces trimmed; "
            "one customer person of the config each (another's is a 400, code reference_taken)"
        ),
        json_schema_extra={"x-vakt-extension": True},
    )
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class CustomerPersonPatch(Schema):
    """Only the fields sent change; a null birth date or gender clears it."""

    full_name: str | None = Field(None, max_length=300)
    birth_date: date | None = Field(None, description="YYYY-MM-DD; not in the future; null clears it")
    gender_uuid: uuid.UUID | None = Field(None, description="null clears it")
    nationalities: list[str] | None = Field(
        None,
        description=(
            "Extension: the person's nationalities, countries' two letters (ISO 3166-1 alpha-2, e.g. NO), at most 10; an empty list or null clears them; "
            "screening weighs them against a listed person's as a name check's nationality does"
        ),
        json_schema_extra={"x-vakt-extension": True},
    )
    customer_reference: str | None = Field(
        None,
        max_length=CUSTOMER_REFERENCE_MAX,
        description=(
            "Extension: your own number for the customer (your core system's), at most 100 characters, spaces trimmed; \"\" clears it; "
            "one customer person of the config each (another's is a 400, code reference_taken)"
        ),
        json_schema_extra={"x-vakt-extension": True},
    )
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class CustomerPersonOut(Schema):
    uuid: uuid.UUID
    screening_config_uuid: uuid.UUID
    full_name: str
    birth_date: date | None
    gender_uuid: uuid.UUID | None
    gender_key: str | None = Field(description="Extension: the gender's key")
    nationalities: list[str] = Field(
        description="Extension: the person's nationalities, upper case (ISO 3166-1 alpha-2); empty when not known",
        json_schema_extra={"x-vakt-extension": True},
    )
    customer_reference: str = Field(
        description="Extension: your own number for the customer; empty when none",
        json_schema_extra={"x-vakt-extension": True},
    )
    merged_into_customer_person_uuid: uuid.UUID | None = Field(
        description="Extension: the record this second record of the customer was merged into (customer-person merge); "
                    "null when not merged. A merged record is never screened again",
        json_schema_extra={"x-vakt-extension": True},
    )
    merged_timestamp: datetime | None = Field(
        description="Extension: when it was merged", json_schema_extra={"x-vakt-extension": True}
    )
    create_timestamp: datetime
    app_url: str | None


class CustomerPersonListed(CustomerPersonOut):
    monitoring_status_key: str | None = Field(
        description=(
            "Extension: pending, active (screened), declined or removed: the person's monitoring not removed, "
            "else the newest removed one; null when never monitored"
        )
    )
    relationship_ended_timestamp: datetime | None = Field(
        description=(
            "Extension: when the person's last monitoring was removed (when it was added, if it was never monitored); "
            "null while a monitoring is not removed"
        )
    )
    retained_until: datetime | None = Field(
        description=(
            "Extension: when the person and its screening records (monitorings, cases, reviews) are deleted: "
            "the config's retention period (effective_records_retention_years: 5 as the AML acts ask, unless set) after "
            "relationship_ended_timestamp, "
            "by a daily task; null while a monitoring is not removed (pending and declined ones too) and while a "
            "hold keeps the records"
        )
    )
    records_held_flag: bool = Field(
        description="Extension: a legal hold in force keeps the person's records past the retention period (records-hold)"
    )


def customer_person_listed_out(person) -> dict:
    """Of a person read with `person_selectors` (annotated with its monitoring's status and end)."""
    return {
        **customer_person_out(person),
        "monitoring_status_key": person.monitoring_status_key,
        "relationship_ended_timestamp": person.relationship_ended,
        "retained_until": retained_until(person.relationship_ended, years=person.screening_config.records_retention_years,
                                         held=person.records_held),
        "records_held_flag": person.records_held,
    }


def customer_person_out(person) -> dict:
    return {
        "uuid": person.uuid,
        "screening_config_uuid": person.screening_config_id,
        "full_name": person.full_name,
        "birth_date": person.birth_date,
        "gender_uuid": person.gender_id,
        "gender_key": person.gender.key if person.gender else None,
        "nationalities": list(person.nationalities),
        "customer_reference": person.customer_reference,
        "merged_into_customer_person_uuid": person.merged_into_id,
        "merged_timestamp": person.merged_timestamp,
        "create_timestamp": person.create_timestamp,
        "app_url": screening_app_url(f"/screening/customer-persons/{person.uuid}/"),
    }


class NationalIdIn(Schema):
    customer_person_uuid: uuid.UUID | None = Field(None, description="When sent, must be the path's person")
    national_identification_schema: str = Field(..., description="NO, SE or DK")
    national_identification_number: str = Field(..., max_length=40)
    geo_country_uuid: uuid.UUID | None = Field(None, description="Default: the schema's country")
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class NationalIdOut(Schema):
    uuid: uuid.UUID
    customer_person_uuid: uuid.UUID
    national_identification_schema: str
    national_identification_number: str
    geo_country_uuid: uuid.UUID | None
    create_timestamp: datetime


def national_id_out(row) -> dict:
    return {
        "uuid": row.uuid,
        "customer_person_uuid": row.customer_person_id,
        "national_identification_schema": row.national_identification_schema,
        "national_identification_number": row.national_identification_number,
        "geo_country_uuid": row.geo_country_id,
        "create_timestamp": row.create_timestamp,
    }


class LocationIn(Schema):
    customer_person_uuid: uuid.UUID | None = Field(None, description="When sent, must be the path's person")
    person_location_type_uuid: uuid.UUID | None = None
    geo_location_uuid: uuid.UUID | None = None
    street_address: str | None = Field(None, max_length=300)
    postal_code: str | None = Field(None, max_length=20)
    postal_place: str | None = Field(None, max_length=100)
    municipality_code: str | None = Field(None, max_length=10)
    municipality_name: str | None = Field(None, max_length=100)
    country_code_two: str | None = Field(None, max_length=2)
    country_name: str | None = Field(None, max_length=100)
    street_name: str | None = Field(None, max_length=200)
    street_number: str | None = Field(None, max_length=20)
    street_letter: str | None = Field(None, max_length=10)
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who makes the change (the dashboard sends its user), for the audit log"
    )


class LocationOut(Schema):
    uuid: uuid.UUID
    customer_person_uuid: uuid.UUID
    person_location_type_uuid: uuid.UUID | None
    geo_location_uuid: uuid.UUID | None
    street_address: str
    postal_code: str
    postal_place: str
    municipality_code: str
    municipality_name: str
    country_code_two: str
    country_name: str
    street_name: str
    street_number: str
    street_letter: str
    create_timestamp: datetime


def location_out(row) -> dict:
    return {name: getattr(row, name) for name in LocationOut.model_fields if not name.endswith("_uuid")} | {
        "uuid": row.uuid,
        "customer_person_uuid": row.customer_person_id,
        "person_location_type_uuid": row.person_location_type_id,
        "geo_location_uuid": row.geo_location_uuid,
    }


class CustomerPersonComposite(Schema):
    customer_person: CustomerPersonListed
    customer_person_national_identifications: list[NationalIdOut] | None = Field(
        description="Only with the person_national_identification role; null without it"
    )
    customer_person_locations: list[LocationOut]
    records_hold: RecordsHoldOut | None = Field(description="Extension: the legal hold in force on the person's records")


def customer_person_composite_out(person, *, with_national_ids: bool) -> dict:
    ids = None
    if with_national_ids:
        ids = [national_id_out(row) for row in person.national_identifications.order_by("create_timestamp", "uuid")]
    return {
        "customer_person": customer_person_listed_out(person),
        "customer_person_national_identifications": ids,
        "customer_person_locations": [location_out(row) for row in person.locations.order_by("create_timestamp", "uuid")],
        "records_hold": _hold_in_force(person),
    }


def _hold_in_force(person) -> dict | None:
    if not person.records_held:
        return None
    hold = records_holds_list(config=person.screening_config, entity_key="customer_person", entity_uuid=person.uuid,
                              in_force=True).first()
    return records_hold_out(hold) if hold else None


class CustomerPersonMergeIn(Schema):
    duplicate_customer_person_uuid: uuid.UUID = Field(
        ..., description="The second record of the customer, merged into the path's record (of the same config, name and birth date)"
    )
    dry_run: bool = Field(
        False, description="Answer what a merge now would do (or its refusal), writing nothing; needs only `aml`, and without "
                           "`person_national_identification` says nothing of national ids"
    )
    app_membership_uuid: uuid.UUID | None = Field(
        None, description="Extension: the member who merges (the dashboard sends its user), for the audit log"
    )


class CustomerPersonMergeOut(Schema):
    dry_run_flag: bool
    customer_person: CustomerPersonOut = Field(description="The record kept, with what moved to it")
    duplicate_customer_person: CustomerPersonOut = Field(description="The merged record: no longer screened")
    customer_reference_moved: str | None = Field(description="The duplicate's reference, now the record kept's; null when none moved")
    national_identifications_moved: list[NationalIdOut] | None = Field(
        description="The duplicate's national ids, now the record kept's; null in a dry run without the person_national_identification role"
    )
    locations_moved: list[LocationOut] = Field(description="The addresses the record kept lacked, now its own")
    nationalities_added: list[str]
    gender_added_key: str | None = Field(description="The duplicate's gender, given to the record kept, which had none")
    removed_entity_monitoring_uuid: uuid.UUID | None = Field(
        description="The duplicate's monitoring removed by the merge; null when it had none"
    )


def customer_person_merge_out(result, *, dry_run: bool, with_national_ids: bool) -> dict:
    return {
        "dry_run_flag": dry_run,
        "customer_person": customer_person_out(result.kept),
        "duplicate_customer_person": customer_person_out(result.duplicate),
        "customer_reference_moved": result.customer_reference_moved,
        "national_identifications_moved": [national_id_out(row) for row in result.national_ids_moved] if with_national_ids else None,
        "locations_moved": [location_out(row) for row in result.locations_moved],
        "nationalities_added": result.nationalities_added,
        "gender_added_key": result.gender_added.key if result.gender_added else None,
        "removed_entity_monitoring_uuid": result.removed_monitoring.uuid if result.removed_monitoring else None,
    }


class CustomerPersonDuplicateGroup(Schema):
    match_key: Literal["same_name", "similar_name", "similar_birth_date"] = Field(
        description="same_name: the names differ at most in case and spaces; similar_name: one birth date, the names "
        "written two ways (correct the misspelt one before a merge); similar_birth_date: one name, the birth date "
        "typed two ways (correct the mistyped one before a merge)")
    full_name: str = Field(description="The oldest record's name")
    birth_date: date | None = Field(description="The oldest record's birth date")
    customer_persons: list[CustomerPersonListed] = Field(description="Oldest first")


class CustomerPersonDuplicateCollection(Schema):
    elements: list[CustomerPersonDuplicateGroup]
    count: int
    has_more: bool
