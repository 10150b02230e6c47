"""GET the number of a config's screening cases per status and PEP / sanction hit (extension).
Needs `aml`; another organisation's config is 404."""

from __future__ import annotations

import uuid

from django.http import HttpRequest
from ninja import Field, Router, Schema

from service.screening.access import EXTENSION
from service.screening.case_count_selectors import case_counts
from service.screening.config_api import config_of

router = Router(tags=["Screening cases"])


class StatusCountOut(Schema):
    screening_case_status_key: str = Field(description="pending, ongoing or complete")
    count: int
    pep_count: int = Field(description="Of these, PEP hits")
    sanction_count: int = Field(description="Of these, sanction hits (a case may be both)")


class CaseCountOut(Schema):
    screening_config_uuid: uuid.UUID
    count: int = Field(description="Every case of the config")
    screening_case_status_counts: list[StatusCountOut] = Field(description="pending, ongoing, complete; zeros too")


@router.get(
    "/screening-config/{screening_config_uuid}/screening-case-count",
    response=CaseCountOut,
    summary="Extension: the number of screening cases per status",
    description="One grouped count, for overviews: per case status, with how many are PEP and sanction hits.",
    openapi_extra=EXTENSION,
)
def case_count(request: HttpRequest, screening_config_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    counts = case_counts(config=config)
    return {
        "screening_config_uuid": config.uuid,
        "count": sum(c.count for c in counts),
        "screening_case_status_counts": [
            {
                "screening_case_status_key": c.status_key,
                "count": c.count,
                "pep_count": c.pep_count,
                "sanction_count": c.sanction_count,
            }
            for c in counts
        ],
    }
