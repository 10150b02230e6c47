"""When two customer persons are most likely one customer: the same name, in any case and with
runs of spaces as one, and the same birth date (both without one counts as the same). The
dashboard's add form warns of such a twin; the service's file import takes the row to be that
customer (service/screening/person_import.py)."""

from __future__ import annotations

from datetime import date


def customer_person_key(full_name: str, birth_date: date | None) -> tuple[str, date | None]:
    """What two records of one customer have in common (equal keys: most likely one customer)."""
    return " ".join(full_name.split()).casefold(), birth_date
