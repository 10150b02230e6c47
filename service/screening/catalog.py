"""The screening list categories the service knows out of the box.

`list_categories_ensure()` keeps them in the database after every migrate.
More categories (another OpenSanctions dataset, a national list) can be
created with `import_screening_list --category KEY --create ...`.
"""

from __future__ import annotations

# key: (name, description, list type, source format)
LIST_CATEGORIES = {
    "un_security_council": (
        "UN Security Council Consolidated List",
        "Individuals and entities subject to UN Security Council sanctions (asset freeze, travel ban, arms embargo).",
        "sanction",
        "un_xml",
    ),
    "us_ofac_sdn": (
        "US OFAC Specially Designated Nationals",
        "The US Treasury's SDN list: blocked persons, entities and vessels.",
        "sanction",
        "ofac_csv",
    ),
    "eu_financial_sanctions": (
        "EU Consolidated Financial Sanctions",
        "Persons, groups and entities subject to EU financial sanctions.",
        "sanction",
        "eu_csv",
    ),
    "pep": (
        "Politically exposed persons",
        "Persons holding or having held prominent public functions, with family and close associates.",
        "pep",
        "senzing_json",
    ),
}

# The category a format's file goes to when no category is named.
DEFAULT_CATEGORY_FOR_FORMAT = {
    "un_xml": "un_security_council",
    "ofac_csv": "us_ofac_sdn",
    "eu_csv": "eu_financial_sanctions",
    "senzing_json": "pep",
}


def list_categories_ensure() -> None:
    from service.key_rows import key_rows_ensure
    from service.screening.models import ScreeningListCategory

    key_rows_ensure(ScreeningListCategory, {
        key: {"name": name, "description": description, "list_type": list_type, "source_format": source_format}
        for key, (name, description, list_type, source_format) in LIST_CATEGORIES.items()
    })


# --- screening setup keys (spec §2.8; DESIGN.md) -----------------------------------------
# Seeded by migration 0002 and kept by `screening_catalog_ensure()` after every migrate.

SUGGESTION_SETTINGS = {
    "enin_calculated_beneficial_owners": (
        "Beneficial owners (at least 25% in every link of an ownership chain), or the board "
        "(alternative beneficial owners) when nobody qualifies."
    ),
    "enin_calculated_extended_beneficial_owners": (
        "Beneficial owners, the current board, persons with signature rights and persons with procuration."
    ),
}

ENTITY_MONITORING_TYPES = {
    "beneficial_owners": "A beneficial owner of the related company",
    "alternative_beneficial_owners": "Board or management standing in when no beneficial owner qualifies",
    "other": "A person not connected to a company (a customer person)",
    "company": "The company itself, screened by its own name",
}

GENDERS = {"female": "Female", "male": "Male", "unknown": "Unknown or not stated"}

PERSON_LOCATION_TYPES = {
    "residence": "Where the person lives",
    "postal_address": "Where the person receives mail",
    "place_of_birth": "Where the person was born",
}

# DESIGN.md, review keys. The case status follows the latest review's status.
SCREENING_CASE_REVIEW_STATUSES = {
    "in_review": "A reviewer is looking at the case",
    "escalated": "Handed on for a second opinion",
    "confirmed_hit": "The screened entity is the listed one",
    "false_positive": "The screened entity is not the listed one",
}

ENTITY_MATCH_DECISION_TYPES = {
    "match": "The persons or companies are the same",
    "no_match": "The persons or companies are different",
    "possible_match": "Not decided: they may be the same",
}


def screening_catalog_ensure(apps=None) -> None:
    """The screening setup keys in the database (idempotent). `apps` is a migration's
    historical registry, or None for the current models."""
    from django.apps import apps as current_apps

    from service.key_rows import key_rows_ensure

    registry = apps or current_apps
    tables = (
        ("ScreeningConfigSystemSuggestionSetting", SUGGESTION_SETTINGS),
        ("EntityMonitoringType", ENTITY_MONITORING_TYPES),
        ("Gender", GENDERS),
        ("PersonLocationType", PERSON_LOCATION_TYPES),
        ("ScreeningCaseReviewStatus", SCREENING_CASE_REVIEW_STATUSES),
        ("EntityMatchDecisionType", ENTITY_MATCH_DECISION_TYPES),
    )
    for model_name, keys in tables:
        try:
            model = registry.get_model("service_screening", model_name)
        except LookupError:  # an earlier migration's registry: a later migration seeds it
            continue
        key_rows_ensure(model, {key: {"description": description} for key, description in keys.items()})
