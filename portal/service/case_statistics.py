"""The config's cases month by month and the open ones by age, as the service counts them
(`GET .../screening-case-statistics`, an extension)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from portal.service.common import moment


@dataclass(frozen=True, slots=True)
class MonthFigures:
    month: date  # its first day
    raised: int
    raised_sanction: int
    raised_pep: int
    closed_false_positive: int
    closed_confirmed_hit: int
    median_days_to_close: float | None

    @property
    def closed(self) -> int:
        return self.closed_false_positive + self.closed_confirmed_hit

    @classmethod
    def from_json(cls, data: dict) -> MonthFigures:
        year, month = (int(part) for part in data["month"].split("-"))
        days = data.get("median_days_to_close")
        return cls(date(year, month, 1), data["raised_count"], data["raised_sanction_count"], data["raised_pep_count"],
                   data["closed_false_positive_count"], data["closed_confirmed_hit_count"],
                   float(days) if days is not None else None)


@dataclass(frozen=True, slots=True)
class CaseStatistics:
    months: tuple[MonthFigures, ...]  # oldest first
    median_days_to_close: float | None  # over the period's closed cases
    open_count: int
    open_under_week: int
    open_week_to_month: int
    open_over_month: int
    oldest_open_at: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> CaseStatistics:
        days = data.get("median_days_to_close")
        return cls(tuple(MonthFigures.from_json(row) for row in data["months"]), float(days) if days is not None else None,
                   data["open_count"],
                   data["open_under_7_days_count"], data["open_7_to_30_days_count"], data["open_over_30_days_count"],
                   moment(data.get("oldest_open_create_timestamp")))
