"""The engine's explanation of a hit, as a case stores it and a batch job's JSON result gives it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AlignedPart:
    query: str  # lower-case comparison form of the screened name's part(s)
    listed: str
    similarity: float
    reason: str  # exact, typo, variant, phonetic, initial, joined, script


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why the engine scored a hit as it did."""

    query_name: str
    matched_name: str
    matched_name_quality: str
    name_score: float | None
    birth_date_adjustment: float | None
    nationality_adjustment: float | None
    gender_adjustment: float | None
    aligned: tuple[AlignedPart, ...]
    unmatched_query_parts: tuple[str, ...]
    unmatched_list_parts: tuple[str, ...]
    notes: tuple[str, ...]

    @classmethod
    def from_json(cls, data: dict) -> Explanation:
        def number(key):
            value = data.get(key)
            return float(value) if value is not None else None

        return cls(
            query_name=data.get("query_name") or "",
            matched_name=data.get("matched_name") or "",
            matched_name_quality=data.get("matched_name_quality") or "",
            name_score=number("name_score"),
            birth_date_adjustment=number("birth_date_adjustment"),
            nationality_adjustment=number("nationality_adjustment"),
            gender_adjustment=number("gender_adjustment"),
            aligned=tuple(
                AlignedPart(p.get("query") or "", p.get("listed") or "", float(p.get("similarity") or 0), p.get("reason") or "")
                for p in data.get("aligned") or []
            ),
            unmatched_query_parts=tuple(data.get("unmatched_query_parts") or ()),
            unmatched_list_parts=tuple(data.get("unmatched_list_parts") or ()),
            notes=tuple(data.get("notes") or ()),
        )
