"""Roles in a company: board, management, signatories, shareholders, auditor (spec §4.2 `company-role`)."""

from __future__ import annotations

from datetime import date
from uuid import UUID

from ninja import Field, Schema

from service.companies import models as m
from service.companies.references import CompanyRef, company_part_url, company_ref, number


class CompanyRoleOut(Schema):
    uuid: UUID
    company_uuid: UUID
    company_role_type_uuid: UUID
    holder_person_uuid: UUID | None
    holder_company_uuid: UUID | None
    share_percentage: float | None = Field(description="Ownership share in percent, for shareholders")
    from_date: date | None
    to_date: date | None
    active_flag: bool = Field(description="True while the role holds today: from_date null or not in the future, to_date null or in the future")
    app_url: str | None


class CompanyRoleTypeOut(Schema):
    uuid: UUID
    company_role_type_key: str = Field(
        description="board_chair, board_member, deputy_board_member, ceo, signature_right, procuration, "
        "shareholder or auditor"
    )
    description: str


class PersonOut(Schema):
    uuid: UUID
    full_name: str
    first_name: str
    last_name: str
    birth_date: date | None
    nationality: str = Field(description="ISO 3166-1 alpha-2, lower case, or empty")
    gender: str
    national_identification_number: str | None = Field(
        description="Only with the person_national_identification role; null otherwise"
    )
    national_identification_schema: str | None = Field(
        description="Only with the person_national_identification role; null otherwise"
    )
    app_url: str | None


class CompanyRoleComposite(Schema):
    uuid: UUID = Field(description="The role's uuid")
    company_role: CompanyRoleOut
    company_role_type: CompanyRoleTypeOut
    person: PersonOut | None = Field(description="The holder when a person holds the role")
    holder_company: CompanyRef | None = Field(description="The holder when a company holds the role")
    company: CompanyRef


def company_role_composite_out(role: m.CompanyRole, company: m.Company, *, with_national_id: bool, today: date) -> dict:
    person = role.holder_person
    holder = role.holder_company
    return {
        "uuid": role.uuid,
        "company_role": {
            "uuid": role.uuid,
            "company_uuid": role.company_id,
            "company_role_type_uuid": role.company_role_type_id,
            "holder_person_uuid": role.holder_person_id,
            "holder_company_uuid": role.holder_company_id,
            "share_percentage": number(role.share_percentage),
            "from_date": role.from_date,
            "to_date": role.to_date,
            "active_flag": role.current_on(today),
            "app_url": company_part_url(company.uuid, "roles"),
        },
        "company_role_type": {
            "uuid": role.company_role_type.uuid,
            "company_role_type_key": role.company_role_type.key,
            "description": role.company_role_type.description,
        },
        "person": None
        if person is None
        else {
            "uuid": person.uuid,
            "full_name": person.full_name,
            "first_name": person.first_name,
            "last_name": person.last_name,
            "birth_date": person.birth_date,
            "nationality": person.nationality,
            "gender": person.gender,
            "national_identification_number": (person.national_identification_number or None)
            if with_national_id
            else None,
            "national_identification_schema": (person.national_identification_schema or None)
            if with_national_id
            else None,
            "app_url": None,
        },
        "holder_company": company_ref(holder) if holder is not None else None,
        "company": company_ref(company),
    }
