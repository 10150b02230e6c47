"""Screening a CSV file of persons against the current lists (the engine on its own)."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from service.screening.engine import screening_index
from service.screening.lists.formats.countries import country_code
from service.screening.matching.types import PersonQuery

PARTIAL_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
NAME_COLUMNS = ("name", "full_name")
OUTPUT_COLUMNS = (
    "line",
    "person_id",
    "person_name",
    "birth_date",
    "category",
    "list_type",
    "source_id",
    "listed_name",
    "score",
    "explanation",
    "explanation_json",
)


@dataclass
class PersonFileResult:
    read: int = 0
    screened: int = 0
    with_matches: int = 0
    matches: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def summary_line(self) -> str:
        return (
            f"read {self.read}, screened {self.screened}, rejected {len(self.rejected)}; "
            f"{self.with_matches} person(s) with {self.matches} possible match(es)."
        )


def _persons(rows: Iterable[dict], result: PersonFileResult) -> Iterator[tuple[int, dict, PersonQuery]]:
    for line, row in enumerate(rows, start=2):  # line 1 is the header
        result.read += 1
        name = next((row[c].strip() for c in NAME_COLUMNS if (row.get(c) or "").strip()), "")
        if not name:
            result.rejected.append((line, "no name"))
            continue
        birth_date = (row.get("birth_date") or "").strip() or None
        if birth_date and not PARTIAL_DATE.match(birth_date):
            result.rejected.append((line, f"birth_date {birth_date!r} is not YYYY, YYYY-MM or YYYY-MM-DD"))
            continue
        nationalities = []
        for raw in re.split(r"[;,]", row.get("nationality") or ""):
            if raw.strip():
                code = country_code(raw)
                if code is None:
                    result.rejected.append((line, f"nationality {raw.strip()!r} is not a known country"))
                    break
                nationalities.append(code)
        else:
            gender = (row.get("gender") or "").strip().lower() or None
            yield line, row, PersonQuery(name=name, birth_date=birth_date, nationalities=nationalities, gender=gender)


def persons_file_screen(
    *,
    source: Path,
    target: Path,
    category_keys: list[str] | None = None,
    threshold: float | None = None,
    limit: int = 5,
) -> PersonFileResult:
    loaded = screening_index(category_keys=category_keys)
    result = PersonFileResult()
    with open(source, newline="", encoding="utf-8-sig") as inp, open(target, "w", newline="", encoding="utf-8") as out:
        reader = csv.DictReader(inp)
        if not reader.fieldnames or not set(NAME_COLUMNS) & set(reader.fieldnames):
            raise ValueError(f"{source.name}: the header needs a 'name' column (and may have birth_date, nationality, gender, id)")
        writer = csv.DictWriter(out, fieldnames=OUTPUT_COLUMNS)
        writer.writeheader()
        for line, row, query in _persons(reader, result):
            result.screened += 1
            matches = loaded.index.search(query, threshold=threshold, limit=limit)
            if matches:
                result.with_matches += 1
                result.matches += len(matches)
            for match in matches:
                listed = loaded.entries[match.entity_id]
                writer.writerow(
                    {
                        "line": line,
                        "person_id": row.get("id", ""),
                        "person_name": query.name,
                        "birth_date": query.birth_date or "",
                        "category": listed.category_key,
                        "list_type": listed.list_type,
                        "source_id": listed.source_id,
                        "listed_name": match.explanation.matched_name,
                        "score": f"{match.score:.3f}",
                        "explanation": match.explanation.summary(),
                        "explanation_json": json.dumps(match.explanation.as_dict(), ensure_ascii=False),
                    }
                )
    return result

