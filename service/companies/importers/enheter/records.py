"""The columns of the Enhetsregisteret bulk download, and its JSON objects flattened to them.

The CSV has dotted headers (`forretningsadresse.postnummer`) and `/n` between address
lines. The JSON is one array of nested objects (`forretningsadresse: {adresse: [...],
postnummer, ...}`); each object is flattened to the same dotted names (matched without
regard to case: the JSON spells `registreringsdatoEnhetsregisteret`, the CSV
`registreringsdatoenhetsregisteret`), so the same rules (rules.py) serve both.
"""

from __future__ import annotations

from collections.abc import Iterator

from service.companies.importers.json_array import json_array_objects

ADDRESS_LINE_SEPARATOR = "/n"
STATUS_DATE_COLUMNS = (
    "tvangsopplostPgaManglendeDagligLederDato",
    "tvangsopplostPgaManglendeRevisorDato",
    "tvangsopplostPgaManglendeRegnskapDato",
    "tvangsopplostPgaMangelfulltStyreDato",
    "tvangsavvikletPgaManglendeSlettingDato",
)
ADDRESS_COLUMNS = ("adresse", "postnummer", "poststed", "kommunenummer", "landkode", "land")
# Every column the rules read; a CSV header missing one is refused.
COLUMNS = (
    "organisasjonsnummer",
    "navn",
    "organisasjonsform.kode",
    "naeringskode1.kode",
    "naeringskode2.kode",
    "naeringskode3.kode",
    "antallAnsatte",
    "hjemmeside",
    *(f"{kind}.{column}" for kind in ("forretningsadresse", "postadresse") for column in ADDRESS_COLUMNS),
    "sisteInnsendteAarsregnskap",
    "registreringsdatoenhetsregisteret",
    "stiftelsesdato",
    "konkurs",
    "konkursdato",
    "underAvvikling",
    "underAvviklingDato",
    "underTvangsavviklingEllerTvangsopplosning",
    *STATUS_DATE_COLUMNS,
    "overordnetEnhet",
)
_COLUMN_BY_LOWER = {column.lower(): column for column in COLUMNS}


def json_records(stream, name: str) -> Iterator[tuple[int, dict[str, str]]]:
    """(the line each object starts on, its values by CSV column name) for each object of the JSON array."""
    for line, item in json_array_objects(stream, name=name):
        flat: dict[str, str] = {}
        _flatten(item, "", flat)
        values = dict.fromkeys(COLUMNS, "")  # the JSON leaves out empty fields; the CSV has them blank
        values.update((_COLUMN_BY_LOWER.get(key.lower(), key), value) for key, value in flat.items())
        yield line, values


def _flatten(value: dict, prefix: str, out: dict[str, str]) -> None:
    for key, item in value.items():
        name = prefix + key
        if isinstance(item, dict):
            _flatten(item, name + ".", out)
        elif isinstance(item, list):
            out[name] = ADDRESS_LINE_SEPARATOR.join(str(part) for part in item)
        elif isinstance(item, bool):
            out[name] = "true" if item else "false"
        elif item is None:
            out[name] = ""
        else:
            out[name] = str(item)
