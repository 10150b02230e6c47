"""One Enhetsregisteret row -> the Company row (a dict of column attnames), or RowRejected.

Rejected: an invalid organisation number, an empty name, a value that does not parse
(dates, true/false, whole numbers). Everything else imports; codes unknown to the
reference tables (NACE, organisation form, municipality) leave that field empty and
are reported as warnings, so one stale reference table never drops companies.
Postal codes and countries are carried as keys here and resolved to uuids by the
writer once the batch's new ones exist.

The whole row is checked before any reference is looked up: a rejected row neither
warns nor creates postal codes or countries. On PostgreSQL the same rules run in SQL
(set_based.py); this module stays the reference, and gives rejected rows their reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from stdnum.exceptions import InvalidChecksum, InvalidFormat, InvalidLength
from stdnum.no import orgnr

from service.companies.importers.enheter.records import ADDRESS_LINE_SEPARATOR, STATUS_DATE_COLUMNS
from service.companies.importers.enheter.references import NACE_UNSPECIFIED, EnhetReferences
from service.companies.importers.values import RowRejected, bool_value, date_value, int_value, text_value

_POSTAL_CODE = re.compile(r"[0-9]{4}")
_DIGITS = re.compile(r"[0-9]*")
# Company field prefix -> the register's address block
ADDRESSES = {"business": "forretningsadresse", "postal": "postadresse"}


def enhet_company_row(values: dict[str, str], *, refs: EnhetReferences, warn: Callable[[str], None]) -> dict:
    row = enhet_checked(values)
    row["organization_type_id"] = _organization_type(values["organisasjonsform.kode"], refs, warn)
    for rank in (1, 2, 3):
        row[f"nace_code_{rank}_id"] = _nace(values[f"naeringskode{rank}.kode"], refs, warn)
    for prefix, block in ADDRESSES.items():
        row.update(_address_references(values, prefix, block, refs, warn))
    return row


def enhet_checked(values: dict[str, str]) -> dict:
    """The row's own values, or RowRejected with the first problem found."""
    org_nr = org_nr_value(values["organisasjonsnummer"])
    name = text_value(values["navn"], field="navn", max_length=300)
    if not name:
        raise RowRejected("navn (the name) is empty")
    employees = int_value(values["antallAnsatte"], field="antallAnsatte")
    if employees is not None and employees < 0:
        raise RowRejected(f"antallAnsatte is negative: {employees}")
    forced_dates = [date_value(values[column], field=column) for column in STATUS_DATE_COLUMNS]
    row = {
        "org_nr_schema": "NO",
        "org_nr": org_nr,
        "name": name,
        "website": text_value(values["hjemmeside"], field="hjemmeside", max_length=300),
        "employees": employees,
        "registration_date": date_value(
            values["registreringsdatoenhetsregisteret"], field="registreringsdatoenhetsregisteret"
        ),
        "founded_date": date_value(values["stiftelsesdato"], field="stiftelsesdato"),
        "last_submitted_accounts_year": int_value(
            values["sisteInnsendteAarsregnskap"], field="sisteInnsendteAarsregnskap"
        ),
        "parent_org_nr": text_value(values["overordnetEnhet"], field="overordnetEnhet", max_length=20),
        "is_bankrupt": bool_value(values["konkurs"], field="konkurs"),
        "bankrupt_date": date_value(values["konkursdato"], field="konkursdato"),
        "is_under_liquidation": bool_value(values["underAvvikling"], field="underAvvikling"),
        "under_liquidation_date": date_value(values["underAvviklingDato"], field="underAvviklingDato"),
        "is_under_forced_dissolution": bool_value(
            values["underTvangsavviklingEllerTvangsopplosning"], field="underTvangsavviklingEllerTvangsopplosning"
        ),
        "forced_dissolution_date": min((d for d in forced_dates if d), default=None),
    }
    for prefix, block in ADDRESSES.items():
        lines = values[f"{block}.adresse"].replace(ADDRESS_LINE_SEPARATOR, "\n")
        row[f"{prefix}_address"] = text_value(lines, field=f"{block}.adresse", max_length=300)
    return row


def org_nr_value(value: str) -> str:
    """python-stdnum's rules and messages (spaces removed, nine ASCII digits, mod 11), without its
    mapping of other Unicode digits, which SQL could not follow."""
    number = value.replace(" ", "").strip()
    problem = None
    if not _DIGITS.fullmatch(number):
        problem = InvalidFormat()
    elif len(number) != 9:
        problem = InvalidLength()
    elif orgnr.checksum(number) != 0:
        problem = InvalidChecksum()
    if problem is not None:
        raise RowRejected(f"organisasjonsnummer {value!r} is not a valid organisation number ({problem})")
    return number


def _organization_type(code: str, refs: EnhetReferences, warn):
    code = code.strip()
    if not code:
        return None
    found = refs.organization_types.get(code)
    if found is None:
        warn(f"unknown organisation form {code}; left empty")
    return found


def _nace(code: str, refs: EnhetReferences, warn):
    code = code.strip()
    if not code or code == NACE_UNSPECIFIED:
        return None
    found = refs.nace.get(code)
    if found is None:
        warn(f"unknown NACE code {code}; left empty")
    return found


def _address_references(values: dict[str, str], prefix: str, block: str, refs: EnhetReferences, warn) -> dict:
    country_code = values[f"{block}.landkode"].strip().upper()
    postal_code = values[f"{block}.postnummer"].strip()
    municipality_code = values[f"{block}.kommunenummer"].strip()
    municipality = None
    if municipality_code:
        municipality = refs.municipalities.get(municipality_code)
        if municipality is None:
            warn(f"unknown municipality {municipality_code}; left empty")
    postal_key = None
    if postal_code and country_code in ("NO", ""):
        if _POSTAL_CODE.fullmatch(postal_code):
            refs.country_key(code="NO", name="Norway")
            postal_key = refs.postal_code_key(
                code=postal_code, place_name=values[f"{block}.poststed"].strip(), municipality_uuid=municipality
            )
        else:
            warn(f"{block}.postnummer {postal_code!r} is not a Norwegian postal code; left empty")
    return {
        f"{prefix}_postal_code_id": postal_key,
        f"{prefix}_municipality_id": municipality,
        f"{prefix}_country_id": refs.country_key(code=country_code, name=values[f"{block}.land"].strip())
        if country_code
        else None,
    }
