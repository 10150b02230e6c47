"""vakt_format.list_entries: a list entry's identifiers in words."""

from __future__ import annotations

from vakt_format.list_entries import identifier_text


def test_an_identifier_reads_with_its_kind_and_issuing_country():
    assert identifier_text(kind="passport", value="745120836", country="ru") == "Passport 745120836 (RU)"
    assert identifier_text(kind="registration", value="1027700132195", country=None) == "Registration no. 1027700132195"
    assert identifier_text(kind="vessel_call_sign", value="UBCD7", country=None) == "Vessel call sign UBCD7"
