"""The reference rows demo companies point at, imported first when the tables are empty.

From ../shared/data/brreg when it is there (the real NACE tree, municipalities and
organisation forms), else from a small built-in set so the demo works anywhere.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction

from service.companies import models as m
from service.companies.importers.geo import geo_country_norway, geo_import
from service.companies.importers.nace import nace_import
from service.companies.importers.organization_types import organization_types_import

SHARED_BRREG = Path(settings.BASE_DIR).parent / "shared" / "data" / "brreg"
# Sections weighted by how common they are among Norwegian companies.
SECTION_WEIGHTS = {"A": 6, "C": 5, "F": 14, "G": 15, "H": 4, "I": 4, "J": 6, "K": 2, "L": 14, "M": 12, "N": 5, "P": 1, "Q": 5, "R": 3, "S": 4}
BIG_MUNICIPALITIES = {"0301": 30, "4601": 12, "5001": 10, "1103": 8, "3201": 6, "1108": 4, "5501": 4, "4204": 4, "3107": 3}
ORGANIZATION_TYPE_WEIGHTS = {"AS": 55, "ENK": 22, "FLI": 7, "ANS": 3, "DA": 2, "NUF": 3, "SA": 2, "STI": 2, "BRL": 3, "ASA": 0.5}

_BUILT_IN_NACE = [
    ("F", "Bygge- og anleggsvirksomhet"), ("F.41", "Oppføring av bygninger"), ("F.41.2", "Oppføring av bygninger"),
    ("F.41.2.0", "Oppføring av bygninger"), ("F.41.2.0.0", "Oppføring av bygninger"),
    ("G", "Varehandel"), ("G.47", "Detaljhandel"), ("G.47.1", "Butikkhandel med bredt vareutvalg"),
    ("G.47.1.1", "Butikkhandel med bredt vareutvalg med hovedvekt på nærings- og nytelsesmidler"),
    ("G.47.1.1.1", "Butikkhandel med bredt vareutvalg med hovedvekt på nærings- og nytelsesmidler"),
    ("J", "Informasjon og kommunikasjon"), ("J.62", "Tjenester tilknyttet informasjonsteknologi"),
    ("J.62.0", "Tjenester tilknyttet informasjonsteknologi"), ("J.62.0.1", "Programmeringstjenester"),
    ("J.62.0.1.0", "Programmeringstjenester"),
    ("L", "Omsetning og drift av fast eiendom"), ("L.68", "Omsetning og drift av fast eiendom"),
    ("L.68.2", "Utleie av egen eller leid fast eiendom"), ("L.68.2.0", "Utleie av egen eller leid fast eiendom"),
    ("L.68.2.0.9", "Annen utleie av egen eller leid fast eiendom"),
    ("M", "Faglig, vitenskapelig og teknisk tjenesteyting"), ("M.70", "Hovedkontortjenester og rådgivning"),
    ("M.70.2", "Konsulentvirksomhet"), ("M.70.2.2", "Bedriftsrådgivning"), ("M.70.2.2.0", "Bedriftsrådgivning"),
]
_BUILT_IN_GEO = [("03", "Oslo"), ("03.01", "Oslo"), ("46", "Vestland"), ("46.01", "Bergen"), ("50", "Trøndelag"), ("50.01", "Trondheim"), ("11", "Rogaland"), ("11.03", "Stavanger")]
_BUILT_IN_ORGANIZATION_TYPES = [("AS", "Aksjeselskap"), ("ASA", "Allmennaksjeselskap"), ("ENK", "Enkeltpersonforetak"), ("NUF", "Norskregistrert utenlandsk foretak"), ("DA", "Selskap med delt ansvar"), ("ANS", "Ansvarlig selskap"), ("SA", "Samvirkeforetak"), ("FLI", "Forening/lag/innretning"), ("STI", "Stiftelse"), ("BRL", "Borettslag")]


@dataclass
class DemoReferences:
    nace: dict[str, list[tuple[uuid.UUID, str, str]]]  # section -> [(uuid, code, name)] of subclasses
    section_weights: dict[str, float]
    municipalities: list[tuple[uuid.UUID, str, str]]  # (uuid, code, name)
    municipality_weights: list[float]
    postal_codes: dict[uuid.UUID, list[tuple[uuid.UUID, str, str]]]  # municipality -> [(uuid, code, place)]
    organization_types: dict[str, uuid.UUID]
    organization_type_names: dict[str, str]
    organization_type_weights: dict[str, float]
    norway: uuid.UUID
    types: dict[str, dict[str, uuid.UUID]]  # catalogue table -> key -> uuid


def demo_references_ensure() -> list[str]:
    """Import the reference tables that are empty; the sources used, for the summary."""
    used = []
    steps = (
        (m.NaceCode, "naeringskoder-sn2007.csv", nace_import, _built_in_nace),
        (m.GeoMunicipality, "fylker-2024.csv", geo_import, _built_in_geo),
        (m.OrganizationType, "organisasjonsformer.csv", organization_types_import, _built_in_organization_types),
    )
    for model, file_name, importer, built_in in steps:
        if model.objects.exists():
            continue
        path = SHARED_BRREG / file_name
        if path.exists():
            importer(path=path)
            used.append(str(path))
        else:
            with transaction.atomic():
                built_in()
            used.append(f"built-in {model._meta.verbose_name_plural}")
    return used


def _built_in_nace() -> None:
    from service.companies.importers.nace import nace_code_from_path

    by_path = {}
    for path, name in _BUILT_IN_NACE:
        code, level = nace_code_from_path(path)
        by_path[path] = m.NaceCode.objects.create(
            key=f"NO-{code}", code=code, level=level, path=path, name=name, parent=by_path.get(path.rpartition(".")[0])
        )


def _built_in_geo() -> None:
    norway = geo_country_norway()
    counties = {}
    for path, name in _BUILT_IN_GEO:
        if "." not in path:
            counties[path] = m.GeoSubdivision.objects.create(key=f"NO-{path}", country=norway, code=path, name=name)
        else:
            code = path.replace(".", "")
            m.GeoMunicipality.objects.create(key=f"NO-{code}", subdivision=counties[path[:2]], code=code, name=name)


def _built_in_organization_types() -> None:
    for code, name in _BUILT_IN_ORGANIZATION_TYPES:
        m.OrganizationType.objects.create(key=f"NO-{code}", code=code, name=name)


def demo_references_load() -> DemoReferences:
    nace: dict[str, list] = defaultdict(list)
    for pk, code, name, path in m.NaceCode.objects.filter(level=5).order_by("path").values_list("uuid", "code", "name", "path"):
        nace[path[0]].append((pk, code, name))
    municipalities = [
        row
        for row in m.GeoMunicipality.objects.order_by("code").values_list("uuid", "code", "name")
        if not row[1].startswith(("21", "99"))  # Svalbard areas and "unknown": no company addresses
    ]
    postal_codes: dict[uuid.UUID, list] = defaultdict(list)
    for pk, code, place, municipality in m.GeoPostalCode.objects.filter(municipality__isnull=False).order_by("code").values_list(
        "uuid", "code", "place_name", "municipality_id"
    ):
        postal_codes[municipality].append((pk, code, place))
    organization_types = {code: pk for code, pk in m.OrganizationType.objects.values_list("code", "uuid")}
    organization_type_names = dict(m.OrganizationType.objects.values_list("code", "name"))
    return DemoReferences(
        nace=dict(nace),
        section_weights={section: SECTION_WEIGHTS.get(section, 1) for section in nace},
        municipalities=municipalities,
        municipality_weights=[BIG_MUNICIPALITIES.get(code, 1) for _, code, _ in municipalities],
        postal_codes=dict(postal_codes),
        organization_types=organization_types,
        organization_type_names=organization_type_names,
        organization_type_weights={c: w for c, w in ORGANIZATION_TYPE_WEIGHTS.items() if c in organization_types},
        norway=geo_country_norway().uuid,
        types={
            "accounts": dict(m.AccountsType.objects.values_list("key", "uuid")),
            "role": dict(m.CompanyRoleType.objects.values_list("key", "uuid")),
            "risk_status": dict(m.CompanyRiskStatusType.objects.values_list("key", "uuid")),
            "auditor_note": dict(m.AccountsAuditorNoteType.objects.values_list("key", "uuid")),
        },
    )
