"""Country codes: whether two letters name a country (ISO 3166-1 alpha-2), by rigour's territories.

Shared by the service, which refuses an address with an unknown country, and the dashboard, which
says so on the form before anything is saved (a customer person half added, waiting for its address).
"""

from __future__ import annotations

from rigour.territories import get_territory


def country_code_known(code: str) -> bool:
    """"NO", "se", "SJ": True; "XX", "1X", "NOR", "EU": False."""
    if len(code) != 2 or not code.isalpha():
        return False
    territory = get_territory(code.lower())
    # A country or a territory of its own (Svalbard, Hong Kong), not a union of them ("EU").
    return territory is not None and territory.code == code.lower() and (territory.is_country or territory.is_jurisdiction)
