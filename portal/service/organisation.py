"""The calling organisation itself: its overview (name and counts), and its administration
(members, API users, the audit log)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from uuid import UUID

from portal.service.common import Area, moment, path_segment, uuid_or_none


@dataclass(frozen=True, slots=True)
class Count:
    key: str
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Overview:
    app_customer_uuid: UUID
    name: str
    counts: tuple[Count, ...]


class OrganisationArea(Area):
    def overview(self) -> Overview:
        data = self.client.get("analysis", f"v1/app-customer/{path_segment(self.app_customer_uuid)}/overview")
        return Overview(
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            name=data.get("name") or "",
            counts=tuple(Count(c["key"], c.get("label") or c["key"], int(c.get("value") or 0)) for c in data.get("counts") or []),
        )


# --- organisation admin: members, API users and the audit log (extension endpoints) --------------


@dataclass(frozen=True, slots=True)
class AppMember:
    uuid: UUID
    email: str
    full_name: str
    active: bool

    @classmethod
    def from_json(cls, data: dict) -> AppMember:
        return cls(UUID(str(data["uuid"])), data.get("email") or "", data.get("full_name") or "", bool(data.get("active_flag", True)))


@dataclass(frozen=True, slots=True)
class ApiUser:
    uuid: UUID
    name: str
    basic_auth_id: str
    token_auth_id: str
    role_keys: tuple[str, ...]
    active: bool
    created: datetime | None

    @classmethod
    def from_json(cls, data: dict) -> ApiUser:
        return cls(
            uuid=UUID(str(data["uuid"])),
            name=data.get("name") or "",
            basic_auth_id=data.get("basic_auth_id") or "",
            token_auth_id=data.get("token_auth_id") or "",
            role_keys=tuple(data.get("role_keys") or ()),
            active=bool(data.get("active_flag")),
            created=moment(data.get("create_timestamp")),
        )


@dataclass(frozen=True, slots=True)
class ApiCredentials:
    """Secrets as the service shows them once: after a creation or a rotation."""

    api_user: ApiUser
    basic_auth_id: str
    basic_auth_secret: str
    token_auth_id: str
    token_auth_secret: str

    @classmethod
    def from_json(cls, data: dict) -> ApiCredentials:
        return cls(
            api_user=ApiUser.from_json(data["api_user"]),
            basic_auth_id=data["basic_auth_id"],
            basic_auth_secret=data["basic_auth_secret"],
            token_auth_id=data["token_auth_id"],
            token_auth_secret=data["token_auth_secret"],
        )


@dataclass(frozen=True, slots=True)
class AuditEvent:
    uuid: UUID
    action_key: str
    action: str
    actor_email: str
    actor_api_user_name: str
    object_type: str
    object_uuid: UUID | None
    object_label: str
    before: dict | None
    after: dict | None
    at: datetime | None
    redacted_at: datetime | None = None  # its label and values deleted with the data they were about
    # Where the object is seen while it exists (a hold: its subject), from the service; None once gone.
    subject_type: str = ""
    subject_uuid: UUID | None = None
    actor_app_membership_uuid: UUID | None = None
    actor_api_user_uuid: UUID | None = None

    @classmethod
    def from_json(cls, data: dict) -> AuditEvent:
        return cls(
            uuid=UUID(str(data["uuid"])),
            action_key=data.get("action_key") or "",
            action=data.get("action_description") or data.get("action_key") or "",
            actor_email=data.get("actor_email") or "",
            actor_api_user_name=data.get("actor_api_user_name") or "",
            object_type=data.get("object_type") or "",
            object_uuid=uuid_or_none(data.get("object_uuid")),
            object_label=data.get("object_label") or "",
            before=data.get("before"),
            after=data.get("after"),
            at=moment(data.get("created_timestamp")),
            redacted_at=moment(data.get("redacted_timestamp")),
            subject_type=data.get("subject_type") or "",
            subject_uuid=uuid_or_none(data.get("subject_uuid")),
            actor_app_membership_uuid=uuid_or_none(data.get("actor_app_membership_uuid")),
            actor_api_user_uuid=uuid_or_none(data.get("actor_api_user_uuid")),
        )


@dataclass(frozen=True, slots=True)
class AuditPage:
    events: tuple[AuditEvent, ...]
    count: int
    has_more: bool


class OrganisationAdminArea(Area):
    """Members, API users and the audit log. Writes carry the member the client acts for, for the audit log."""

    def _base(self) -> str:
        return f"v1/app-customer/{path_segment(self.app_customer_uuid)}"

    def members(self) -> list[AppMember]:
        return [AppMember.from_json(m) for m in self.client.paginate("analysis", f"{self._base()}/app-membership", limit=1000)]

    def member_invite(self, *, email: str, full_name: str) -> AppMember:
        body = {"email": email, "full_name": full_name, **self.acting_body()}
        return AppMember.from_json(self.client.post("analysis", f"{self._base()}/app-membership", json=body))

    def member_set_active(self, member_uuid, *, active: bool) -> AppMember:
        path = f"{self._base()}/app-membership/{path_segment(member_uuid)}"
        return AppMember.from_json(self.client.patch("analysis", path, json={"active_flag": active, **self.acting_body()}))

    def member_password_reset(self, member_uuid) -> AppMember:
        """Records in the service's audit log that the admin gave the member a new one-time password."""
        path = f"{self._base()}/app-membership/{path_segment(member_uuid)}/password-reset"
        return AppMember.from_json(self.client.post("analysis", path, json=self.acting_body()))

    def api_users(self) -> list[ApiUser]:
        return [ApiUser.from_json(u) for u in self.client.paginate("analysis", f"{self._base()}/api-user", limit=1000)]

    def api_user_create(self, *, name: str, role_keys: list[str]) -> ApiCredentials:
        body = {"name": name, "role_keys": list(role_keys), **self.acting_body()}
        return ApiCredentials.from_json(self.client.post("analysis", f"{self._base()}/api-user", json=body))

    def api_user_roles(self, api_user_uuid, *, role_keys: list[str]) -> ApiUser:
        path = f"{self._base()}/api-user/{path_segment(api_user_uuid)}"
        return ApiUser.from_json(self.client.patch("analysis", path, json={"role_keys": list(role_keys), **self.acting_body()}))

    def api_user_rotate(self, api_user_uuid) -> ApiCredentials:
        path = f"{self._base()}/api-user/{path_segment(api_user_uuid)}/secret-rotation"
        return ApiCredentials.from_json(self.client.post("analysis", path, json=self.acting_body()))

    def api_user_deactivate(self, api_user_uuid) -> ApiUser:
        path = f"{self._base()}/api-user/{path_segment(api_user_uuid)}"
        return ApiUser.from_json(self.client.patch("analysis", path, json={"active_flag": False, **self.acting_body()}))

    def audit_events(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        action_key: str = "",
        actor_app_membership_uuid=None,
        actor_api_user_uuid=None,
        object_uuid=None,
        created_from: date | None = None,
        created_to: date | None = None,
    ) -> AuditPage:
        """Newest first; `created_from` / `created_to`: Oslo days, both included."""
        params = {
            "limit": limit,
            "offset": offset,
            "action_key": action_key or None,
            "actor_app_membership_uuid": actor_app_membership_uuid,
            "actor_api_user_uuid": actor_api_user_uuid,
            "object_uuid": object_uuid,
            "created_from": created_from.isoformat() if created_from else None,
            "created_to": created_to.isoformat() if created_to else None,
        }
        [page] = self.client.get("analysis", f"{self._base()}/audit-event", params=params)
        return AuditPage(tuple(AuditEvent.from_json(e) for e in page["elements"]), int(page["count"]), bool(page["has_more"]))
