"""Name helpers shared by parsers of lists that do not mark scripts."""

from __future__ import annotations

from rigour.text.scripts import is_latin

from .entry import ORIGINAL_SCRIPT


def kind_for_script(name: str, latin_kind: str) -> str:
    """Names outside the Latin alphabet are filed as original script, so a
    matcher can compare them with transliteration in mind."""
    return latin_kind if is_latin(name) else ORIGINAL_SCRIPT
