"""A national id shown without repeating it whole: the schema and the birth-date digits, the rest
hidden. One rule for the service's messages, the dashboard's pages and the audit log."""

from __future__ import annotations


def national_id_masked(schema: str, number: str) -> str:
    """"NO 151086*****": the birth-date digits kept, DDMMYY (NO, DK, or a number of unknown schema)
    or YYYYMMDD for a Swedish number stored with its century."""
    shown = 8 if schema == "SE" and len(number) == 12 else 6
    return f"{schema} {number[:shown]}{'*' * len(number[shown:])}".strip()
