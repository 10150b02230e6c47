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


# A closed case's outcome is its latest review's status (DESIGN.md: a case is complete only after a
# confirmed_hit or a false_positive review; a four-eyes proposal leaves it ongoing, so it is never here).
CLOSED_OUTCOMES = {"confirmed_hit": "confirmed hit", "false_positive": "false positive"}
PROPOSAL_WORDS = "Hit proposed · needs 2nd officer"  # a four-eyes confirmed hit awaiting a second officer


def case_status_text(status_key: str, latest_review_key: str = "") -> str:
    """The status with a closed case's outcome: "Closed: confirmed hit", "Closed: false positive";
    an open case's status as `case_status_word` ("In review")."""
    outcome = CLOSED_OUTCOMES.get(latest_review_key) if status_key == "complete" else None
    return f"{case_status_word(status_key)}: {outcome}" if outcome else case_status_word(status_key)


def case_outcome_title(status_key: str, latest_review_key: str = "") -> str:
    """The tooltip of `case_status_text`: a closed case's outcome in a sentence, else `case_status_title`."""
    outcome = CLOSED_OUTCOMES.get(latest_review_key) if status_key == "complete" else None
    return f"Closed as a {outcome} · API status {status_key}" if outcome else case_status_title(status_key)


def escalated_words(four_eyes: bool) -> str:
    """An open case whose latest review escalated it, beside its status "In review"."""
    return "Escalated · needs 2nd officer" if four_eyes else "Escalated"
