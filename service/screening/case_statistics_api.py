"""Extension endpoint: the config's cases month by month and the open ones by age
(`case_statistics`). Needs `aml`; another organisation's config is 404."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from service.screening.access import EXTENSION
from service.screening.case_api import ENTITY_KEY_HELP, entity_key_parse
from service.screening.case_statistics import MAX_MONTHS, CaseStatistics, case_statistics
from service.screening.config_api import config_of

router = Router(tags=["Screening cases"])


class StatisticsQuery(Schema):
    months: int = Field(12, ge=1, le=MAX_MONTHS, description=f"calendar months up to this one (1 to {MAX_MONTHS})")
    inquiry_entity_key: str | None = Field(None, description=ENTITY_KEY_HELP)


class MonthOut(Schema):
    month: str = Field(description="YYYY-MM, on the service's clock (Europe/Oslo)")
    raised_count: int = Field(description="cases created in the month")
    raised_sanction_count: int
    raised_pep_count: int
    closed_false_positive_count: int = Field(description="cases whose latest review, made in the month, is false_positive")
    closed_confirmed_hit_count: int = Field(description="cases whose latest review, made in the month, is confirmed_hit")
    median_days_to_close: float | None = Field(description="from creation to that review, over the month's closed cases")


class CaseStatisticsOut(Schema):
    months: list[MonthOut] = Field(description="oldest first; every month of the period, with zeros when quiet")
    median_days_to_close: float | None = Field(description="over every case closed in the period")
    open_count: int = Field(description="cases not complete now")
    open_under_7_days_count: int
    open_7_to_30_days_count: int
    open_over_30_days_count: int
    oldest_open_create_timestamp: datetime | None


def statistics_out(statistics: CaseStatistics) -> dict:
    opened = statistics.open
    return {
        "months": [
            {
                "month": month.month.strftime("%Y-%m"),
                "raised_count": month.raised,
                "raised_sanction_count": month.raised_sanction,
                "raised_pep_count": month.raised_pep,
                "closed_false_positive_count": month.closed_false_positive,
                "closed_confirmed_hit_count": month.closed_confirmed_hit,
                "median_days_to_close": month.median_days_to_close,
            }
            for month in statistics.months
        ],
        "median_days_to_close": statistics.median_days_to_close,
        "open_count": opened.count,
        "open_under_7_days_count": opened.under_week,
        "open_7_to_30_days_count": opened.week_to_month,
        "open_over_30_days_count": opened.over_month,
        "oldest_open_create_timestamp": opened.oldest_created,
    }


@router.get(
    "/screening-config/{screening_config_uuid}/screening-case-statistics",
    response=CaseStatisticsOut,
    summary="Extension: the config's cases month by month, and the open ones by age",
    description=(
        "For reporting: per calendar month, the cases raised (sanction, PEP), closed as false positive or "
        "confirmed hit (by their latest review) and the median days from a case's creation to that review; and "
        "the cases open now by age. `months` (1 to 24, default 12) ends with the current month; `inquiry_entity_key` "
        "counts one kind of screened entity only (as on the case collection)."
    ),
    openapi_extra=EXTENSION,
)
def case_statistics_get(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[StatisticsQuery]):
    config = config_of(request, screening_config_uuid)
    entity_key = entity_key_parse(query.inquiry_entity_key)
    return statistics_out(case_statistics(config=config, months=query.months, entity_key=entity_key))
