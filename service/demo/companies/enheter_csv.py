"""An Enhetsregisteret bulk CSV of demo companies (the real file's header, quoting and `/n`),
for the import benchmark and for trying import_enheter without the real download.

The codes come from the reference tables (imported first when empty), so every
NACE code, organisation form and municipality in the file is one the importer knows.
"""

from __future__ import annotations

import csv
import gzip
from datetime import date, timedelta
from pathlib import Path

from django.utils import timezone

from service.demo.companies.org_numbers import org_numbers
from service.demo.companies.randomness import DemoRandom
from service.demo.companies.references import DemoReferences, demo_references_ensure, demo_references_load
from service.companies.importers.source import progress_bar

HEADER = (
    "organisasjonsnummer,navn,organisasjonsform.kode,organisasjonsform.beskrivelse,naeringskode1.kode,"
    "naeringskode1.beskrivelse,naeringskode2.kode,naeringskode2.beskrivelse,naeringskode3.kode,"
    "naeringskode3.beskrivelse,hjelpeenhetskode.kode,hjelpeenhetskode.beskrivelse,harRegistrertAntallAnsatte,"
    "antallAnsatte,hjemmeside,postadresse.adresse,postadresse.poststed,postadresse.postnummer,postadresse.kommune,"
    "postadresse.kommunenummer,postadresse.land,postadresse.landkode,forretningsadresse.adresse,"
    "forretningsadresse.poststed,forretningsadresse.postnummer,forretningsadresse.kommune,"
    "forretningsadresse.kommunenummer,forretningsadresse.land,forretningsadresse.landkode,"
    "institusjonellSektorkode.kode,institusjonellSektorkode.beskrivelse,sisteInnsendteAarsregnskap,"
    "registreringsdatoenhetsregisteret,stiftelsesdato,registrertIMvaRegisteret,frivilligMvaRegistrertBeskrivelser,"
    "registrertIFrivillighetsregisteret,registrertIForetaksregisteret,registrertIStiftelsesregisteret,konkurs,"
    "konkursdato,underAvvikling,underAvviklingDato,underTvangsavviklingEllerTvangsopplosning,"
    "tvangsopplostPgaManglendeDagligLederDato,tvangsopplostPgaManglendeRevisorDato,"
    "tvangsopplostPgaManglendeRegnskapDato,tvangsopplostPgaMangelfulltStyreDato,"
    "tvangsavvikletPgaManglendeSlettingDato,overordnetEnhet,maalform,vedtektsdato,vedtektsfestetFormaal,aktivitet"
).split(",")
SECTORS = {"AS": ("2100", "Private aksjeselskaper mv."), "ASA": ("2100", "Private aksjeselskaper mv."), "ENK": ("8200", "Personlig næringsdrivende")}
OTHER_SECTOR = ("7000", "Ideelle organisasjoner")


def enheter_csv_write(*, path: Path | str, companies: int, seed: int, quiet: bool = True) -> int:
    """Write `companies` rows; the number written."""
    demo_references_ensure()
    refs = demo_references_load()
    r = DemoRandom(seed, now=timezone.now())
    today = timezone.localdate()
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8", newline="") as stream, progress_bar(total=companies, description=path.name, quiet=quiet) as bar:
        writer = csv.writer(stream, quoting=csv.QUOTE_ALL, lineterminator="\n")
        writer.writerow(HEADER)
        for index, org_nr in zip(range(companies), org_numbers(seed)):
            writer.writerow(_row(r, refs, org_nr, today))
            if index % 10_000 == 9_999:
                bar.update(10_000)
    return companies


def _row(r: DemoRandom, refs: DemoReferences, org_nr: str, today: date) -> list[str]:
    form = r.weighted(refs.organization_type_weights)
    _, nace_code, nace_name = r.pick(refs.nace[r.weighted(refs.section_weights)])
    municipality, municipality_code, municipality_name = r.rng.choices(refs.municipalities, weights=refs.municipality_weights)[0]
    known = refs.postal_codes.get(municipality)
    _, postal_code, place = r.pick(known) if known else (None, f"{r.rng.randint(1, 9999):04d}", municipality_name.upper())
    founded = today - timedelta(days=int(min(45 * 365, 30 + r.rng.expovariate(1 / (9 * 365)))))
    employees = 0 if r.chance(0.6) else max(1, r.lognormal_int(6, 1.3))
    street = r.street_address()
    business_address = f"c/o {r.pick(r.last_names)}/n{street}" if r.chance(0.05) else street
    row = {
        "organisasjonsnummer": org_nr,
        "navn": r.company_name("" if form in ("ENK", "FLI", "STI", "BRL") else form),
        "organisasjonsform.kode": form,
        "organisasjonsform.beskrivelse": refs.organization_type_names.get(form, ""),
        "naeringskode1.kode": nace_code,
        "naeringskode1.beskrivelse": nace_name,
        "harRegistrertAntallAnsatte": "true" if employees else "false",
        "antallAnsatte": str(employees) if employees >= 5 else "",  # the register hides counts under five
        "hjemmeside": f"www.{org_nr}.example.no" if r.chance(0.15) else "",
        "forretningsadresse.adresse": business_address,
        "forretningsadresse.poststed": place,
        "forretningsadresse.postnummer": postal_code,
        "forretningsadresse.kommune": municipality_name.upper(),
        "forretningsadresse.kommunenummer": municipality_code,
        "forretningsadresse.land": "Norge",
        "forretningsadresse.landkode": "NO",
        "institusjonellSektorkode.kode": SECTORS.get(form, OTHER_SECTOR)[0],
        "institusjonellSektorkode.beskrivelse": SECTORS.get(form, OTHER_SECTOR)[1],
        "sisteInnsendteAarsregnskap": str(today.year - 2) if form in ("AS", "ASA") and r.chance(0.8) else "",
        "registreringsdatoenhetsregisteret": (founded + timedelta(days=r.rng.randint(0, 60))).isoformat(),
        "stiftelsesdato": founded.isoformat() if form != "ENK" else "",
        "registrertIMvaRegisteret": "true" if r.chance(0.6) else "false",
        "registrertIFrivillighetsregisteret": "false",
        "registrertIForetaksregisteret": "true" if form in ("AS", "ASA", "ANS", "DA", "NUF") else "false",
        "registrertIStiftelsesregisteret": "true" if form == "STI" else "false",
        "konkurs": "false",
        "underAvvikling": "false",
        "underTvangsavviklingEllerTvangsopplosning": "false",
        "maalform": "Nynorsk" if r.chance(0.06) else "Bokmål",
        "aktivitet": f"{nace_name}." if r.chance(0.5) else "",
    }
    if r.chance(0.25):
        row.update(
            {
                "postadresse.adresse": f"Postboks {r.rng.randint(1, 9999)}",
                "postadresse.poststed": place,
                "postadresse.postnummer": postal_code,
                "postadresse.kommune": municipality_name.upper(),
                "postadresse.kommunenummer": municipality_code,
                "postadresse.land": "Norge",
                "postadresse.landkode": "NO",
            }
        )
    status = r.rng.random()
    since = r.day_between(max(founded, today - timedelta(days=1000)), today).isoformat()
    if status < 0.015:
        row.update({"konkurs": "true", "konkursdato": since})
    elif status < 0.025:
        row.update({"underAvvikling": "true", "underAvviklingDato": since})
    elif status < 0.029:
        row.update({"underTvangsavviklingEllerTvangsopplosning": "true", "tvangsopplostPgaManglendeRegnskapDato": since})
    return [row.get(column, "") for column in HEADER]
