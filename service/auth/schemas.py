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


class AppMembershipOut(Schema):
    uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    email: str
    full_name: str


class AppMembershipCollection(Schema):
    elements: list[AppMembershipOut]
    count: int
    has_more: bool
