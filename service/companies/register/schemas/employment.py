"""Employment over time (spec §4.2 `company-employment`)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from ninja import Field, Schema

from service.companies import models as m


class CompanyEmploymentOut(Schema):
    """One period with a head count; consecutive elements describe the changes over time."""

    uuid: UUID
    company_uuid: UUID
    employee_count: int
    employee_date: datetime | None = Field(description="When the head count was reported")
    from_date: datetime = Field(description="Start of the period")
    to_date: datetime | None = Field(description="End of the period; null for the current one")
    employee_count_from: int | None = Field(description="Head count of the period before (null for the first)")
    employee_count_to: int | None = Field(description="Head count of the period after (null for the current)")


def employment_out(row: m.CompanyEmployment) -> dict:
    return {
        "uuid": row.uuid,
        "company_uuid": row.company_id,
        "employee_count": row.employee_count,
        "employee_date": row.employee_date,
        "from_date": row.from_date,
        "to_date": row.to_date,
        "employee_count_from": row.employee_count_from,
        "employee_count_to": row.employee_count_to,
    }

