"""A name search's text, read the same way by the service (`name_contains`) and by the dashboard's
search box (`?q=`), so the box shows exactly what is searched."""

from __future__ import annotations

NAME_SEARCH_MAX = 200  # characters; the service answers a longer search with a 400


def name_search_text(raw: str | None) -> str:
    """Runs of white space become one space, and none at either end; blank is no search ("")."""
    return " ".join((raw or "").split())
