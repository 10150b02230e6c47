"""Rows of the Enhetsregisteret bulk download, CSV or JSON, as dicts keyed by the CSV column names.

The CSV has dotted headers (`forretningsadresse.postnummer`) and `/n` between address
lines. The JSON is one array of nested objects (`forretningsadresse: {adresse: [...],
postnummer, ...}`); each object is flattened to the same dotted names (matched without
regard to case: the JSON spells `registreringsdatoEnhetsregisteret`, the CSV
`registreringsdatoenhetsregisteret`), so one mapping serves both.
"""

from __future__ import annotations

from collections.abc import Iterator

from service.companies.importers.csv_rows import SourceRow, csv_rows
from service.companies.importers.json_array import JsonSyntaxError, json_array_objects
from service.companies.importers.source import ImportFileError, TextSource

ADDRESS_LINE_SEPARATOR = "/n"
STATUS_DATE_COLUMNS = (
    "tvangsopplostPgaManglendeDagligLederDato",
    "tvangsopplostPgaManglendeRevisorDato",
    "tvangsopplostPgaManglendeRegnskapDato",
    "tvangsopplostPgaMangelfulltStyreDato",
    "tvangsavvikletPgaManglendeSlettingDato",
)
ADDRESS_COLUMNS = ("adresse", "postnummer", "poststed", "kommunenummer", "landkode", "land")
# Every column the mapping reads; a CSV header missing one is refused.
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


def enheter_rows(source: TextSource, name: str, *, file_format: str = "auto") -> Iterator[SourceRow]:
    """The file's rows; `file_format` csv, json, or auto (JSON when the content starts with '[')."""
    starts_as_array = source.head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"["
    if file_format == "auto":
        file_format = "json" if starts_as_array else "csv"
    if file_format == "csv":
        return csv_rows(source.stream, required_columns=COLUMNS, name=name)
    if not starts_as_array:
        raise ImportFileError(f"{name} is not JSON in the brreg download format: expected a JSON array '[...]'")
    if not source.tail.rstrip().endswith(b"]"):
        raise ImportFileError(f"{name} is not a complete JSON array: it does not end with ']'")
    return _json_rows(source, name)


def _json_rows(source: TextSource, name: str) -> Iterator[SourceRow]:
    objects = json_array_objects(source.stream, name=name)
    try:
        for line, item in objects:
            flat: dict[str, str] = {}
            _flatten(item, "", flat)
            values = dict.fromkeys(COLUMNS, "")  # the JSON leaves out empty fields; the CSV has them blank
            values.update((_COLUMN_BY_LOWER.get(key.lower(), key), value) for key, value in flat.items())
            yield SourceRow(line, values)
    except JsonSyntaxError as exc:
        raise ImportFileError(f"{name} is not valid JSON at {exc}") from None


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
