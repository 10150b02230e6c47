"""Reads of customer persons, scoped to the calling organisation (through their config)."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from service.screening.access import not_found
from service.screening.models import CustomerPerson, Gender, PersonLocationType, ScreeningConfig
from service.companies.models import GeoCountry


def customer_persons_list(*, config: ScreeningConfig) -> QuerySet[CustomerPerson]:
    return CustomerPerson.objects.filter(screening_config=config).select_related("gender").order_by("full_name", "uuid")


def customer_person_get(*, app_customer_uuid: uuid.UUID, customer_person_uuid: uuid.UUID) -> CustomerPerson:
    person = (
        CustomerPerson.objects.filter(uuid=customer_person_uuid, screening_config__app_customer_id=app_customer_uuid)
        .select_related("gender")
        .first()
    )
    if person is None:
        raise not_found("customer person", customer_person_uuid)
    return person


def gender_get(*, gender_uuid: uuid.UUID, loc: list) -> Gender:
    gender = Gender.objects.filter(uuid=gender_uuid).first()
    if gender is None:
        raise not_found("gender", gender_uuid, loc)
    return gender


def location_type_get(*, location_type_uuid: uuid.UUID, loc: list) -> PersonLocationType:
    location_type = PersonLocationType.objects.filter(uuid=location_type_uuid).first()
    if location_type is None:
        raise not_found("person location type", location_type_uuid, loc)
    return location_type


def geo_country_get(*, geo_country_uuid: uuid.UUID, loc: list) -> GeoCountry:
    country = GeoCountry.objects.filter(uuid=geo_country_uuid).first()
    if country is None:
        raise not_found("geo country", geo_country_uuid, loc)
    return country
