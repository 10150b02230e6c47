"""Screening the rows of a screening file (batch_file.py) with the engine, and the result file.

One implementation for `manage.py screen_persons` and the batch jobs (batch_services.py):
`row_result` screens one row (the JSON result, keys and the engine's full explanation, for
programs); `result_csv_write` is the result CSV, for a person opening it in a spreadsheet: one
header row, then a line per hit (a row without a hit: one line), in words (columns, the list's
name, Person/Company, PEP/Sanction, Yes/No), the score and birth dates as the dashboard writes
them (0,93; 14.03.1966) and why in the case report's words (vakt_format.match_explanation).
UTF-8 with a byte order mark and CRLF, as the dashboard's CSV files (portal/csv_export.py), so
Excel reads æ, ø and å; a cell that would run as a formula is written as text.
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from service.screening.batch_file import ScreeningRow, screening_file_read
from service.screening.engine import LoadedIndex, screening_index
from vakt_format import norwegian as no
from vakt_format.match_explanation import explanation_line
from vakt_format.spreadsheet import cell_text

BEST_HITS = 3  # per row in the result
# More than BEST_HITS: hits of lists a config does not screen against are dropped after the
# search, and must not push out the ones it does.
SEARCH_LIMIT = 25
RESULT_COLUMNS = (
    "Line", "Your reference", "Kind", "Name", "Born", "Nationality", "Country", "Possible hit",
    "Hit", "List", "List type", "Source id", "Listed name", "Score", "Why",
)
KINDS = {"person": "Person", "company": "Company"}
LIST_TYPES = {"pep": "PEP", "sanction": "Sanction"}


def row_result(
    row: ScreeningRow,
    loaded: LoadedIndex,
    *,
    category_keys: Collection[str] | None = None,
    threshold: float | None = None,
    limit: int = BEST_HITS,
) -> dict:
    """The row and its best hits, best first: `{**row.as_dict(), "hits": [...]}`. With
    `category_keys`, only hits of those list categories count."""
    matches = loaded.index.search(row.query(), threshold=threshold, limit=max(SEARCH_LIMIT, limit))
    hits = []
    for match in matches:
        listed = loaded.entries[match.entity_id]
        if category_keys is not None and listed.category_key not in category_keys:
            continue
        hits.append(
            {
                "list": listed.category_key,
                "list_type": listed.list_type,
                "source_id": listed.source_id,
                "list_entry_uuid": match.entity_id,
                "matched_name": match.explanation.matched_name,
                "score": round(match.score, 4),
                "explanation": match.explanation.summary(),
                "explanation_detail": match.explanation.as_dict(),
            }
        )
        if len(hits) == limit:
            break
    return {**row.as_dict(), "hits": hits}


def list_names() -> dict[str, str]:
    """List category key -> the list's name, as the organisation's lists are named ("UN Security Council")."""
    from service.screening.models import ScreeningListCategory

    return dict(ScreeningListCategory.objects.values_list("key", "name"))


def result_csv_lines(result: dict, names: dict[str, str]) -> list[list]:
    """A row's lines of the result CSV: one per hit, best first; one with the hit columns empty without."""
    person = result["type"] != "company"
    row = [
        result["line"], cell_text(result["id"]), KINDS.get(result["type"], result["type"]), cell_text(result["name"]),
        no.partial_day(result.get("birth_date") or ""),
        ", ".join(code for code in (result.get("nationality") or "").split(";") if code), result.get("country") or "",
    ]
    hits = result["hits"]
    if not hits:
        return [[*row, "No", *[""] * 7]]
    return [
        [*row, "Yes", f"{n} of {len(hits)}", names.get(hit["list"], hit["list"]), LIST_TYPES.get(hit["list_type"], hit["list_type"]),
         cell_text(hit["source_id"]), cell_text(hit["matched_name"]), no.decimal(hit["score"], 2),
         cell_text(explanation_line(detail, person=person) if (detail := hit.get("explanation_detail")) else hit["explanation"])]
        for n, hit in enumerate(hits, start=1)
    ]


def result_csv_write(out: TextIO, results: Iterable[dict], *, names: dict[str, str]) -> None:
    """The result CSV of `results` (row_result of each row, in file order) into the text stream `out`."""
    out.write("\ufeff")  # so Excel reads the file as UTF-8 (æ, ø, å)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(RESULT_COLUMNS)
    for result in results:
        writer.writerows(result_csv_lines(result, names))


@dataclass
class FileScreenResult:
    read: int = 0
    screened: int = 0
    with_hits: int = 0
    hits: int = 0
    rejected: list[str] = field(default_factory=list)  # "line 7, birth_date: ..."

    def summary_line(self) -> str:
        return (
            f"read {self.read}, screened {self.screened}, rejected {self.read - self.screened}; "
            f"{self.with_hits} row(s) with {self.hits} possible match(es)."
        )


def persons_file_screen(
    *,
    source: Path,
    target: Path,
    category_keys: list[str] | None = None,
    threshold: float | None = None,
    limit: int = BEST_HITS,
) -> FileScreenResult:
    """Screen the persons and companies of `source` into the result CSV `target`. Rows with
    problems are reported and skipped; ScreeningFileError when the file cannot be read."""
    screening_file = screening_file_read(Path(source).read_bytes())
    loaded = screening_index(category_keys=category_keys)
    result = FileScreenResult(read=screening_file.lines_read, rejected=[p.text() for p in screening_file.problems])
    def screened_rows():
        for row in screening_file.rows:
            screened = row_result(row, loaded, threshold=threshold, limit=limit)
            result.screened += 1
            if screened["hits"]:
                result.with_hits += 1
                result.hits += len(screened["hits"])
            yield screened

    with open(target, "w", newline="", encoding="utf-8") as out:
        result_csv_write(out, screened_rows(), names=list_names())
    return result
