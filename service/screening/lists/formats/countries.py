"""Country names and codes as lists write them, to ISO 3166-1 alpha-2 codes."""

from __future__ import annotations

from functools import lru_cache

from rigour.territories import lookup_territory

from .entry import Warn, clean_text

# Placeholders that would otherwise be read as real codes ("na" is Namibia).
_NOT_GIVEN = {"", "na", "n/a", "-", "unknown", "none"}


@lru_cache(maxsize=4096)
def country_code(text: str | None) -> str | None:
    """Lowercase alpha-2 code for a name ("Korea, North"), a demonym
    ("Eritrean") or a code ("RU", "RUS"); None when unknown or not a country
    code of two letters (e.g. "former Soviet Union", whose code is "suhh")."""
    value = clean_text(text)
    if value.lower() in _NOT_GIVEN:
        return None
    territory = lookup_territory(value)
    if territory is None or len(territory.code) != 2:
        return None
    return territory.code


def read_country(text: str | None, warn: Warn) -> str | None:
    """`country_code`, warning about a value that was given but is not known."""
    code = country_code(text)
    if code is None and clean_text(text).lower() not in _NOT_GIVEN:
        warn(f"country not recognised: {clean_text(text)!r}")
    return code
