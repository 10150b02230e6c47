"""The shapes the matching engine reads and writes.

List importers convert their formats into `ListEntity`; screening code builds a
`PersonQuery` per screened person and gets `Match` objects back, each with an
`Explanation` a compliance reviewer can read at a glance.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True, slots=True)
class ListName:
    """One name of a listed entity; "weak" marks a low-quality alias."""

    name: str
    quality: str = "strong"  # "strong" | "weak"


@dataclass(slots=True)
class ListEntity:
    """A person or organisation as it appears on a sanction or PEP list."""

    id: str
    schema: str  # "Person" | "Organization"
    names: list[ListName]
    birth_dates: list[str] = field(default_factory=list)  # partial ISO: "1970", "1970-05", "1970-05-12"
    nationalities: list[str] = field(default_factory=list)  # ISO 3166 alpha-2, lowercase
    gender: str | None = None  # "male" | "female" | None


@dataclass(slots=True)
class PersonQuery:
    """The screened party: a customer, owner or officer."""

    name: str
    birth_date: str | None = None
    nationalities: list[str] = field(default_factory=list)
    gender: str | None = None
    schema: str = "Person"


@dataclass(slots=True)
class AlignedPart:
    """A query name part paired with a list name part, and why they count as alike."""

    query: str
    listed: str
    similarity: float
    reason: str  # "exact", "typo", "variant", "phonetic", "initial", "joined", "script"


@dataclass(slots=True)
class Explanation:
    """Per-feature contributions to a match score, in the order they were applied."""

    query_name: str
    matched_name: str
    matched_name_quality: str
    name_score: float
    birth_date_adjustment: float
    nationality_adjustment: float
    gender_adjustment: float
    final: float
    aligned: list[AlignedPart] = field(default_factory=list)
    unmatched_query_parts: list[str] = field(default_factory=list)
    unmatched_list_parts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        """One sentence: which names matched how well, and what moved the score."""
        pairs = ", ".join(
            part.query if part.query == part.listed else f"{part.query}~{part.listed}"
            for part in self.aligned
        )
        sentence = (
            f"'{self.query_name}' vs '{self.matched_name}': name {self.name_score:.2f}"
            + (f" ({pairs})" if pairs else "")
        )
        if self.unmatched_list_parts:
            sentence += f"; list name also has {' '.join(self.unmatched_list_parts)}"
        if self.unmatched_query_parts:
            sentence += f"; query also has {' '.join(self.unmatched_query_parts)}"
        for label, value in (
            ("birth date", self.birth_date_adjustment),
            ("nationality", self.nationality_adjustment),
            ("gender", self.gender_adjustment),
        ):
            if value:
                sentence += f"; {label} {value:+.2f}"
        return sentence + f"; final {self.final:.2f}."


@dataclass(slots=True)
class Match:
    entity_id: str
    score: float
    explanation: Explanation
