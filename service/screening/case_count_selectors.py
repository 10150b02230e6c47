"""How many cases a config has, per status and PEP / sanction hit: one grouped query.

For overviews (the dashboard's work list and its cached counts), which would otherwise read
a page of the case collection per status only for its `count`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from service.screening.models import ScreeningCase, ScreeningConfig


@dataclass(frozen=True)
class StatusCount:
    status_key: str
    count: int
    pep_count: int
    sanction_count: int


def case_counts(*, config: ScreeningConfig) -> list[StatusCount]:
    """One row per case status (pending, ongoing, complete), zeros included, in that order."""
    rows = (
        ScreeningCase.objects.filter(screening_config=config)
        .values("case_status_key", "pep_flag", "sanction_flag")
        .annotate(n=Count("uuid"))
        .order_by()
    )
    totals = {key: [0, 0, 0] for key in ScreeningCase.Status.values}
    for row in rows:
        total = totals[row["case_status_key"]]
        total[0] += row["n"]
        total[1] += row["n"] if row["pep_flag"] else 0
        total[2] += row["n"] if row["sanction_flag"] else 0
    return [StatusCount(key, *numbers) for key, numbers in totals.items()]
