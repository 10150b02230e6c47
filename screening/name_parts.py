"""A name cut into its words, each marked from the engine's explanation: matched exactly, matched
as a near spelling (typo, variant, phonetic, initial, script), or without a partner in the other name.

The explanation names parts in the engine's comparison form (lower-case ASCII, "dragunov");
a word of the name as written ("DRAGUNOV", "Mohammed", "Sørensen") is folded the same way to
find its part. A glued pair ("patr ushev") marks each of its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rigour.text import ascii_text

from portal.service.explanation import Explanation
from vakt_format import norwegian as no
from vakt_format.match_explanation import reason_words

_WORDS = re.compile(r"([^\W_]+(?:['’][^\W_]+)*)")  # words, keeping apostrophes inside (O'Brien)


@dataclass(frozen=True, slots=True)
class NamePart:
    text: str
    kind: str  # "", "match", "near" or "unmatched"
    title: str = ""


def fold(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", ascii_text(word).lower())


def _partners(explanation: Explanation, side: str) -> dict[str, tuple[str, float, str]]:
    """Each folded part of one side -> (its partner on the other side, similarity, reason)."""
    partners: dict[str, tuple[str, float, str]] = {}
    for part in explanation.aligned:
        own, other = (part.query, part.listed) if side == "query" else (part.listed, part.query)
        for piece in own.split():
            partners.setdefault(fold(piece), (other, part.similarity, part.reason))
    return partners


def name_parts(name: str, explanation: Explanation, *, side: str) -> list[NamePart]:
    """`side`: "query" for the screened name, "listed" for the list entry's name."""
    partners = _partners(explanation, side)
    leftover = explanation.unmatched_query_parts if side == "query" else explanation.unmatched_list_parts
    unmatched = {fold(piece) for part in leftover for piece in part.split()}
    parts: list[NamePart] = []
    for index, piece in enumerate(_WORDS.split(name)):
        if not piece:
            continue
        if index % 2 == 0:  # between words: spaces, hyphens, commas
            parts.append(NamePart(piece, ""))
            continue
        key = fold(piece)
        if key in partners:
            other, similarity, reason = partners[key]
            if reason == "exact" or similarity >= 0.999:
                parts.append(NamePart(piece, "match", f"Same as “{other}” in the other name"))
            else:
                why = reason_words(reason)  # the words of the case report and the batch record
                parts.append(NamePart(piece, "near", f"Like “{other}” ({why}, similarity {no.decimal(similarity, 2)})"))
        elif key in unmatched:
            parts.append(NamePart(piece, "unmatched", "No counterpart in the other name"))
        else:
            parts.append(NamePart(piece, ""))
    return parts
