"""The import's rules (rules.py on whole columns, references.py) give what the row-by-row oracle
(enheter_oracle.py, plain Python and python-stdnum per value) says: the same rows rejected with the
same reasons and lines, the same warnings, the same companies and new postal codes and countries,
for the real sample as CSV and as JSON and for a file of awkward values."""

from __future__ import annotations

import gzip
import json
import random

import pyarrow as pa
import pytest
from django.conf import settings
from stdnum.no import orgnr


import service.companies.importers.enheter as enheter
from service.companies.importers.csv_rows import csv_rows
from service.companies.importers.enheter import enheter_import
from service.companies.importers.enheter.records import COLUMNS, json_records
from service.companies.importers.enheter.rules import block_check
from service.companies.models import Company, GeoCountry, GeoMunicipality, GeoPostalCode, NaceCode, OrganizationType
from tests.service.companies.importers.conftest import brreg_json_object, csv_write, enheter_rows, enheter_sample
from tests.service.companies.importers.enheter_oracle import oracle_import

pytestmark = pytest.mark.usefixtures("reference_data")
ON_POSTGRESQL = "postgresql" in settings.DATABASES["default"]["ENGINE"]
_REFERENCES = ["organization_type", "nace_code_1", "nace_code_2", "nace_code_3"] + [
    f"{prefix}_{kind}" for prefix in ("business", "postal") for kind in ("municipality", "postal_code", "country")
]
_VALUES = [
    "name", "website", "employees", "registration_date", "founded_date", "last_submitted_accounts_year", "parent_org_nr",
    "is_bankrupt", "bankrupt_date", "is_under_liquidation", "under_liquidation_date", "is_under_forced_dissolution",
    "forced_dissolution_date", "business_address", "postal_address",
]  # fmt: skip
AWKWARD = [
    {"organisasjonsnummer": " 913 748 174 ", "navn": "\u00a0AKER \\ SOLUTIONS\tASA\u3000", "antallAnsatte": "+7"},
    {"organisasjonsnummer": "998465001", "stiftelsesdato": "2024-02-29", "konkurs": " TRUE ", "konkursdato": ""},
    {"organisasjonsnummer": "832175692", "stiftelsesdato": "20230105"},
    {"organisasjonsnummer": "12345678", "navn": "X"},
    {"organisasjonsnummer": "123456789"},
    {"organisasjonsnummer": "９１３７４８１７４", "navn": "Y"},
    {"organisasjonsnummer": "91374817A"},
    {"navn": "  "},
    {"antallAnsatte": "2147483648"},
    {"antallAnsatte": "-3"},
    {"antallAnsatte": "0000000000000000012", "sisteInnsendteAarsregnskap": "02024"},
    {"antallAnsatte": "99999999999999999999999"},
    {"sisteInnsendteAarsregnskap": "2_024"},
    {"stiftelsesdato": "2023-02-29"},
    {"stiftelsesdato": "0000-01-01"},
    {"stiftelsesdato": "2024-1-5"},
    {"registreringsdatoenhetsregisteret": "2024-04-31"},
    {"underAvvikling": "ja"},
    {"navn": "N" * 301},
    {"navn": "Æ" * 300, "hjemmeside": "https://example.no/a\\b"},
    {"overordnetEnhet": "9" * 21},
    {"forretningsadresse.adresse": "Storgata 1/nPostboks 2/n", "aktivitet": "one\ntwo\r\nthree"},
    {"postadresse.adresse": "/n".join(["x" * 100] * 4)},
    {"forretningsadresse.postnummer": "０１５０", "forretningsadresse.landkode": "NO"},
    {"forretningsadresse.postnummer": "12345", "forretningsadresse.landkode": ""},
    {"forretningsadresse.postnummer": "9999", "forretningsadresse.poststed": " NOWHERE ", "forretningsadresse.kommunenummer": "3201"},
    {"postadresse.landkode": "xq", "postadresse.land": " Xland ", "postadresse.postnummer": "1234"},
    {"postadresse.landkode": "ß", "postadresse.land": ""},
    {"naeringskode1.kode": "99.999", "naeringskode2.kode": "00.000", "organisasjonsform.kode": "XYZ"},
    {"postadresse.kommunenummer": "8888", "konkurs": "true", "konkursdato": "2020-01-02", "underTvangsavviklingEllerTvangsopplosning": "True",
     "tvangsopplostPgaManglendeRevisorDato": "2021-05-05", "tvangsavvikletPgaManglendeSlettingDato": "2019-05-05"},
    {"tvangsopplostPgaManglendeRegnskapDato": "2021-02-30"},
    {"navn": "NUL\x00NAME"},
    {"konkursdato": "x", "naeringskode1.kode": "99.999", "forretningsadresse.postnummer": "9998"},  # rejected: no warning, no postal code
]  # fmt: skip


@pytest.fixture(autouse=True, params=["first load", "upsert"] if ON_POSTGRESQL else ["orm"])
def writer(request, monkeypatch) -> str:
    """Whatever the writer takes, the rules are the same."""
    if request.param == "first load":
        monkeypatch.setattr(enheter, "INITIAL_LOAD_MIN_ROWS", 1)
    return request.param


def _known() -> dict[str, set[str]]:
    def codes(model) -> set[str]:
        return {key[3:] for key in model.objects.filter(key__startswith="NO-").values_list("key", flat=True)}

    return {
        "nace": codes(NaceCode),
        "organization_types": codes(OrganizationType),
        "municipalities": codes(GeoMunicipality),
        "countries": set(GeoCountry.objects.values_list("key", flat=True)),
        "postal_codes": set(GeoPostalCode.objects.values_list("key", flat=True)),
    }


def _csv_oracle_rows(path):
    with path.open(encoding="utf-8", newline="") as stream:
        return [(row.line, row.values, row.problem) for row in csv_rows(stream, required_columns=COLUMNS, name=path.name)]


def _json_oracle_rows(path):
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return [(line, values, "") for line, values in json_records(stream, path.name)]


def _assert_import_follows_the_oracle(path, oracle_rows) -> None:
    known = _known()
    expected = oracle_import(oracle_rows, known)
    countries_before = known["countries"]

    result = enheter_import(path=path, refresh_analysis=False)

    assert result.rows_read == len(oracle_rows)
    assert [(row.line, row.reason) for row in result.rejected] == expected.rejected
    assert {message: (group.count, group.lines) for message, group in result.warnings.items()} == expected.warnings
    assert list(result.warnings) == list(expected.warnings)  # in order of first appearance
    fields = ["org_nr", *_VALUES, *(f"{name}__key" for name in _REFERENCES)]
    stored = {row[0]: dict(zip(fields[1:], row[1:])) for row in Company.objects.values_list(*fields)}
    wanted = {org_nr: {**{f: c[f] for f in _VALUES}, **{f"{n}__key": c[n] for n in _REFERENCES}} for org_nr, c in expected.companies.items()}
    assert stored == wanted
    new_postal = GeoPostalCode.objects.exclude(key__in=known["postal_codes"]).values_list("key", "code", "place_name", "municipality__key", "country__key")
    assert {key: rest for key, *rest in new_postal} == {key: list(value) for key, value in expected.postal_codes.items()}
    assert dict(GeoCountry.objects.exclude(key__in=countries_before).values_list("key", "name")) == expected.countries


def test_it_follows_the_oracle_on_the_real_sample():
    _assert_import_follows_the_oracle(enheter_sample(), _csv_oracle_rows(enheter_sample()))


def test_it_follows_the_oracle_on_the_real_sample_as_json(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    path = tmp_path / "enheter.json.gz"
    text = "[\n" + ",\n".join(json.dumps(brreg_json_object(r), ensure_ascii=False, indent=1) for r in rows) + "\n]\n"
    path.write_bytes(gzip.compress(text.encode()))

    _assert_import_follows_the_oracle(path, _json_oracle_rows(path))


def test_it_follows_the_oracle_on_awkward_values_short_rows_and_repeats(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    data = [dict(rows[i + 10], **case) for i, case in enumerate(AWKWARD)] + [dict(r) for r in rows[60:260]]
    data.insert(5, dict(data[40], navn="LATER NAME"))  # a repeat comes before ...
    data.append(dict(data[40], antallAnsatte="77"))  # ... and after: the last row wins
    path = csv_write(tmp_path / "enheter.csv", header, data)
    with path.open("a", encoding="utf-8") as stream:
        stream.write('"999999999","SHORT ROW"\n')
        stream.write('"' + '","'.join(data[50][column] for column in header) + '"\n')

    _assert_import_follows_the_oracle(path, _csv_oracle_rows(path))


def test_the_organisation_number_check_is_stdnums_on_every_number():
    randomly = random.Random(7)
    numbers = [f"{randomly.randrange(10**9):09d}" for _ in range(20_000)]
    numbers += [orgnr.format(n).replace(" ", "") for n in ("913748174", "998465001", "832175692")]
    block = pa.RecordBatch.from_pydict({column: [n if column == "organisasjonsnummer" else "" for n in numbers] for column in COLUMNS})
    block = block.set_column(COLUMNS.index("navn"), "navn", pa.array(["A"] * len(numbers)))

    checked = block_check(block, first=0)

    assert checked.rows.column("org_nr").to_pylist() == [n for n in numbers if orgnr.is_valid(n)]
    assert len(checked.rows) + len(checked.rejected) == len(numbers)
