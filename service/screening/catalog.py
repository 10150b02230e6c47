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
    from service.screening.models import ScreeningListCategory

    for key, (name, description, list_type, source_format) in LIST_CATEGORIES.items():
        ScreeningListCategory.objects.update_or_create(
            key=key,
            defaults={
                "name": name,
                "description": description,
                "list_type": list_type,
                "source_format": source_format,
            },
        )
