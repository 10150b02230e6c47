"""Counties and municipalities from `fylker-2024.csv` (`path,name`).

`11` is a county: GeoSubdivision key `NO-11`. `11.01` is a municipality of county 11:
GeoMunicipality code `1101`, key `NO-1101`. Norway itself (GeoCountry `NO`) is created
when missing. Within a batch counties are written before municipalities, so a county
only has to come no later than the batch of its municipalities (the real file lists
all counties first).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from django.db import transaction

from service.companies.importers.reading import batched, csv_source_rows
from service.companies.importers.result import ImportResult
from service.companies.importers.upsert import rows_upsert_changed
from service.companies.importers.values import RowRejected, text_value
from service.companies.models import GeoCountry, GeoMunicipality, GeoSubdivision

BATCH_SIZE = 2000
_COUNTY = re.compile(r"^\d{2}$")
_MUNICIPALITY = re.compile(r"^(\d{2})\.(\d{2})$")


def geo_country_norway() -> GeoCountry:
    country, _ = GeoCountry.objects.get_or_create(key="NO", defaults={"name": "Norway"})
    return country


def geo_import(*, path: Path | str, quiet: bool = True, batch_size: int = BATCH_SIZE) -> ImportResult:
    path = Path(path)
    result = ImportResult(source=path.name)
    first_line: dict[str, int] = {}
    with csv_source_rows(path, required_columns=("path", "name"), quiet=quiet) as rows:
        country = geo_country_norway()
        for batch in batched(rows, batch_size):
            counties, municipalities = [], []
            for row in batch:
                result.rows_read += 1
                try:
                    if row.problem:
                        raise RowRejected(row.problem)
                    tree_path = row.values["path"].strip()
                    if tree_path in first_line:
                        raise RowRejected(f"duplicate path {tree_path} (first on line {first_line[tree_path]})")
                    name = text_value(row.values["name"], field="name", max_length=100)
                    if not name:
                        raise RowRejected("name is empty")
                except RowRejected as exc:
                    result.reject(line=row.line, reason=str(exc))
                    continue
                if _COUNTY.match(tree_path):
                    counties.append((row.line, {"uuid": uuid.uuid4(), "key": f"NO-{tree_path}", "country_id": country.uuid, "code": tree_path, "name": name}))
                elif match := _MUNICIPALITY.match(tree_path):
                    municipalities.append((row.line, match.group(1), match.group(1) + match.group(2), name))
                else:
                    result.reject(line=row.line, reason=f"path {tree_path!r} is neither a county (11) nor a municipality (11.01)")
                    continue
                first_line[tree_path] = row.line
            with transaction.atomic():
                _batch_write(result, counties, municipalities)
    return result


def _batch_write(result: ImportResult, counties: list, municipalities: list) -> None:
    outcome = rows_upsert_changed(
        model=GeoSubdivision, rows=[row for _, row in counties], key_fields=("key",), compare_fields=("country_id", "code", "name")
    )
    result.tally(**outcome.counts())
    county_uuids = dict(GeoSubdivision.objects.filter(key__startswith="NO-").values_list("code", "uuid"))
    rows = []
    for line, county, code, name in municipalities:
        if county not in county_uuids:
            result.reject(line=line, reason=f"county {county} of municipality {code} is neither in the file nor in the database")
            continue
        rows.append({"uuid": uuid.uuid4(), "key": f"NO-{code}", "subdivision_id": county_uuids[county], "code": code, "name": name})
    outcome = rows_upsert_changed(
        model=GeoMunicipality, rows=rows, key_fields=("key",), compare_fields=("subdivision_id", "code", "name")
    )
    result.tally(**outcome.counts())
