import uuid

from datetime import datetime

from ninja import Field, Schema


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
    active_flag: bool = Field(True, description="Extension: false once deactivated (no more reviews, decisions, assignments)")


def app_membership_out(membership) -> dict:
    return {
        "uuid": membership.uuid,
        "email": membership.email,
        "full_name": membership.full_name,
        "app_customer_uuid": membership.app_customer_id,
        "active_flag": membership.active_flag,
    }


class AppMembershipCollection(Schema):
    elements: list[AppMembershipOut]
    count: int
    has_more: bool


ACTING_MEMBER = "The member who makes the change (the dashboard sends its user), recorded in the audit log"


class AppMembershipIn(Schema):
    email: str = Field(..., min_length=3, max_length=254)
    full_name: str = Field("", max_length=200)
    app_membership_uuid: uuid.UUID | None = Field(None, description=ACTING_MEMBER)


class AppMembershipPatch(Schema):
    active_flag: bool
    app_membership_uuid: uuid.UUID | None = Field(None, description=ACTING_MEMBER)


class ApiUserOut(Schema):
    uuid: uuid.UUID
    app_customer_uuid: uuid.UUID
    name: str
    basic_auth_id: str
    token_auth_id: str
    role_keys: list[str]
    active_flag: bool
    create_timestamp: datetime


class ApiUserCollection(Schema):
    elements: list[ApiUserOut]
    count: int
    has_more: bool


class ApiUserCredentialsOut(Schema):
    api_user: ApiUserOut
    basic_auth_id: str
    basic_auth_secret: str = Field(description="Shown only in this answer; store it safely")
    token_auth_id: str
    token_auth_secret: str = Field(description="Shown only in this answer; store it safely")


class ApiUserIn(Schema):
    name: str = Field(..., min_length=1, max_length=200)
    role_keys: list[str] = Field(default_factory=list)
    app_membership_uuid: uuid.UUID | None = Field(None, description=ACTING_MEMBER)


class ApiUserPatch(Schema):
    role_keys: list[str] | None = None
    active_flag: bool | None = Field(None, description="false deactivates (final: create a new API user instead)")
    app_membership_uuid: uuid.UUID | None = Field(None, description=ACTING_MEMBER)


class ActingIn(Schema):
    app_membership_uuid: uuid.UUID | None = Field(None, description=ACTING_MEMBER)


def api_user_out(api_user) -> dict:
    return {
        "uuid": api_user.uuid,
        "app_customer_uuid": api_user.app_customer_id,
        "name": api_user.name,
        "basic_auth_id": api_user.basic_auth_id,
        "token_auth_id": api_user.token_auth_id,
        "role_keys": sorted(role.key for role in api_user.roles.all()),
        "active_flag": api_user.is_active,
        "create_timestamp": api_user.created_at,
    }


def credentials_out(issued) -> dict:
    return {
        "api_user": api_user_out(issued.api_user),
        "basic_auth_id": issued.basic_auth_id,
        "basic_auth_secret": issued.basic_auth_secret,
        "token_auth_id": issued.token_auth_id,
        "token_auth_secret": issued.token_auth_secret,
    }
