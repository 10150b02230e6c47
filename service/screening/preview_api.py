"""Extension reads that say what a config's choices cause (see preview_selectors). Need `aml`;
another organisation's config is 404."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from service.companies.ownership import ScreeningCandidate
from service.companies.references import company_ref
from service.errors import bad_field
from service.screening import preview_selectors as selectors
from service.screening.access import EXTENSION
from service.screening.config_api import config_of
from service.screening.monitoring_schemas import CompanyRefOut

router = Router(tags=["Screening setup"])

MAX_COMPANIES = 100


class SettingPreviewOut(Schema):
    screening_config_system_suggestion_setting_uuid: uuid.UUID
    screening_config_system_suggestion_setting_key: str
    description: str
    person_count: int = Field(description="Persons (monitorings) the setting would suggest")
    beneficial_owner_count: int
    alternative_beneficial_owner_count: int
    companies_without_person_count: int = Field(description="Companies for which nobody would be suggested")


class SuggestionPreviewOut(Schema):
    company_count: int = Field(description="Companies on the config's attached watchlists")
    sampled_company_count: int
    estimated_flag: bool = Field(description="true when counted on a sample and scaled to every company")
    settings: list[SettingPreviewOut]


@router.get(
    "/screening-config/{screening_config_uuid}/suggestion-preview",
    response=SuggestionPreviewOut,
    summary="Extension: what each suggestion setting would suggest",
    description=(
        "For the companies on the config's attached watchlists: how many persons each system suggestion setting "
        f"would suggest for monitoring. Above {selectors.PREVIEW_SAMPLE} companies counted on an evenly spread "
        "sample and scaled (`estimated_flag`)."
    ),
    openapi_extra=EXTENSION,
)
def suggestion_preview(request: HttpRequest, screening_config_uuid: uuid.UUID):
    preview = selectors.suggestion_preview(config=config_of(request, screening_config_uuid))
    return {
        "company_count": preview.company_count,
        "sampled_company_count": preview.sampled_company_count,
        "estimated_flag": preview.estimated_flag,
        "settings": [
            {
                "screening_config_system_suggestion_setting_uuid": s.setting_uuid,
                "screening_config_system_suggestion_setting_key": s.setting_key,
                "description": s.description,
                "person_count": s.person_count,
                "beneficial_owner_count": s.beneficial_owner_count,
                "alternative_beneficial_owner_count": s.alternative_beneficial_owner_count,
                "companies_without_person_count": s.companies_without_person_count,
            }
            for s in preview.settings
        ],
    }


class ChainLinkOut(Schema):
    holder_uuid: uuid.UUID
    holder_name: str
    holder_kind: str = Field(description="person or company")
    company_uuid: uuid.UUID
    company_name: str
    share: float = Field(description="The holder's share of the company, 0..1")


class SuggestedPersonOut(Schema):
    person_uuid: uuid.UUID
    full_name: str
    entity_monitoring_type_key: str
    company_role_type_keys: list[str] = Field(description="The person's current roles in the company itself")
    effective_share: float | None = Field(description="0..1; null when no ownership chain leads to the company")
    chains: list[list[ChainLinkOut]] = Field(description="Qualifying chains, person first, largest first")
    reason: str


class CompanySuggestionsOut(Schema):
    related_company: CompanyRefOut
    suggested_persons: list[SuggestedPersonOut]


class SuggestedQuery(Schema):
    related_company_uuid: str = Field(..., description=f"Comma-separated company uuids, at most {MAX_COMPANIES}")


def _company_uuids(raw: str) -> list[uuid.UUID]:
    loc = ["query", "related_company_uuid"]
    parts = [part.strip() for part in raw.split(",") if part.strip()]
    if not parts:
        raise bad_field(loc, "name at least one company uuid")
    if len(parts) > MAX_COMPANIES:
        raise bad_field(loc, f"at most {MAX_COMPANIES} companies at once")
    try:
        return [uuid.UUID(part) for part in parts]
    except ValueError:
        raise bad_field(loc, "must be company uuids separated by commas") from None


def _candidate_out(candidate: ScreeningCandidate) -> dict:
    return {
        "person_uuid": candidate.person_uuid,
        "full_name": candidate.full_name,
        "entity_monitoring_type_key": candidate.entity_monitoring_type_key,
        "company_role_type_keys": list(candidate.role_keys),
        "effective_share": candidate.effective_share,
        "chains": [
            [
                {
                    "holder_uuid": link.holder_uuid,
                    "holder_name": link.holder_name,
                    "holder_kind": link.holder_kind,
                    "company_uuid": link.company_uuid,
                    "company_name": link.company_name,
                    "share": link.share,
                }
                for link in chain
            ]
            for chain in candidate.chains
        ],
        "reason": candidate.reason,
    }


@router.get(
    "/screening-config/{screening_config_uuid}/suggested-person",
    response=list[CompanySuggestionsOut],
    summary="Extension: who the config's setting names for some companies, and why",
    description=(
        "For each company named in `related_company_uuid` (comma-separated, at most "
        f"{MAX_COMPANIES}), in that order: the persons the config's suggestion setting names today, with their roles "
        "in the company, their effective share and the ownership chains behind it. An unknown company is a 404 "
        "naming `related_company_uuid`."
    ),
    openapi_extra=EXTENSION,
)
def suggested_persons(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[SuggestedQuery]):
    config = config_of(request, screening_config_uuid)
    company_uuids = _company_uuids(query.related_company_uuid)
    rows = selectors.suggested_persons(config=config, company_uuids=company_uuids, loc=["query", "related_company_uuid"])
    return [
        {"related_company": company_ref(company), "suggested_persons": [_candidate_out(c) for c in candidates]}
        for company, candidates in rows
    ]
