"""The `name_contains` query parameter of the collections that search by name (cases,
customer persons): one rule for what a search is and how long it may be."""

from __future__ import annotations

from service.errors import bad_field
from vakt_format.search import NAME_SEARCH_MAX, name_search_text


def name_search_parse(raw: str | None) -> str | None:
    """The text of a name search; blank is no search; too long is a 400 naming `name_contains`."""
    text = name_search_text(raw)
    if not text:
        return None
    if len(text) > NAME_SEARCH_MAX:
        raise bad_field(["query", "name_contains"], f"at most {NAME_SEARCH_MAX} characters")
    return text
