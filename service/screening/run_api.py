"""Extension endpoint: the re-screening runs of a config (a list version's delta, a full re-screen),
with the config's part of each: how many it screened, the hits and the cases raised or moved.

What an admin or an auditor asks: when were our customers last screened against the lists, and
what came of it. A run of entities screened one by one (a monitoring approved) is not a run here.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from service.pagination import PageQuery, composite_collection
from service.screening.access import EXTENSION
from service.screening.config_api import config_of
from service.screening.models import ScreeningRun
from service.screening.run_selectors import runs_of_config

router = Router(tags=["Screening setup"])


class ScreeningRunOut(Schema):
    uuid: uuid.UUID
    screening_run_kind_key: str = Field(description="list_version (a new list version's delta) or full (every current list)")
    screening_list_category_key: str | None = Field(description="the list of a list_version run; null for full")
    list_version_number: int | None
    create_timestamp: datetime
    finished_flag: bool = Field(description="every chunk of this config's monitorings is done")
    finished_timestamp: datetime | None = Field(description="when its last chunk of this config was done")
    chunk_count: int
    chunks_done_count: int
    screened_count: int = Field(description="monitorings of this config screened")
    hit_count: int
    cases_created_count: int
    cases_moved_count: int = Field(description="open cases moved to a changed list entry")


class ScreeningRunCollection(Schema):
    elements: list[ScreeningRunOut]
    count: int
    has_more: bool


def run_out(run: ScreeningRun) -> dict:
    version = run.list_version
    finished = run.config_chunks_done == run.config_chunk_count
    return {
        "uuid": run.uuid,
        "screening_run_kind_key": run.kind,
        "screening_list_category_key": version.category.key if version else None,
        "list_version_number": version.number if version else None,
        "create_timestamp": run.created_timestamp,
        "finished_flag": finished,
        "finished_timestamp": run.config_done_at if finished else None,
        "chunk_count": run.config_chunk_count,
        "chunks_done_count": run.config_chunks_done,
        "screened_count": run.config_screened or 0,
        "hit_count": run.config_hits or 0,
        "cases_created_count": run.config_cases_created or 0,
        "cases_moved_count": run.config_cases_moved or 0,
    }


@router.get(
    "/screening-config/{screening_config_uuid}/screening-run",
    response=list[ScreeningRunCollection],
    summary="Extension: the config's re-screening runs, newest first",
    description=(
        "Each run that screened some of the config's monitorings: a list version's delta (`list_version`) or a "
        "full re-screen (`full`, weekly by the service and after a list is selected), with this config's part "
        "of it. `limit` (default 100, at most 1000) and `offset` as in rule 6."
    ),
    openapi_extra=EXTENSION,
)
def run_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[PageQuery]):
    config = config_of(request, screening_config_uuid)
    return composite_collection(runs_of_config(config=config), query.page(), run_out, ordering=("-created_timestamp", "-uuid"))
