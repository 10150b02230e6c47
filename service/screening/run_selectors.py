"""Reads of re-screening runs (run_models.py) as one config sees them: only its own chunks count."""

from __future__ import annotations

from django.db.models import Count, Max, QuerySet, Sum

from service.screening.models import ScreeningConfig, ScreeningRun


def runs_of_config(*, config: ScreeningConfig) -> QuerySet[ScreeningRun]:
    """The runs that screened some of the config's monitorings, each annotated with the config's
    part of it. The filter comes before the aggregates, so they sum the config's chunks alone (no
    other organisation's figure reaches the caller)."""
    return (
        ScreeningRun.objects.filter(chunks__screening_config=config)
        .select_related("list_version__category")
        .annotate(
            config_chunk_count=Count("chunks"),
            config_chunks_done=Count("chunks__done_timestamp"),
            config_done_at=Max("chunks__done_timestamp"),
            config_screened=Sum("chunks__screened"),
            config_hits=Sum("chunks__hits"),
            config_cases_created=Sum("chunks__cases_created"),
            config_cases_moved=Sum("chunks__cases_updated"),
        )
    )
