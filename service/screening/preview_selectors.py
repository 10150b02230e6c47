"""What a config's suggestion settings would cause, before anyone chooses (extension reads).

Both answers come from `service.companies.ownership.persons_to_screen`, the one rule that
also feeds the monitorings (`subscription`), so a preview never disagrees with what the
sync later suggests:

- `suggestion_preview`: for each system setting, how many persons the companies on the
  config's attached watchlists would get suggested. Above `PREVIEW_SAMPLE` companies the
  count is taken on an evenly spread sample and scaled (`estimated_flag`), so the page
  stays fast for a watchlist of thousands.
- `suggested_persons`: the persons the config's current setting names for some companies,
  with their roles, effective share and the ownership chains behind it.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from service.companies.models import Company
from service.companies.ownership import ScreeningCandidate, persons_to_screen
from service.screening.access import not_found
from service.screening.config_selectors import suggestion_settings_list
from service.screening.models import ScreeningConfig
from service.screening.subscription import watched_companies

PREVIEW_SAMPLE = 200  # companies computed exactly; beyond, a sample scaled up


@dataclass(frozen=True)
class SettingPreview:
    setting_uuid: uuid.UUID
    setting_key: str
    description: str
    person_count: int
    beneficial_owner_count: int
    alternative_beneficial_owner_count: int
    companies_without_person_count: int


@dataclass(frozen=True)
class SuggestionPreview:
    company_count: int
    sampled_company_count: int
    estimated_flag: bool
    settings: tuple[SettingPreview, ...]


def _spread_sample(items: list, size: int) -> list:
    if len(items) <= size:
        return items
    step = len(items) / size
    return [items[int(i * step)] for i in range(size)]


def suggestion_preview(*, config: ScreeningConfig, sample_size: int = PREVIEW_SAMPLE) -> SuggestionPreview:
    companies = sorted(watched_companies(config=config), key=str)
    sample = _spread_sample(companies, sample_size)
    scale = len(companies) / len(sample) if sample else 0
    previews = []
    for setting in suggestion_settings_list():
        types: Counter[str] = Counter()
        empty = 0
        for company_uuid in sample:
            candidates = persons_to_screen(company_uuid=company_uuid, setting_key=setting.key)
            types.update(c.entity_monitoring_type_key for c in candidates)
            empty += not candidates
        previews.append(
            SettingPreview(
                setting_uuid=setting.uuid,
                setting_key=setting.key,
                description=setting.description,
                person_count=round(sum(types.values()) * scale),
                beneficial_owner_count=round(types["beneficial_owners"] * scale),
                alternative_beneficial_owner_count=round(types["alternative_beneficial_owners"] * scale),
                companies_without_person_count=round(empty * scale),
            )
        )
    return SuggestionPreview(
        company_count=len(companies),
        sampled_company_count=len(sample),
        estimated_flag=len(sample) < len(companies),
        settings=tuple(previews),
    )


def suggested_persons(
    *, config: ScreeningConfig, company_uuids: Sequence[uuid.UUID], loc: list
) -> list[tuple[Company, list[ScreeningCandidate]]]:
    """The persons the config's setting names for each company, in the order asked.
    An unknown company is a 404 naming `loc`."""
    wanted = list(dict.fromkeys(company_uuids))
    companies = Company.objects.only("uuid", "name", "org_nr", "org_nr_schema").in_bulk(wanted)
    for company_uuid in wanted:
        if company_uuid not in companies:
            raise not_found("company", company_uuid, loc)
    setting_key = config.suggestion_setting.key
    return [(companies[c], persons_to_screen(company_uuid=c, setting_key=setting_key)) for c in wanted]
