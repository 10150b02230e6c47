"""The engine's explanation of a hit in the words a reviewer reads, the same on every page, file and report.

One formatter for the case report and the batch record (PDFs), the batch result CSV and the words of
the batch page (the near-spelling reasons, an adjustment "agrees +0,10", as the case page's badges say them): how the name parts
were aligned, the name similarity, and whether the birth date, nationality and gender agree. It reads
the explanation as a case stores it and a batch result gives it (the engine's `Explanation.as_dict()`),
never the engine's one-sentence summary, which is written for developers.
"""

from __future__ import annotations

from vakt_format.norwegian import DASH, decimal

REASON_WORDS = {
    "exact": "the same",
    "typo": "a typo apart",
    "variant": "a known variant",
    "phonetic": "sounds alike",
    "initial": "an initial",
    "joined": "written joined or split",
    "script": "the same in another script",
}
WEAK_ALIAS = "an alias of low quality"


def reason_words(reason: str) -> str:
    return REASON_WORDS.get(reason, reason.replace("_", " "))


def adjustment_verdict(value) -> str:
    """What an adjustment's sign says: "agrees" (it raised the score), "differs" (it lowered it), or ""
    (none, or no effect). The one rule of the case page, the queue and every file."""
    if not value:
        return ""
    return "agrees" if value > 0 else "differs"


def adjustment_text(value) -> str:
    """What a birth date, nationality or gender did to the score: "agrees +0,10", "differs -0,05", "no effect"."""
    if value is None:
        return DASH
    verdict = adjustment_verdict(value)
    return f"{verdict} {'+' if value > 0 else ''}{decimal(value, 2)}" if verdict else "no effect"


def aligned_part_text(part: dict) -> str:
    """ "ivan = ivan", "sergeevich ~ sergeyevich (a typo apart, 0,95)"."""
    if part.get("reason") == "exact" or (part.get("similarity") or 0) >= 0.999:
        return f"{part.get('query', '')} = {part.get('listed', '')}"
    return f"{part.get('query', '')} ~ {part.get('listed', '')} ({reason_words(part.get('reason') or '')}, {decimal(part.get('similarity'), 2)})"


def aligned_rows(explanation: dict) -> list[tuple[str, str, str, str]]:
    """Each aligned pair: the screened name's part, the listed name's, the similarity and why they are alike."""
    return [(p.get("query", ""), p.get("listed", ""), decimal(p.get("similarity"), 2), reason_words(p.get("reason") or ""))
            for p in explanation.get("aligned") or []]


def explanation_facts(explanation: dict | None, *, compact: bool = False, person: bool = True) -> list[tuple[str, str]]:
    """The explanation as (label, text) lines.

    In full (a case report, beside its table of aligned_rows): the names compared, the name similarity and
    each adjustment. `compact` (a hit among many: the batch record, the result CSV): the aligned parts
    follow the name similarity, a gender that did not move the score is left out, and with `person=False`
    (a company: no birth date, nationality or gender) so are the adjustments."""
    e = explanation or {}
    weak = e.get("matched_name_quality") == "weak"
    facts: list[tuple[str, str]] = []
    if not compact:
        facts.append(("Compared names", f"{e.get('query_name') or DASH}  vs  {e.get('matched_name') or DASH}"
                      + (f" ({WEAK_ALIAS})" if weak else "")))
    facts.append(("Name similarity", decimal(e.get("name_score"), 2)))
    if compact and e.get("aligned"):
        facts.append(("Aligned name parts", ", ".join(aligned_part_text(p) for p in e["aligned"])))
    if person or not compact:
        for label, key in (("Birth date", "birth_date_adjustment"), ("Nationality", "nationality_adjustment"),
                           ("Gender", "gender_adjustment")):
            if not compact or key != "gender_adjustment" or e.get(key):
                facts.append((label, adjustment_text(e.get(key))))
    if e.get("unmatched_query_parts"):
        facts.append(("Only in the screened name", " ".join(e["unmatched_query_parts"])))
    if e.get("unmatched_list_parts"):
        facts.append(("Only in the listed name", " ".join(e["unmatched_list_parts"])))
    notes = list(e.get("notes") or []) + ([f"the listed name is {WEAK_ALIAS}"] if compact and weak else [])
    if notes:
        facts.append(("Notes", "; ".join(notes)))
    return facts


def explanation_line(explanation: dict | None, *, person: bool = True) -> str:
    """The compact facts on one line, for a spreadsheet cell: "Name similarity: 0,93 · Aligned name parts:
    ivan = ivan, sergeevich ~ sergeyevich (a typo apart, 0,95) · Birth date: agrees +0,10 · Nationality: no effect"."""
    return " · ".join(f"{label}: {text}" for label, text in explanation_facts(explanation, compact=True, person=person))
