"""A monitoring's reason as a person reads it, in the dashboard and in the case report PDF.

A monitoring the service made (a suggestion, or one approved automatically) carries the
service's reason as its comment, an English API value ("Owns 31.0% of Nordlys AS directly");
it is shown with its percentages the Norwegian way, as the figures beside it. A comment a
person typed (origin `user` or `api`) is shown as typed.
"""

from __future__ import annotations

from vakt_format.norwegian import percents_in_text

# Why a person or company is monitored for a company (the monitoring's type), in the same words on the
# dashboard's pages and in the case report PDF.
MONITORING_TYPE_WORDS = {
    "beneficial_owners": "Beneficial owner",
    "alternative_beneficial_owners": "Standing in for the owners",
    "company": "The company itself",
    "other": "Customer person",
}

SERVICE_ORIGINS = frozenset({"suggestion", "auto_approve"})  # the service wrote the comment


def reason_text(comment: str, origin_key: str) -> str:
    return percents_in_text(comment) if origin_key in SERVICE_ORIGINS else comment
