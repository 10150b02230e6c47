"""The Enhetsregisteret import as a few set-based statements over the staging table (PostgreSQL).

Per-row Python costs about 40 us a row (parsing, checking, adapting for COPY), several
times a raw COPY; the same checks in SQL run in PostgreSQL's executor over the whole
file at once. The rules are mapping.py's, written a second time in SQL:

- `_rows_map` checks and maps every staged row into `_enheter_rows` (`ok` false for a
  row mapping.py would reject). Only the reasons come from Python: the few rejected
  rows are read back and run through mapping.py, so each message is exactly the one
  the row-by-row path gives. Both paths run against the same tests.
- warnings are counted per message in SQL, with the first 20 line numbers;
- new postal codes and countries are created from the first row using them;
- the companies are written with `INSERT ... ON CONFLICT DO UPDATE ... WHERE the values
  differ`: an unchanged company is not rewritten and keeps its update_timestamp.
  A company repeated in the file is written once per occurrence, in file order
  (`occurrence` 1, 2, ...), so the later row wins and each counts, as row by row;
- `_enheter_written` (uuid, created, new and previous head count and statuses) drives
  the employment and risk status history, as writer.py does per batch.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import date, datetime

from django.db import connection

from service.companies.importers.analysis_hook import ALL_THRESHOLD, AffectedCompanies
from service.companies.importers.enheter.mapping import ADDRESSES, enhet_checked
from service.companies.importers.enheter.records import COLUMNS, STATUS_DATE_COLUMNS
from service.companies.importers.enheter.references import NACE_UNSPECIFIED
from service.companies.importers.enheter.staging import Staged, staging_drop
from service.companies.importers.enheter.writer import COMPANY_FIELDS, STATUSES
from service.companies.importers.result import ImportResult, RejectedRow, WarningGroup, WARNING_LINES_KEPT
from service.companies.importers.values import INT_MAX, INT_MIN, WHITESPACE, RowRejected
from service.companies.models import (
    Company,
    CompanyEmployment,
    CompanyRiskStatus,
    CompanyRiskStatusType,
    GeoCountry,
    GeoMunicipality,
    GeoPostalCode,
    NaceCode,
    OrganizationType,
)

logger = logging.getLogger(__name__)

ROWS = "_enheter_rows"
WRITTEN = "_enheter_written"
BEFORE = "_enheter_before"
_REASON_BATCH = 1000


def table_name(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


# SQL twins of values.py's int_value and date_value and of stdnum's mod 11: NULL (false) where Python
# raises RowRejected. Plain expressions over a column of the level below, so parallel workers can run them
# (`%%`: they go into statements with parameters).
def _int_sql(t: str) -> str:
    return (
        f"CASE WHEN {t} ~ '^[+-]?[0-9]+$' THEN CASE WHEN {t}::numeric BETWEEN {INT_MIN} AND {INT_MAX} "
        f"THEN {t}::numeric::integer END END"
    )


def _date_sql(t: str) -> str:
    year, month, day = (f"substr({t}, {a}, {n})::int" for a, n in ((1, 4), (6, 2), (9, 2)))
    days = (
        f"CASE WHEN {month} IN (4, 6, 9, 11) THEN 30 WHEN {month} <> 2 THEN 31 "
        f"WHEN {year} %% 4 = 0 AND ({year} %% 100 <> 0 OR {year} %% 400 = 0) THEN 29 ELSE 28 END"
    )
    return (
        f"CASE WHEN {t} ~ '^[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}$' THEN CASE WHEN {year} >= 1 "
        f"AND {month} BETWEEN 1 AND 12 AND {day} BETWEEN 1 AND {days} THEN make_date({year}, {month}, {day}) END END"
    )


def _org_nr_ok_sql(t: str) -> str:
    weighted = " + ".join(f"{w} * substr({t}, {i}, 1)::int" for i, w in enumerate((3, 2, 7, 6, 5, 4, 3, 2, 1), start=1))
    return f"CASE WHEN {t} ~ '^[0-9]{{9}}$' THEN ({weighted}) %% 11 = 0 ELSE false END"


def _rows_map(staged: Staged) -> None:
    """`_enheter_rows`: every staged row checked (`ok`) and mapped, reference ids looked up."""
    c = staged.columns

    def strip(column: str) -> str:
        return f"btrim(s.{c[column]}, %(ws)s)"

    def address(block: str) -> str:
        return f"btrim(replace(s.{c[block + '.adresse']}, '/n', E'\\n'), %(ws)s)"

    dates = {
        "registration": "registreringsdatoenhetsregisteret",
        "founded": "stiftelsesdato",
        "bankrupt": "konkursdato",
        "liquidation": "underAvviklingDato",
        **{f"forced{i}": column for i, column in enumerate(STATUS_DATE_COLUMNS)},
    }
    flags = {"bankrupt": "konkurs", "liquidation": "underAvvikling", "forced": "underTvangsavviklingEllerTvangsopplosning"}
    texts = [
        f"btrim(replace(s.{c['organisasjonsnummer']}, ' ', ''), %(ws)s) AS org_nr",
        f"{strip('navn')} AS name",
        f"{strip('hjemmeside')} AS website",
        f"{strip('antallAnsatte')} AS employees_t",
        f"{strip('sisteInnsendteAarsregnskap')} AS accounts_year_t",
        f"{strip('overordnetEnhet')} AS parent_org_nr",
        f"{strip('organisasjonsform.kode')} AS organization_type_code",
        *(f"{strip(f'naeringskode{rank}.kode')} AS nace_{rank}_code" for rank in (1, 2, 3)),
        *(f"{strip(column)} AS {name}_t" for name, column in dates.items()),
        *(f"lower({strip(column)}) AS {name}_flag_t" for name, column in flags.items()),
    ]
    for prefix, block in ADDRESSES.items():
        texts += [
            f"{address(block)} AS {prefix}_address",
            f"{strip(block + '.postnummer')} AS {prefix}_postal_code",
            f"{strip(block + '.poststed')} AS {prefix}_place_name",
            f"{strip(block + '.kommunenummer')} AS {prefix}_municipality_code",
            f"upper({strip(block + '.landkode')}) AS {prefix}_country_code",
            f"{strip(block + '.land')} AS {prefix}_country_name",
        ]
    typed = [
        f"{_int_sql('employees_t')} AS employees",
        f"{_int_sql('accounts_year_t')} AS last_submitted_accounts_year",
        *(f"CASE WHEN {name}_t <> '' THEN {_date_sql(f'{name}_t')} END AS {name}_date" for name in dates),
    ]
    checks = [
        _org_nr_ok_sql("org_nr"),
        "name <> ''",
        "length(name) <= 300",
        "(employees_t = '' OR coalesce(employees >= 0, false))",
        "length(website) <= 300",
        "(accounts_year_t = '' OR last_submitted_accounts_year IS NOT NULL)",
        "length(parent_org_nr) <= 20",
        *(f"({name}_t = '' OR {name}_date IS NOT NULL)" for name in dates),
        *(f"{name}_flag_t IN ('', 'false', 'true')" for name in flags),
        *(f"length({prefix}_address) <= 300" for prefix in ADDRESSES),
    ]
    # Reference ids by hash joins on the key (a lookup per row and code would be millions of index probes).
    joins = [(OrganizationType, "organization_type_id", "organization_type_code", "")]
    joins += [(NaceCode, f"nace_code_{rank}_id", f"nace_{rank}_code", f" AND t.nace_{rank}_code <> '{NACE_UNSPECIFIED}'") for rank in (1, 2, 3)]
    joins += [(GeoMunicipality, f"{prefix}_municipality_id", f"{prefix}_municipality_code", "") for prefix in ADDRESSES]
    references = [f"j{i}.uuid AS {name}" for i, (_, name, _, _) in enumerate(joins)]
    join_sql = " ".join(
        f"LEFT JOIN {table_name(model)} j{i} ON j{i}.key = 'NO-' || m.{code}{extra.replace(' t.', ' m.')}"
        for i, (model, _, code, extra) in enumerate(joins)
    )
    # mapping.py's postal code: four digits on a Norwegian (or country-less) address
    postal_keys = [
        f"CASE WHEN {prefix}_country_code IN ('NO', '') AND {prefix}_postal_code ~ '^[0-9]{{4}}$' "
        f"THEN 'NO-' || {prefix}_postal_code END AS {prefix}_postal_key"
        for prefix in ADDRESSES
    ]
    forced = "least(" + ", ".join(f"forced{i}_date" for i in range(len(STATUS_DATE_COLUMNS))) + ")"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {ROWS}")
        cursor.execute(
            f"CREATE TEMP TABLE {ROWS} ON COMMIT DROP AS SELECT m.*, {', '.join(references)}, 1 AS occurrence FROM ("
            f"SELECT ordinal, line, {' AND '.join(checks)} AS ok, org_nr, name, website, employees, "
            "last_submitted_accounts_year, parent_org_nr, registration_date, founded_date, "
            "bankrupt_flag_t = 'true' AS is_bankrupt, bankrupt_date, "
            "liquidation_flag_t = 'true' AS is_under_liquidation, liquidation_date AS under_liquidation_date, "
            f"forced_flag_t = 'true' AS is_under_forced_dissolution, {forced} AS forced_dissolution_date, "
            "organization_type_code, nace_1_code, nace_2_code, nace_3_code, "
            + ", ".join(
                f"{p}_address, {p}_postal_code, {p}_place_name, {p}_municipality_code, {p}_country_code, "
                f"{p}_country_name"
                for p in ADDRESSES
            )
            + f", {', '.join(postal_keys)}"
            + f" FROM (SELECT *, {', '.join(typed)} FROM ("
            f"SELECT s.ordinal, coalesce(s.line, s.ordinal + 1) AS line, {', '.join(texts)} "
            # OFFSET 0 keeps each level a subquery of its own: every field is trimmed and parsed once,
            # not again wherever the next level uses it (flattened, the check alone trimmed ~100 times a row).
            f"FROM {staged.table} s OFFSET 0) t0 OFFSET 0) t OFFSET 0) m {join_sql}",
            {"ws": WHITESPACE},
        )


def _rejected(staged: Staged) -> list[RejectedRow]:
    """Rows `ok` is false for, with mapping.py's reason."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ordinal, line FROM {ROWS} WHERE NOT ok ORDER BY ordinal")
        bad = cursor.fetchall()
        staging_columns = ", ".join(staged.columns[column] for column in COLUMNS)
        rejected = []
        for start in range(0, len(bad), _REASON_BATCH):
            chunk = dict(bad[start : start + _REASON_BATCH])
            cursor.execute(
                f"SELECT ordinal, {staging_columns} FROM {staged.table} WHERE ordinal = ANY(%s) ORDER BY ordinal",
                [list(chunk)],
            )
            for ordinal, *values in cursor.fetchall():
                rejected.append(RejectedRow(line=chunk[ordinal], reason=_reason(dict(zip(COLUMNS, values)))))
    return rejected


def _reason(values: dict[str, str]) -> str:
    try:
        enhet_checked(values)
    except RowRejected as exc:
        return str(exc)
    # The SQL and Python rules disagree: a bug, but the row is still not imported and still reported.
    logger.error("a row rejected by the SQL checks passes mapping.py: %r", values)
    return "rejected by the import's checks"


# kind -> the message mapping.py gives, from the offending value
_WARNINGS = {
    "organisation form": lambda value: f"unknown organisation form {value}; left empty",
    "nace": lambda value: f"unknown NACE code {value}; left empty",
    "municipality": lambda value: f"unknown municipality {value}; left empty",
    **{
        f"postal {block}": (lambda value, block=block: f"{block}.postnummer {value!r} is not a Norwegian postal code; left empty")
        for block in ADDRESSES.values()
    },
}


def _warnings(result: ImportResult) -> None:
    """Grouped as result.warn groups them: by message, in order of first appearance, first 20 lines."""
    sources = [
        (0, "organisation form", "organization_type_code", "organization_type_code <> '' AND organization_type_id IS NULL"),
        *(
            (rank, "nace", f"nace_{rank}_code", f"nace_{rank}_code NOT IN ('', '{NACE_UNSPECIFIED}') AND nace_code_{rank}_id IS NULL")
            for rank in (1, 2, 3)
        ),
    ]
    for offset, (prefix, block) in zip((4, 6), ADDRESSES.items()):
        sources += [
            (offset, "municipality", f"{prefix}_municipality_code", f"{prefix}_municipality_code <> '' AND {prefix}_municipality_id IS NULL"),
            (
                offset + 1,
                f"postal {block}",
                f"{prefix}_postal_code",
                f"{prefix}_postal_code <> '' AND {prefix}_country_code IN ('NO', '') AND {prefix}_postal_key IS NULL",
            ),
        ]
    # One scan: the rows with any warning, each spread into its (position, kind, value) pairs.
    pairs = ", ".join(f"({position}, '{kind}', CASE WHEN {condition} THEN {column} END)" for position, kind, column, condition in sources)
    any_warning = " OR ".join(f"({condition})" for _, _, _, condition in sources)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT w.kind, w.value, count(*), (array_agg(r.line ORDER BY r.ordinal, w.position))[1:{WARNING_LINES_KEPT}] "
            f"FROM (SELECT * FROM {ROWS} WHERE ok AND ({any_warning})) r "
            f"CROSS JOIN LATERAL (VALUES {pairs}) w (position, kind, value) WHERE w.value IS NOT NULL "
            "GROUP BY w.kind, w.value ORDER BY min(r.ordinal * 10 + w.position)"
        )
        for kind, value, count, lines in cursor.fetchall():
            message = _WARNINGS[kind](value)
            result.warnings[message] = WarningGroup(message, count, list(lines))


def _references_create() -> None:
    """Countries and postal codes the imported rows use, created from the first row using each (as
    mapping.py schedules them: per address, a Norwegian postal code's country NO before the address's own)."""
    uses = " UNION ALL ".join(
        f"SELECT ordinal * 4 + {2 * i} AS first, 'NO' AS code, 'Norway' AS name FROM {ROWS} "
        f"WHERE ok AND {prefix}_postal_key IS NOT NULL "
        f"UNION ALL SELECT ordinal * 4 + {2 * i + 1}, {prefix}_country_code, "
        f"coalesce(nullif(left({prefix}_country_name, 100), ''), {prefix}_country_code) FROM {ROWS} "
        f"WHERE ok AND {prefix}_country_code <> ''"
        for i, prefix in enumerate(ADDRESSES)
    )
    postal_uses = " UNION ALL ".join(
        f"SELECT ordinal * 2 + {i} AS first, {prefix}_postal_key AS key, {prefix}_postal_code AS code, "
        f"left({prefix}_place_name, 100) AS place_name, {prefix}_municipality_id AS municipality_id "
        f"FROM {ROWS} WHERE ok AND {prefix}_postal_key IS NOT NULL"
        for i, prefix in enumerate(ADDRESSES)
    )
    countries, postal_codes = table_name(GeoCountry), table_name(GeoPostalCode)
    with connection.cursor() as cursor:
        # Only codes not there yet, then the first use of each (a hash aggregate, not a sort of every use).
        cursor.execute(
            f"INSERT INTO {countries} (uuid, key, name) SELECT DISTINCT ON (code) gen_random_uuid(), code, name "
            f"FROM (SELECT code, name, min(first) AS first FROM ({uses}) u GROUP BY code, name) u "
            f"WHERE NOT EXISTS (SELECT 1 FROM {countries} g WHERE g.key = u.code) "
            "ORDER BY code, first ON CONFLICT (key) DO NOTHING"
        )
        cursor.execute(
            f"INSERT INTO {postal_codes} (uuid, key, country_id, municipality_id, code, place_name) "
            f"SELECT DISTINCT ON (key) gen_random_uuid(), key, (SELECT uuid FROM {countries} WHERE key = 'NO'), "
            "municipality_id, code, place_name FROM ("
            f"SELECT key, code, place_name, municipality_id, min(first) AS first FROM ({postal_uses}) u "
            "GROUP BY key, code, place_name, municipality_id) u "
            f"WHERE NOT EXISTS (SELECT 1 FROM {postal_codes} g WHERE g.key = u.key) "
            "ORDER BY key, first ON CONFLICT (key) DO NOTHING"
        )


def occurrences_number() -> int:
    """Number the occurrences of an organisation number repeated in the file; the highest occurrence."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ROWS} r SET occurrence = d.occurrence FROM ("
            f"SELECT ordinal, row_number() OVER (PARTITION BY org_nr ORDER BY ordinal) AS occurrence FROM {ROWS} "
            f"WHERE ok AND org_nr IN (SELECT org_nr FROM {ROWS} WHERE ok GROUP BY org_nr HAVING count(*) > 1)"
            ") d WHERE r.ordinal = d.ordinal AND d.occurrence > 1"
        )
        if not cursor.rowcount:
            return 1
        cursor.execute(f"SELECT max(occurrence) FROM {ROWS}")
        return cursor.fetchone()[0]


@dataclass
class RoundCounts:
    rows: int
    created: int
    updated: int


_HISTORY_COLUMNS = ["employees", *(flag for flag, _ in STATUSES.values())]


def _company_select(*, now_param: str = "%(now)s", ids_in_rows: bool = False) -> tuple[dict[str, str], list[str], str, str]:
    """(each compared field's value, columns written, the SELECT list, its joins) of the company rows of
    `_enheter_rows r`. `ids_in_rows`: the rows carry their postal code and country ids (the columnar
    path's), else they are looked up by key."""
    fields = [Company._meta.get_field(name).column for name in COMPANY_FIELDS]
    values = {name: f"r.{name}" for name in fields}
    joins = []
    for prefix in ADDRESSES:
        if ids_in_rows:
            continue
        values[f"{prefix}_postal_code_id"] = f"{prefix}_p.uuid"
        values[f"{prefix}_country_id"] = f"{prefix}_c.uuid"
        joins.append(
            f"LEFT JOIN {table_name(GeoPostalCode)} {prefix}_p ON {prefix}_p.key = r.{prefix}_postal_key "
            f"LEFT JOIN {table_name(GeoCountry)} {prefix}_c ON {prefix}_c.key = r.{prefix}_country_code"
        )
    columns = ["uuid", "org_nr_schema", "org_nr", *fields, "create_timestamp", "update_timestamp"]
    select = ", ".join(["gen_random_uuid()", "'NO'", "r.org_nr", *(values[f] for f in fields), now_param, now_param])
    return {f: values[f] for f in fields}, columns, select, " ".join(joins)


def _companies_insert_all(*, now: datetime) -> int:
    """The first occurrences into an empty company table: a plain INSERT, every row created."""
    _, columns, select, joins = _company_select()
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table_name(Company)} ({', '.join(columns)}) SELECT {select} FROM {ROWS} r {joins} "
            "WHERE r.ok AND r.occurrence = 1",
            {"now": now},
        )
        return cursor.rowcount


def companies_write(*, occurrence: int, now: datetime, ids_in_rows: bool = False) -> RoundCounts:
    """One occurrence of each organisation number: insert, or update where a value differs."""
    company = table_name(Company)
    values, columns, select, joins = _company_select(ids_in_rows=ids_in_rows)
    fields = list(values)
    changed = f"({', '.join(f'{company}.{f}' for f in fields)}) IS DISTINCT FROM ({', '.join(f'EXCLUDED.{f}' for f in fields)})"
    differs = f"({', '.join(f'c.{f}' for f in fields)}) IS DISTINCT FROM ({', '.join(values.values())})"
    history = ", ".join(_HISTORY_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {BEFORE}, {WRITTEN}")
        # This round's rows that need writing, new or differing from the stored company (with its values
        # before), found in one join: only they go on to the upsert (an unchanged million would each cost a
        # conflict probe there, and keeping them here a table of a million rows).
        cursor.execute(
            f"CREATE TEMP TABLE {BEFORE} ON COMMIT DROP AS SELECT r.ordinal, r.org_nr, c.org_nr IS NOT NULL AS stored, "
            f"{', '.join(f'c.{h}' for h in _HISTORY_COLUMNS)} "
            f"FROM {ROWS} r LEFT JOIN {company} c ON c.org_nr_schema = 'NO' AND c.org_nr = r.org_nr {joins} "
            f"WHERE r.ok AND r.occurrence = %(occurrence)s AND (c.org_nr IS NULL OR {differs})",
            {"occurrence": occurrence},
        )
        cursor.execute(
            f"CREATE TEMP TABLE {WRITTEN} ON COMMIT DROP AS WITH w AS ("
            f"INSERT INTO {company} ({', '.join(columns)}) SELECT {select} FROM {ROWS} r "
            f"JOIN {BEFORE} b ON b.ordinal = r.ordinal {joins} "
            f"ON CONFLICT (org_nr_schema, org_nr) DO UPDATE SET "
            + ", ".join(f"{f} = EXCLUDED.{f}" for f in [*fields, "update_timestamp"])
            + f" WHERE {changed} RETURNING uuid, org_nr, {history}, "
            + ", ".join(f"{date_field}" for _, date_field in STATUSES.values())
            + ") SELECT w.*, NOT b.stored AS created, "
            + ", ".join(f"b.{h} AS before_{h}" for h in _HISTORY_COLUMNS)
            + f" FROM w JOIN {BEFORE} b ON b.org_nr = w.org_nr",
            {"occurrence": occurrence, "now": now},
        )
        cursor.execute(
            f"SELECT (SELECT count(*) FROM {ROWS} WHERE ok AND occurrence = %s), count(*) FILTER (WHERE created), "
            f"count(*) FILTER (WHERE NOT created) FROM {WRITTEN}",
            [occurrence],
        )
        return RoundCounts(*cursor.fetchone())


def history_write(*, now: datetime, today: date, source: str = WRITTEN) -> None:
    """Employment periods and risk statuses for what this round created or changed (writer.py's rules).
    `source` is `_enheter_written`, or after an initial load the company table itself (all created)."""
    employment, statuses = table_name(CompanyEmployment), table_name(CompanyRiskStatus)
    created_only = source != WRITTEN
    with connection.cursor() as cursor:
        if not created_only:
            cursor.execute(
                f"UPDATE {employment} e SET to_date = %(now)s FROM {WRITTEN} w WHERE e.company_id = w.uuid "
                "AND NOT w.created AND w.employees IS DISTINCT FROM w.before_employees AND e.to_date IS NULL",
                {"now": now},
            )
        previous = "NULL" if created_only else "before_employees"
        changed = "true" if created_only else "(created OR employees IS DISTINCT FROM before_employees)"
        cursor.execute(
            f"INSERT INTO {employment} (uuid, company_id, employee_count, employee_date, from_date, to_date, "
            "employee_count_from, employee_count_to) SELECT gen_random_uuid(), uuid, employees, %(now)s, %(now)s, "
            f"NULL, {previous}, employees FROM {source} WHERE employees IS NOT NULL AND {changed}",
            {"now": now},
        )
        type_uuids = dict(CompanyRiskStatusType.objects.filter(key__in=STATUSES).values_list("key", "uuid"))
        if created_only:
            # Every status of a new company opens: one scan of the table for the three of them.
            values = ", ".join(f"(c.{flag}, c.{date_field}, %(type_{key})s::uuid)" for key, (flag, date_field) in STATUSES.items())
            cursor.execute(
                f"INSERT INTO {statuses} (uuid, company_id, company_risk_status_type_id, from_date, to_date) "
                f"SELECT gen_random_uuid(), c.uuid, s.type, coalesce(s.date, %(today)s), NULL FROM {source} c "
                f"CROSS JOIN LATERAL (VALUES {values}) s (flag, date, type) "
                f"WHERE ({' OR '.join(f'c.{flag}' for flag, _ in STATUSES.values())}) AND s.flag",
                {"today": today, **{f"type_{key}": type_uuids[key] for key in STATUSES}},
            )
            return
        for key, (flag, date_field) in STATUSES.items():
            cursor.execute(
                f"UPDATE {statuses} s SET to_date = %(today)s FROM {WRITTEN} w WHERE s.company_id = w.uuid "
                f"AND NOT w.created AND w.before_{flag} AND NOT w.{flag} "
                "AND s.company_risk_status_type_id = %(type)s AND s.to_date IS NULL",
                {"today": today, "type": type_uuids[key]},
            )
            cursor.execute(
                f"INSERT INTO {statuses} (uuid, company_id, company_risk_status_type_id, from_date, to_date) "
                f"SELECT gen_random_uuid(), uuid, %(type)s, coalesce({date_field}, %(today)s), NULL FROM {source} "
                f"WHERE {flag} AND (created OR NOT before_{flag})",
                {"today": today, "type": type_uuids[key]},
            )


def affected_add(affected: AffectedCompanies, *, source: str = WRITTEN) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT uuid FROM {source} LIMIT %s", [ALL_THRESHOLD + 1])
        affected.add(value if isinstance(value, uuid.UUID) else uuid.UUID(str(value)) for (value,) in cursor.fetchall())


def staged_rows_apply(
    *,
    staged: Staged,
    result: ImportResult,
    affected: AffectedCompanies,
    now: datetime,
    initial_load: Callable[[int], AbstractContextManager | None],
) -> None:
    """Check, map and write the staged rows. `initial_load(rows)` returns the context of a load into an
    empty register (see bulk_load.py), or None when the register is not empty (or the file small)."""
    _rows_map(staged)
    result.rows_read += staged.rows + len(staged.rejected)
    result.rejected.extend(sorted([*staged.rejected, *_rejected(staged)], key=lambda row: row.line))
    staging_drop(staged)
    _warnings(result)
    _references_create()
    last = occurrences_number()
    first = 1
    empty_register = initial_load(staged.rows)
    if empty_register is not None:
        with empty_register:
            created = _companies_insert_all(now=now)
            history_write(now=now, today=now.date(), source=table_name(Company))
        result.tally(created=created, updated=0, unchanged=0)
        affected_add(affected, source=table_name(Company))
        first = 2
    for occurrence in range(first, last + 1):
        counts = companies_write(occurrence=occurrence, now=now)
        result.tally(created=counts.created, updated=counts.updated, unchanged=counts.rows - counts.created - counts.updated)
        history_write(now=now, today=now.date())
        affected_add(affected)
