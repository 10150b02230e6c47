"""What a list entry gives beside its names, in the words of the case page and the case report:
an identifier ("Passport 745120836 (RU)"), its registration numbers. One rule for both."""

from __future__ import annotations

IDENTIFIER_WORDS = {
    "passport": "Passport",
    "national_id": "National id",
    "tax_id": "Tax id",
    "registration": "Registration no.",
    "imo": "IMO",
    "mmsi": "MMSI",
    "bic": "BIC",
    "other": "Id",
}
REGISTRATION_KINDS = ("registration", "tax_id")  # what stands beside a screened company's organisation number


def identifier_text(*, kind: str, value: str, country: str | None) -> str:
    """"Passport 745120836 (RU)": the kind in words, the number as listed, the issuing country when given."""
    words = IDENTIFIER_WORDS.get(kind, kind.replace("_", " ").capitalize() or "Id")
    return f"{words} {value}" + (f" ({country.upper()})" if country else "")
