"""A text cell of a CSV file a person opens in a spreadsheet.

A cell starting with =, +, -, @, a tab or a carriage return is run as a formula by Excel and
LibreOffice (CSV injection); names, labels and comments come from users and uploaded files,
so such a cell gets a leading apostrophe, which spreadsheets show as text and do not keep.
"""

from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell_text(value) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text
