"""A screening case's status in the words users read, the same on every page, file and report.

The API names three statuses (spec §3: `pending`, `ongoing`, `complete`); users read the words of a
case's life (DOMAIN.md) that the review form also uses: a new case, taken up (in review; an escalated
case is in review too, with its own badge), closed (a false positive or a confirmed hit). The
API's key stays in the tooltip, for whoever compares a page with the API or an integration.
"""

from __future__ import annotations

CASE_STATUS_WORDS = {
    "pending": ("New", "No review yet"),
    "ongoing": ("In review", "Taken up (in review or escalated), not closed yet"),
    "complete": ("Closed", "Closed as a false positive or a confirmed hit"),
}


def case_status_word(status_key: str) -> str:
    """"ongoing" -> "In review"; a key not known here as words of its own."""
    return CASE_STATUS_WORDS.get(status_key, (status_key.replace("_", " ").capitalize(), ""))[0]


def case_status_title(status_key: str) -> str:
    """The tooltip: what the word means, and the API's status key."""
    meaning = CASE_STATUS_WORDS.get(status_key, ("", ""))[1]
    return f"{meaning} · API status {status_key}" if meaning else f"API status {status_key}"
