"""Reference keys an Enhetsregisteret row points at, cached in dicts for the whole import.

NACE codes, organisation forms and municipalities are read once (a few thousand rows);
codes missing from them are reported, never created. Postal codes and countries are
created the first time a row uses them, in the batch's transaction: postal code
`NO-<postnummer>` tied to the municipality of the address it came with.

Mapping only schedules new postal codes and countries (`scheduled_*`, `pending_take`);
the batch writer creates them and fills in their uuids. This is the row-by-row path;
the set-based one (set_based.py) joins the reference tables in SQL instead.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from service.companies.models import GeoCountry, GeoMunicipality, GeoPostalCode, NaceCode, OrganizationType

# The register's own "not given" NACE code: no code, and nothing to warn about.
NACE_UNSPECIFIED = "00.000"


@dataclass
class PendingPostalCode:
    code: str
    place_name: str
    municipality_uuid: uuid.UUID | None


@dataclass
class PendingReferences:
    postal_codes: dict[str, PendingPostalCode] = field(default_factory=dict)
    countries: dict[str, str] = field(default_factory=dict)  # ISO code -> name


@dataclass
class EnhetReferences:
    nace: dict[str, uuid.UUID]  # code (62.010) -> uuid
    organization_types: dict[str, uuid.UUID]  # code (AS) -> uuid
    municipalities: dict[str, uuid.UUID]  # code (0301) -> uuid
    countries: dict[str, uuid.UUID]  # ISO code -> uuid
    postal_codes: dict[str, uuid.UUID]  # key (NO-0151) -> uuid
    pending: PendingReferences = field(default_factory=PendingReferences)
    scheduled_postal_codes: set[str] = field(default_factory=set)
    scheduled_countries: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.scheduled_postal_codes.update(self.postal_codes)
        self.scheduled_countries.update(self.countries)

    @classmethod
    def load(cls) -> EnhetReferences:
        return cls(
            nace={key[3:]: pk for key, pk in NaceCode.objects.filter(key__startswith="NO-").values_list("key", "uuid")},
            organization_types={
                key[3:]: pk for key, pk in OrganizationType.objects.filter(key__startswith="NO-").values_list("key", "uuid")
            },
            municipalities={
                key[3:]: pk for key, pk in GeoMunicipality.objects.filter(key__startswith="NO-").values_list("key", "uuid")
            },
            countries=dict(GeoCountry.objects.values_list("key", "uuid")),
            postal_codes=dict(GeoPostalCode.objects.filter(key__startswith="NO-").values_list("key", "uuid")),
        )

    def postal_code_key(self, *, code: str, place_name: str, municipality_uuid: uuid.UUID | None) -> str:
        """The key of a Norwegian postal code, scheduled for creation when it is new."""
        key = f"NO-{code}"
        if key not in self.scheduled_postal_codes:
            self.scheduled_postal_codes.add(key)
            self.pending.postal_codes[key] = PendingPostalCode(code, place_name[:100], municipality_uuid)
        return key

    def country_key(self, *, code: str, name: str) -> str:
        if code not in self.scheduled_countries:
            self.scheduled_countries.add(code)
            self.pending.countries[code] = name[:100] or code
        return code

    def pending_take(self) -> PendingReferences:
        """What rows since the last call need created (reading side)."""
        pending, self.pending = self.pending, PendingReferences()
        return pending

    def pending_create(self, pending: PendingReferences) -> None:
        """Create those postal code and country rows and learn their uuids (writing side)."""
        if pending.countries:
            GeoCountry.objects.bulk_create(
                [GeoCountry(key=code, name=name) for code, name in pending.countries.items()], ignore_conflicts=True
            )
            self.countries.update(GeoCountry.objects.filter(key__in=pending.countries).values_list("key", "uuid"))
        if pending.postal_codes:
            norway = self.countries["NO"]
            GeoPostalCode.objects.bulk_create(
                [
                    GeoPostalCode(
                        key=key,
                        country_id=norway,
                        municipality_id=new.municipality_uuid,
                        code=new.code,
                        place_name=new.place_name,
                    )
                    for key, new in pending.postal_codes.items()
                ],
                ignore_conflicts=True,
            )
            # Read back: with ignore_conflicts a row created meanwhile by another import keeps its own uuid.
            self.postal_codes.update(
                GeoPostalCode.objects.filter(key__in=pending.postal_codes).values_list("key", "uuid")
            )
