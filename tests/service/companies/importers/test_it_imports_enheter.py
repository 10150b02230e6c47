"""import_enheter on the real Enhetsregisteret sample: every row accounted for, real companies
as the register has them, idempotent, bad rows reported by line, broken files refused whole.

The rules are the same everywhere; the writers differ. On PostgreSQL every test runs twice: as a
first load (COPY straight into the emptied company table, which the command does for a big file
into an empty register; here for the tests' small files too) and through the upsert it takes
otherwise. On SQLite the ORM writer takes every file. test_it_follows_the_reference_rules.py holds
the rules to the row-by-row oracle."""

from __future__ import annotations

import gzip
import io
import json
from datetime import UTC, date, datetime, timedelta

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from stdnum.no import orgnr

import service.companies.importers.enheter as enheter
from service.companies.importers.enheter import enheter_import
from service.companies.models import Company, CompanyEmployment, CompanyRiskStatus, GeoPostalCode
from tests.service.companies.importers.conftest import brreg_json_object, csv_write, enheter_rows, enheter_sample

pytestmark = pytest.mark.usefixtures("reference_data")
ON_POSTGRESQL = "postgresql" in settings.DATABASES["default"]["ENGINE"]


@pytest.fixture(autouse=True, params=["first load", "upsert"] if ON_POSTGRESQL else ["orm"])
def method(request, monkeypatch) -> str:
    """The PostgreSQL writer's way in, or the ORM writer."""
    if request.param == "first load":
        monkeypatch.setattr(enheter, "INITIAL_LOAD_MIN_ROWS", 1)
    return request.param


def _import(path, **options):
    return enheter_import(path=path, refresh_analysis=False, **options)


def test_every_row_of_the_real_sample_is_accounted_for():
    header, rows = enheter_rows(enheter_sample())
    importable = [r for r in rows if orgnr.is_valid(r["organisasjonsnummer"]) and r["navn"].strip()]

    result = _import(enheter_sample())

    assert result.rows_read == len(rows) == 4924
    assert result.written + len(result.rejected) == result.rows_read
    assert result.created == len(importable) == Company.objects.count()
    assert result.rejected == []
    # The register's "00.000" means "not given": no code and no warning; all other codes are known.
    assert result.warnings == {}
    assert Company.objects.filter(nace_code_1__isnull=True).count() == sum(
        1 for r in rows if r["naeringskode1.kode"] in ("", "00.000")
    )
    assert Company.objects.filter(is_bankrupt=True).count() == sum(1 for r in rows if r["konkurs"] == "true")


def test_real_companies_are_mapped_as_the_register_has_them():
    _import(enheter_sample())
    _import(enheter_sample().parent / "konsern-enheter.csv")

    aker = Company.objects.get(org_nr_schema="NO", org_nr="913748174")
    assert aker.name == "AKER SOLUTIONS ASA"
    assert aker.organization_type.key == "NO-ASA"
    assert aker.nace_code_1.key == "NO-09.109"
    assert aker.business_municipality.code == "3201"
    assert (aker.business_postal_code.key, aker.business_postal_code.place_name) == ("NO-1366", "LYSAKER")
    assert aker.business_postal_code.municipality.key == "NO-3201"
    assert (aker.registration_date, aker.founded_date, aker.last_submitted_accounts_year) == (
        date(2014, 6, 11),
        date(2014, 5, 23),
        2024,
    )

    ways = Company.objects.get(org_nr="832175692")
    assert (ways.name, ways.organization_type.code, ways.nace_code_1.key, ways.employees) == (
        "WAYS AS",
        "AS",
        "NO-62.010",
        5,
    )
    assert (ways.business_address, ways.postal_address) == ("Rådhusgata 5B", "Postboks 2075 Vika")
    assert CompanyEmployment.objects.get(company=ways).employee_count == 5

    sole_trader = Company.objects.get(org_nr="998465001")
    assert sole_trader.postal_address == "c/o Jan Czapski\nSiggerudveien 994"
    assert sole_trader.business_municipality.key == "NO-3207"

    foreign = Company.objects.get(org_nr="893821872")  # AKER SOLUTIONS FINLAND OY
    assert (foreign.business_country.key, foreign.business_postal_code) == ("FI", None)

    bankrupt = Company.objects.filter(is_bankrupt=True).first()
    status = CompanyRiskStatus.objects.get(company=bankrupt)
    assert (status.company_risk_status_type.key, status.from_date, status.to_date) == (
        "bankrupt",
        bankrupt.bankrupt_date,
        None,
    )


def test_a_second_import_creates_nothing_and_keeps_the_rows():
    first = _import(enheter_sample())
    before = dict(Company.objects.values_list("org_nr", "update_timestamp"))
    counts = (Company.objects.count(), CompanyEmployment.objects.count(), CompanyRiskStatus.objects.count(), GeoPostalCode.objects.count())

    second = _import(enheter_sample())

    assert (second.rows_read, second.created, second.updated, second.unchanged) == (first.rows_read, 0, 0, first.rows_read)
    assert (Company.objects.count(), CompanyEmployment.objects.count(), CompanyRiskStatus.objects.count(), GeoPostalCode.objects.count()) == counts
    assert dict(Company.objects.values_list("org_nr", "update_timestamp")) == before


def test_bad_rows_are_reported_by_line_and_the_good_ones_imported(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    good, multiline, bad_org_nr, no_name, bad_date, bad_flag, last = (dict(r) for r in rows[:7])
    multiline["aktivitet"] = "Line one\nline two\nline three"  # a quoted field over three lines
    bad_org_nr["organisasjonsnummer"] = "123456789"
    no_name["navn"] = "  "
    bad_date["konkursdato"] = "2023-13-45"
    bad_flag["konkurs"] = "kanskje"
    path = csv_write(tmp_path / "enheter.csv", header, [good, multiline, bad_org_nr, no_name, bad_date, bad_flag, last])
    with path.open("a", encoding="utf-8") as stream:
        stream.write('"999999999","SHORT ROW"\n')

    result = _import(path)

    assert result.rows_read == 8
    assert result.created == 3
    assert set(Company.objects.values_list("org_nr", flat=True)) == {
        good["organisasjonsnummer"],
        multiline["organisasjonsnummer"],
        last["organisasjonsnummer"],
    }
    assert [(row.line, row.reason) for row in result.rejected] == [
        (6, "organisasjonsnummer '123456789' is not a valid organisation number (The number's checksum or check digit is invalid.)"),
        (7, "navn (the name) is empty"),
        (8, "konkursdato is not a date (YYYY-MM-DD): '2023-13-45'"),
        (9, "konkurs is not true or false: 'kanskje'"),
        (11, f"expected {len(header)} fields, found 2"),
    ]


def test_the_command_reports_each_rejected_row_and_ends_with_the_summary(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    broken = dict(rows[1], organisasjonsnummer="12345")
    path = csv_write(tmp_path / "enheter.csv", header, [rows[0], broken])
    out = io.StringIO()

    call_command("import_enheter", str(path), "--quiet", "--no-analysis", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[0].startswith("line 3: rejected: organisasjonsnummer '12345' is not a valid organisation number")
    assert lines[-1] == "enheter.csv: read 2, written 1 (created 1, updated 0), unchanged 0, rejected 1, warnings 0"


def test_unknown_codes_are_warnings_and_the_row_still_imports(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    row = dict(rows[1], **{"naeringskode1.kode": "99.999", "organisasjonsform.kode": "XYZ", "forretningsadresse.kommunenummer": "8888"})
    path = csv_write(tmp_path / "enheter.csv", header, [row])

    result = _import(path)

    company = Company.objects.get()
    assert (company.nace_code_1, company.organization_type, company.business_municipality) == (None, None, None)
    assert sorted(result.warnings) == [
        "unknown NACE code 99.999; left empty",
        "unknown municipality 8888; left empty",
        "unknown organisation form XYZ; left empty",
    ]
    assert result.warnings["unknown NACE code 99.999; left empty"].lines == [2]


def test_a_status_or_head_count_change_is_kept_as_history(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    row = dict(rows[1], antallAnsatte="10", konkurs="false", konkursdato="")
    path = tmp_path / "enheter.csv"
    _import(csv_write(path, header, [row]))

    result = _import(csv_write(path, header, [dict(row, antallAnsatte="12", konkurs="true", konkursdato="2024-01-05")]))
    _import(csv_write(path, header, [dict(row, antallAnsatte="12", konkurs="false", konkursdato="")]))

    assert result.updated == 1
    company = Company.objects.get()
    periods = list(CompanyEmployment.objects.filter(company=company).order_by("from_date").values_list(
        "employee_count", "employee_count_from", "employee_count_to", "to_date"
    ))
    assert [p[:3] for p in periods] == [(10, None, 10), (12, 10, 12)]
    assert periods[0][3] is not None and periods[1][3] is None
    status = CompanyRiskStatus.objects.get(company=company)
    assert status.from_date == date(2024, 1, 5) and status.to_date is not None
    assert company.is_bankrupt is False


def test_a_status_the_register_gives_no_date_for_starts_and_ends_on_the_day_in_oslo(tmp_path, stopped_clock):
    header, rows = enheter_rows(enheter_sample())
    row = dict(rows[1], konkurs="true", konkursdato="")
    path = tmp_path / "enheter.csv"
    stopped_clock.now = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)  # 00:30 on 27 November in Oslo
    _import(csv_write(path, header, [row]))

    stopped_clock.now += timedelta(days=1)
    _import(csv_write(path, header, [dict(row, konkurs="false")]))

    status = CompanyRiskStatus.objects.get()
    assert (status.from_date, status.to_date) == (date(2026, 11, 27), date(2026, 11, 28))


def test_a_gzipped_file_imports_and_a_truncated_one_writes_nothing(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    data = gzip.compress(enheter_sample().read_bytes())
    truncated = tmp_path / "truncated.csv.gz"
    truncated.write_bytes(data[: len(data) // 2])

    with pytest.raises(CommandError, match="not a complete gzip file"):
        call_command("import_enheter", str(truncated), "--no-analysis", stdout=io.StringIO())
    assert not Company.objects.exists()

    whole = tmp_path / "enheter.csv.gz"
    whole.write_bytes(data)
    assert _import(whole).created == len(rows)


def test_a_file_named_gz_that_is_not_gzip_is_refused(tmp_path):
    path = tmp_path / "enheter.csv.gz"
    path.write_bytes(enheter_sample().read_bytes()[:5000])

    with pytest.raises(CommandError, match="not gzip-compressed"):
        call_command("import_enheter", str(path), "--no-analysis", stdout=io.StringIO())
    assert not Company.objects.exists()


def test_a_wrong_header_fails_before_writing(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    renamed = ["name" if column == "navn" else column for column in header]
    path = tmp_path / "enheter.csv"
    csv_write(path, renamed, [{("name" if k == "navn" else k): v for k, v in row.items()} for row in rows[:3]])

    with pytest.raises(CommandError, match="wrong header: missing column"):
        call_command("import_enheter", str(path), "--no-analysis", stdout=io.StringIO())
    assert not Company.objects.exists()


def test_the_json_download_imports_the_same_companies_as_the_csv(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    sample = rows[:300]
    path = tmp_path / "enheter.json.gz"
    text = "[\n" + ",\n".join(json.dumps(brreg_json_object(r), ensure_ascii=False, indent=1) for r in sample) + "\n]\n"
    path.write_bytes(gzip.compress(text.encode()))

    from_json = _import(path)
    from_csv = _import(csv_write(tmp_path / "same.csv", header, sample))

    assert from_json.created == len(sample) and not from_json.rejected
    assert (from_csv.created, from_csv.updated, from_csv.unchanged) == (0, 0, len(sample))


def test_json_that_is_not_an_array_or_breaks_off_is_refused(tmp_path):
    not_json = tmp_path / "enheter.json"
    not_json.write_text('{"organisasjonsnummer": "913748174"}', encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text('[{"organisasjonsnummer": "913748174", "navn": "AKER', encoding="utf-8")

    with pytest.raises(CommandError, match="expected a JSON array"):
        call_command("import_enheter", str(not_json), "--format", "json", "--no-analysis", stdout=io.StringIO())
    with pytest.raises(CommandError, match="does not end with"):
        call_command("import_enheter", str(cut), "--format", "json", "--no-analysis", stdout=io.StringIO())
    assert not Company.objects.exists()


def test_json_rows_report_the_line_they_start_on(tmp_path):
    path = tmp_path / "enheter.json"
    path.write_text('[\n{"organisasjonsnummer": "913748174", "navn": "AKER SOLUTIONS ASA"},\n{"organisasjonsnummer": "1",\n "navn": "X"}\n]', encoding="utf-8")

    result = _import(path)

    assert result.created == 1
    assert [row.line for row in result.rejected] == [3]


def test_the_import_asks_the_analysis_to_recompute_the_companies_it_touched(
    tmp_path, monkeypatch, django_capture_on_commit_callbacks
):
    from service.companies import tasks

    queued = []
    monkeypatch.setattr(tasks.analysis_refresh_task, "delay", lambda company_uuids: queued.append(set(company_uuids)))
    header, rows = enheter_rows(enheter_sample())
    path = csv_write(tmp_path / "enheter.csv", header, rows[:3])

    with django_capture_on_commit_callbacks(execute=True):
        enheter_import(path=path)
        enheter_import(path=path)  # nothing changed: nothing to recompute

    assert queued == [{str(uuid) for uuid in Company.objects.values_list("uuid", flat=True)}]


# pyarrow decodes a short row as UTF-8 to hand it to the invalid-row handler; on the 0xff byte
# that decoding fails inside pyarrow, which reports it as unraisable. The import still refuses
# the file (the stream's own UTF-8 check), which is what this test is about.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_file_broken_halfway_writes_nothing(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    path = csv_write(tmp_path / "enheter.csv", header, rows[:50])
    path.write_bytes(path.read_bytes() + b'"913748174","BROKEN \xff NAME"\n')

    with pytest.raises(CommandError, match="unreadable after line"):
        call_command("import_enheter", str(path), "--no-analysis", stdout=io.StringIO())
    assert not Company.objects.exists()


def test_quoted_fields_over_several_lines_keep_the_line_numbers(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    first, second, bad, last = (dict(r) for r in rows[:4])
    first["aktivitet"] = "one\ntwo\r\nthree"  # rows below move down three lines
    second["vedtektsfestetFormaal"] = "a\rb"  # a lone carriage return ends a line too
    bad["stiftelsesdato"] = "1999-02-29"
    path = csv_write(tmp_path / "enheter.csv", header, [first, second, bad, last])

    result = _import(path)

    assert result.created == 3
    assert [(row.line, row.reason) for row in result.rejected] == [
        (7, "stiftelsesdato is not a date (YYYY-MM-DD): '1999-02-29'")
    ]


def test_values_are_checked_and_trimmed_the_same_way_on_both_paths(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    cases = [
        {"organisasjonsnummer": " 913 748 174 ", "navn": "\u00a0AKER SOLUTIONS ASA\u3000", "antallAnsatte": "+7"},
        {"organisasjonsnummer": "998465001", "stiftelsesdato": "2024-02-29", "konkurs": " TRUE "},
        {"organisasjonsnummer": "832175692", "stiftelsesdato": "20230105"},
        {"organisasjonsnummer": "12345678", "navn": "X"},
        {"organisasjonsnummer": "９１３７４８１７４", "navn": "Y"},
        {"antallAnsatte": "2147483648"},
        {"sisteInnsendteAarsregnskap": "2_024"},
        {"stiftelsesdato": "2023-02-29"},
        {"forretningsadresse.postnummer": "０１５０", "forretningsadresse.landkode": "NO"},
        {"navn": "N" * 301},
    ]
    data = [dict(rows[i + 10], **case) for i, case in enumerate(cases)]
    path = csv_write(tmp_path / "enheter.csv", header, data)

    result = _import(path)

    aker = Company.objects.get(org_nr="913748174")
    assert (aker.name, aker.employees) == ("AKER SOLUTIONS ASA", 7)
    leap = Company.objects.get(org_nr="998465001")
    assert (leap.founded_date, leap.is_bankrupt) == (date(2024, 2, 29), True)
    assert [(row.line, row.reason) for row in result.rejected] == [
        (4, "stiftelsesdato is not a date (YYYY-MM-DD): '20230105'"),
        (5, "organisasjonsnummer '12345678' is not a valid organisation number (The number has an invalid length.)"),
        (6, "organisasjonsnummer '９１３７４８１７４' is not a valid organisation number (The number has an invalid format.)"),
        (7, "antallAnsatte is out of range: '2147483648'"),
        (8, "sisteInnsendteAarsregnskap is not a whole number: '2_024'"),
        (9, "stiftelsesdato is not a date (YYYY-MM-DD): '2023-02-29'"),
        (11, "navn is longer than 300 characters"),
    ]
    assert list(result.warnings) == ["forretningsadresse.postnummer '０１５０' is not a Norwegian postal code; left empty"]
    assert result.created == 3


def test_a_rejected_row_neither_warns_nor_creates_postal_codes(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    row = dict(
        rows[1], **{"naeringskode1.kode": "99.999", "forretningsadresse.postnummer": "9999", "konkursdato": "x"}
    )
    path = csv_write(tmp_path / "enheter.csv", header, [row])

    result = _import(path)

    assert (result.created, len(result.rejected), result.warnings) == (0, 1, {})
    assert not GeoPostalCode.objects.filter(key="NO-9999").exists()


def test_a_company_repeated_in_the_file_is_written_in_file_order(tmp_path):
    header, rows = enheter_rows(enheter_sample())
    first = dict(rows[1], antallAnsatte="10", konkurs="false", konkursdato="")
    later = dict(first, antallAnsatte="12", konkurs="true", konkursdato="2024-01-05")
    path = csv_write(tmp_path / "enheter.csv", header, [first, rows[2], later, first])

    result = _import(path)

    assert (result.rows_read, result.created, result.updated, result.unchanged) == (4, 2, 2, 0)
    company = Company.objects.get(org_nr=first["organisasjonsnummer"])
    assert (company.employees, company.is_bankrupt) == (10, False)
    counts = list(CompanyEmployment.objects.filter(company=company).order_by("employee_count_from").values_list(
        "employee_count_from", "employee_count_to"
    ))
    assert sorted(counts, key=str) == sorted([(None, 10), (10, 12), (12, 10)], key=str)
    assert CompanyRiskStatus.objects.get(company=company).to_date is not None


def test_a_first_load_into_an_empty_register_builds_indexes_and_keys_once(method, monkeypatch):
    from django.db import connection

    if method == "orm":
        pytest.skip("the first-load path is PostgreSQL's")
    monkeypatch.setattr(enheter, "INITIAL_LOAD_MIN_ROWS", 1)

    def schema():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT indrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid) FROM pg_index "
                "WHERE indrelid::regclass::text LIKE 'service_companies_%%' UNION ALL "
                "SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) "
                "FROM pg_constraint WHERE conrelid::regclass::text LIKE 'service_companies_%%'"
            )
            return sorted(row[0] for row in cursor.fetchall())

    before = schema()

    first = _import(enheter_sample())
    second = _import(enheter_sample())

    assert schema() == before
    assert (first.created, first.rows_read) == (4924, 4924)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 4924)
    assert CompanyEmployment.objects.count() == Company.objects.filter(employees__isnull=False).count()
    assert CompanyRiskStatus.objects.filter(company_risk_status_type__key="bankrupt").count() == (
        Company.objects.filter(is_bankrupt=True).count()
    )


def test_a_company_repeated_in_a_file_for_a_filled_register_is_written_in_file_order(tmp_path, method, monkeypatch):
    """The same as into an empty register: the upsert numbers the occurrences."""
    header, rows = enheter_rows(enheter_sample())
    _import(csv_write(tmp_path / "before.csv", header, [rows[5]]))
    first = dict(rows[1], antallAnsatte="10", konkurs="false", konkursdato="")
    later = dict(first, antallAnsatte="12", konkurs="true", konkursdato="2024-01-05")
    path = csv_write(tmp_path / "enheter.csv", header, [first, rows[2], later, first, rows[5]])

    result = _import(path)

    assert (result.rows_read, result.created, result.updated, result.unchanged) == (5, 2, 2, 1)
    company = Company.objects.get(org_nr=first["organisasjonsnummer"])
    assert (company.employees, company.is_bankrupt) == (10, False)
    counts = list(CompanyEmployment.objects.filter(company=company).values_list("employee_count_from", "employee_count_to"))
    assert sorted(counts, key=str) == sorted([(None, 10), (10, 12), (12, 10)], key=str)
    assert CompanyRiskStatus.objects.get(company=company).to_date is not None


@pytest.mark.parametrize("filled", [False, True], ids=["empty register", "filled register"])
def test_a_postal_code_created_meanwhile_by_another_import_is_the_one_the_company_points_at(tmp_path, monkeypatch, filled):
    from service.companies.importers.enheter.references import EnhetReferences
    from service.companies.models import GeoCountry

    header, rows = enheter_rows(enheter_sample())
    if filled:
        _import(csv_write(tmp_path / "before.csv", header, [rows[5]]))
    row = dict(rows[1], **{"forretningsadresse.postnummer": "9991", "forretningsadresse.landkode": "NO"})
    real = EnhetReferences.pending_create

    def meanwhile(self):
        GeoPostalCode.objects.get_or_create(
            key="NO-9991", defaults={"code": "9991", "place_name": "ELSEWHERE", "country": GeoCountry.objects.get(key="NO")}
        )
        return real(self)

    monkeypatch.setattr(EnhetReferences, "pending_create", meanwhile)

    result = _import(csv_write(tmp_path / "enheter.csv", header, [row]))

    assert result.created == 1
    company = Company.objects.get(org_nr=row["organisasjonsnummer"])
    assert (company.business_postal_code.key, company.business_postal_code.place_name) == ("NO-9991", "ELSEWHERE")
