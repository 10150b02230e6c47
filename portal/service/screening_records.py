"""The monitoring side of the screening area's answers: who is monitored and why, decisions,
customer persons (portal.service.screening reads and writes them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from uuid import UUID

from portal.service.common import CompanyRef, day, decimal_or_none, moment, uuid_or_none
from portal.service.holds import RecordsHold, kept_years
from vakt_format.national_ids import national_id_masked


@dataclass(frozen=True, slots=True)
class ChainLink:
    holder_name: str
    holder_kind: str  # person or company
    company_name: str
    share: Decimal


@dataclass(frozen=True, slots=True)
class SuggestedPerson:
    """Why the setting names a person for a company: roles, effective share, chains (person first)."""

    person_uuid: UUID
    full_name: str
    type_key: str
    role_keys: tuple[str, ...]
    effective_share: Decimal | None
    chains: tuple[tuple[ChainLink, ...], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Decision:
    uuid: UUID
    approved: bool
    origin_key: str
    comment: str
    app_membership_uuid: UUID | None
    decided_at: datetime | None


@dataclass(frozen=True, slots=True)
class ListScreening:
    """The evidence of screening for one list: the version last screened against, and when."""

    category_key: str
    category_name: str
    version_number: int
    version_imported_at: datetime | None
    screened_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> ListScreening:
        return cls(
            category_key=data["screening_list_category_key"],
            category_name=data.get("screening_list_category_name") or data["screening_list_category_key"],
            version_number=int(data["list_version_number"]),
            version_imported_at=moment(data.get("list_version_imported_timestamp")),
            screened_at=moment(data.get("screened_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class Monitoring:
    """An entity monitoring with its status and decisions (newest first)."""

    uuid: UUID
    config_uuid: UUID
    entity_key: str  # person, customer_person or company
    entity_uuid: UUID
    entity_name: str
    person_uuid: UUID | None
    customer_person_uuid: UUID | None
    customer_reference: str  # a customer person's (the organisation's number for them); "" otherwise
    type_key: str
    origin_key: str
    comment: str  # why it is monitored (for suggestions: the ownership chain)
    related_company: CompanyRef | None
    status_key: str  # pending, active, declined, removed
    removed_at: datetime | None
    removal_reason: str
    created_at: datetime | None
    decisions: tuple[Decision, ...]
    app_url: str | None
    screened_against: tuple[ListScreening, ...] = ()  # by list key

    @property
    def last_screened_at(self) -> datetime | None:
        return max((s.screened_at for s in self.screened_against if s.screened_at), default=None)

    @classmethod
    def from_json(cls, data: dict) -> Monitoring:
        m = data["entity_monitoring"]
        company = m.get("related_company")
        return cls(
            uuid=UUID(str(m["uuid"])),
            config_uuid=UUID(str(m["screening_config_uuid"])),
            entity_key=m.get("monitoring_entity_key") or "",
            entity_uuid=UUID(str(m["monitoring_entity_uuid"])),
            entity_name=m.get("monitoring_entity_name") or "",
            person_uuid=uuid_or_none(m.get("monitoring_person_uuid")),
            customer_person_uuid=uuid_or_none(m.get("monitoring_customer_person_uuid")),
            customer_reference=m.get("monitoring_customer_reference") or "",
            type_key=m.get("entity_monitoring_type_key") or "",
            origin_key=m.get("monitoring_origin_key") or "",
            comment=m.get("monitoring_comment") or "",
            related_company=CompanyRef.from_json(company) if company else None,
            status_key=data["entity_monitoring_status"]["entity_monitoring_status_key"],
            removed_at=moment(m.get("removed_timestamp")),
            removal_reason=m.get("removal_reason") or "",
            created_at=moment(m.get("create_timestamp")),
            decisions=tuple(
                Decision(
                    uuid=UUID(str(d["uuid"])),
                    approved=bool(d["approved_flag"]),
                    origin_key=d.get("decision_origin_key") or "",
                    comment=d.get("decision_comment") or "",
                    app_membership_uuid=uuid_or_none(d.get("app_membership_uuid")),
                    decided_at=moment(d.get("decision_timestamp")),
                )
                for d in data.get("entity_monitoring_decision") or ()
            ),
            app_url=m.get("app_url"),
            screened_against=tuple(ListScreening.from_json(e) for e in m.get("screened_against") or ()),
        )


@dataclass(frozen=True, slots=True)
class MonitoringPage:
    rows: tuple[Monitoring, ...]
    has_more: bool  # rule 6: a full page means there may be more


@dataclass(frozen=True, slots=True)
class CustomerPerson:
    uuid: UUID
    config_uuid: UUID
    full_name: str
    birth_date: date | None
    gender_key: str | None
    created_at: datetime | None
    app_url: str | None
    nationalities: tuple[str, ...] = ()  # upper-case ISO codes (extension), weighed by screening
    monitoring_status_key: str | None = None  # pending, active, declined, removed (not in a create's answer)
    # When its last monitoring was removed (added, if never monitored), and when the service
    # deletes it with its screening records for that (None while monitored).
    relationship_ended_at: datetime | None = None
    retained_until: datetime | None = None
    records_held: bool = False  # a legal hold keeps it past retained_until
    customer_reference: str = ""  # the organisation's own number for the customer (extension); "" when none
    merged_into_uuid: UUID | None = None  # the record this second record of the customer was merged into (extension)
    merged_at: datetime | None = None

    @property
    def name_and_reference(self) -> str:
        """ "Kari Nordmann (K-10041)": tells two records of one name apart."""
        return f"{self.full_name} ({self.customer_reference})" if self.customer_reference else self.full_name

    @property
    def kept_years(self) -> int | None:
        """How many years after the relationship ended the service keeps the person."""
        return kept_years(self.relationship_ended_at, self.retained_until)

    @classmethod
    def from_json(cls, data: dict) -> CustomerPerson:
        return cls(
            uuid=UUID(str(data["uuid"])),
            config_uuid=UUID(str(data["screening_config_uuid"])),
            full_name=data.get("full_name") or "",
            birth_date=day(data.get("birth_date")),
            gender_key=data.get("gender_key"),
            created_at=moment(data.get("create_timestamp")),
            app_url=data.get("app_url"),
            nationalities=tuple(code.upper() for code in data.get("nationalities") or ()),
            monitoring_status_key=data.get("monitoring_status_key"),
            relationship_ended_at=moment(data.get("relationship_ended_timestamp")),
            retained_until=moment(data.get("retained_until")),
            records_held=bool(data.get("records_held_flag")),
            customer_reference=data.get("customer_reference") or "",
            merged_into_uuid=UUID(str(data["merged_into_customer_person_uuid"])) if data.get("merged_into_customer_person_uuid") else None,
            merged_at=moment(data.get("merged_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class NationalId:
    uuid: UUID  # what a removal names
    schema: str
    number: str

    @property
    def masked(self) -> str:
        """The schema and the number's birth-date digits, the rest hidden: for a message that should
        not repeat the whole number."""
        return national_id_masked(self.schema, self.number)


@dataclass(frozen=True, slots=True)
class PersonLocation:
    uuid: UUID  # what a removal names
    street_address: str
    postal_code: str
    postal_place: str
    country_code: str

    @property
    def one_line(self) -> str:
        place = " ".join(p for p in (self.postal_code, self.postal_place) if p)
        return ", ".join(p for p in (self.street_address, place, self.country_code) if p)

    @property
    def address(self) -> PersonAddress:
        """The address alone, as a form sends it: to tell whether the person already has one."""
        return PersonAddress(self.street_address, self.postal_code, self.postal_place, self.country_code)


@dataclass(frozen=True, slots=True)
class CustomerPersonDetail:
    person: CustomerPerson
    national_ids: tuple[NationalId, ...] | None  # None: the caller's role may not read them
    locations: tuple[PersonLocation, ...]
    hold: RecordsHold | None = None  # the legal hold in force on the person's records


@dataclass(frozen=True, slots=True)
class DuplicateGroup:
    """Customer persons of one birth date and one name, or a name written two ways (`similar_names`), or of one
    name and a birth date typed two ways (`similar_birth_dates`), not told apart by their references: possibly
    one customer."""

    full_name: str  # the oldest record's
    birth_date: date | None  # the oldest record's
    persons: tuple[CustomerPerson, ...]  # oldest first
    match_key: str = "same_name"

    @property
    def similar_names(self) -> bool:
        return self.match_key == "similar_name"

    @property
    def similar_birth_dates(self) -> bool:
        return self.match_key == "similar_birth_date"

    @classmethod
    def from_json(cls, data: dict) -> DuplicateGroup:
        return cls(data.get("full_name") or "", day(data.get("birth_date")),
                   tuple(CustomerPerson.from_json(p) for p in data.get("customer_persons") or ()),
                   match_key=data.get("match_key") or "same_name")


@dataclass(frozen=True, slots=True)
class PersonMerge:
    """What merging a second record of a customer into the record kept moves there (or would: a dry run)."""

    customer_reference: str | None
    national_ids: tuple[NationalId, ...] | None  # None: the caller's role may not read them
    locations: tuple[PersonLocation, ...]
    nationalities: tuple[str, ...]
    gender_key: str | None

    @classmethod
    def from_json(cls, data: dict) -> PersonMerge:
        ids = data.get("national_identifications_moved")
        return cls(
            customer_reference=data.get("customer_reference_moved"),
            national_ids=None if ids is None else tuple(national_id_from_json(i) for i in ids),
            locations=tuple(location_from_json(row) for row in data.get("locations_moved") or ()),
            nationalities=tuple(data.get("nationalities_added") or ()),
            gender_key=data.get("gender_added_key"),
        )


def national_id_from_json(data: dict) -> NationalId:
    return NationalId(UUID(str(data["uuid"])), data["national_identification_schema"], data["national_identification_number"])


def location_from_json(data: dict) -> PersonLocation:
    return PersonLocation(UUID(str(data["uuid"])), data["street_address"], data["postal_code"], data["postal_place"],
                          data["country_code_two"])


@dataclass(frozen=True, slots=True)
class PersonAddress:
    """What the dashboard's form sends as a location; empty parts are left out."""

    street_address: str = ""
    postal_code: str = ""
    postal_place: str = ""
    country_code: str = ""

    @property
    def given(self) -> bool:
        return any((self.street_address, self.postal_code, self.postal_place, self.country_code))


def suggested_from_json(p: dict) -> SuggestedPerson:
    return SuggestedPerson(
        person_uuid=UUID(str(p["person_uuid"])),
        full_name=p.get("full_name") or "",
        type_key=p.get("entity_monitoring_type_key") or "",
        role_keys=tuple(p.get("company_role_type_keys") or ()),
        effective_share=decimal_or_none(p.get("effective_share")),
        chains=tuple(
            tuple(ChainLink(l["holder_name"], l["holder_kind"], l["company_name"], Decimal(str(l["share"]))) for l in chain)
            for chain in p.get("chains") or ()
        ),
        reason=p.get("reason") or "",
    )
