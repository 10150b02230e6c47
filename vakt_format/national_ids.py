"""A national id shown without repeating it whole: the schema and the birth-date digits, the rest
hidden. One rule for the service's messages, the dashboard's pages and the audit log."""

from __future__ import annotations

import re

# A number written as a Nordic national id is (NO 11 digits; SE and DK 10, SE also 12; a dash or a
# plus after the birth date, a space in a Norwegian one).
NATIONAL_ID_SHAPE = re.compile(r"(?<!\d)(?:\d{8}[-+]?\d{4}|\d{6}[-+ ]?\d{4,5})(?!\d)")


def national_id_masked(schema: str, number: str) -> str:
    """"NO 151086*****": the birth-date digits kept, DDMMYY (NO, DK, SE without its century) or
    YYYYMMDD for a Swedish number with its century (the only national id of 12 digits, so also when
    the schema is not known)."""
    shown = 8 if len(number) == 12 else 6
    return f"{schema} {number[:shown]}{'*' * len(number[shown:])}".strip()


def national_ids_masked_in(text: str) -> str:
    """Every number in a text written as a national id, masked (one typed into a reason or a comment)."""
    return NATIONAL_ID_SHAPE.sub(lambda m: national_id_masked("", re.sub(r"\D", "", m.group())), text)
