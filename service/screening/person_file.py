"""Screening the rows of a screening file (batch_file.py) with the engine, and the result file.

One implementation for `manage.py screen_persons` and the batch jobs (batch_services.py):
`row_result` screens one row, `RESULT_COLUMNS` / `result_csv_row` are the result CSV, one
line per input row with its best hits (list, source id, matched name, score, explanation).
"""

from __future__ import annotations

import csv
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from service.screening.batch_file import ScreeningRow, screening_file_read
from service.screening.engine import LoadedIndex, screening_index
from vakt_format.spreadsheet import cell_text

BEST_HITS = 3  # per row in the result
# More than BEST_HITS: hits of lists a config does not screen against are dropped after the
# search, and must not push out the ones it does.
SEARCH_LIMIT = 25
ROW_COLUMNS = ("line", "type", "id", "name", "birth_date", "nationality", "country")
HIT_FIELDS = ("list", "list_type", "source_id", "matched_name", "score", "explanation")
RESULT_COLUMNS = (
    *ROW_COLUMNS,
    "hit_count",
    *(f"hit_{n}_{name}" for n in range(1, BEST_HITS + 1) for name in HIT_FIELDS),
)


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


def result_csv_row(result: dict) -> dict:
    out = {column: cell_text(result[column]) for column in ROW_COLUMNS}
    out["line"] = result["line"]
    out["hit_count"] = len(result["hits"])
    for n, hit in enumerate(result["hits"][:BEST_HITS], start=1):
        for name in HIT_FIELDS:
            value = f"{hit['score']:.3f}" if name == "score" else cell_text(hit[name])
            out[f"hit_{n}_{name}"] = value
    return out


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
    with open(target, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=RESULT_COLUMNS)
        writer.writeheader()
        for row in screening_file.rows:
            screened = row_result(row, loaded, threshold=threshold, limit=limit)
            result.screened += 1
            if screened["hits"]:
                result.with_hits += 1
                result.hits += len(screened["hits"])
            writer.writerow(result_csv_row(screened))
    return result
