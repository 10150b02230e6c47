"""Reference keys an Enhetsregisteret row points at, cached in dicts for the whole import.

NACE codes, organisation forms and municipalities are read once (a few thousand rows);
codes missing from them are reported, never created. Postal codes and countries are
created the first time a row uses them, in the batch's transaction: postal code
`NO-<postnummer>` tied to the municipality of the address it came with.
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
class EnhetReferences:
    nace: dict[str, uuid.UUID]  # code (62.010) -> uuid
    organization_types: dict[str, uuid.UUID]  # code (AS) -> uuid
    municipalities: dict[str, uuid.UUID]  # code (0301) -> uuid
    countries: dict[str, uuid.UUID]  # ISO code -> uuid
    postal_codes: dict[str, uuid.UUID]  # key (NO-0151) -> uuid
    pending_postal_codes: dict[str, PendingPostalCode] = field(default_factory=dict)
    pending_countries: dict[str, str] = field(default_factory=dict)  # ISO code -> name

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
        if key not in self.postal_codes and key not in self.pending_postal_codes:
            self.pending_postal_codes[key] = PendingPostalCode(code, place_name[:100], municipality_uuid)
        return key

    def country_key(self, *, code: str, name: str) -> str:
        if code not in self.countries and code not in self.pending_countries:
            self.pending_countries[code] = name[:100] or code
        return code

    def pending_create(self) -> None:
        """Create the postal codes and countries rows asked for since the last call."""
        if self.pending_countries:
            GeoCountry.objects.bulk_create(
                [GeoCountry(key=code, name=name) for code, name in self.pending_countries.items()], ignore_conflicts=True
            )
            self.countries.update(GeoCountry.objects.filter(key__in=self.pending_countries).values_list("key", "uuid"))
            self.pending_countries.clear()
        if self.pending_postal_codes:
            norway = self.countries["NO"]
            GeoPostalCode.objects.bulk_create(
                [
                    GeoPostalCode(
                        key=key,
                        country_id=norway,
                        municipality_id=pending.municipality_uuid,
                        code=pending.code,
                        place_name=pending.place_name,
                    )
                    for key, pending in self.pending_postal_codes.items()
                ],
                ignore_conflicts=True,
            )
            # Read back: with ignore_conflicts a row created meanwhile by another import keeps its own uuid.
            self.postal_codes.update(
                GeoPostalCode.objects.filter(key__in=self.pending_postal_codes).values_list("key", "uuid")
            )
            self.pending_postal_codes.clear()
