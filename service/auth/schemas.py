import uuid

from ninja import Schema


class OverviewCount(Schema):
    key: str
    label: str
    value: int


class OverviewOut(Schema):
    app_customer_uuid: uuid.UUID
    name: str
    counts: list[OverviewCount]
