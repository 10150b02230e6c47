"""Screening setup (spec §2.8, §4.7): the organisation's screening configs.

The dashboard's screening pages start here: the organisation's config (most have one).
Monitorings, customer persons and lookups live beside it in this area; cases, reviews
and related-company states in `portal.service.cases`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from portal.service.common import Area, moment, path_segment


@dataclass(frozen=True, slots=True)
class ScreeningConfig:
    uuid: UUID
    app_customer_uuid: UUID
    auto_approve_monitoring: bool
    suggestion_setting_uuid: UUID
    suggestion_setting_key: str
    subscribe_to_email_notifications: bool
    created_at: datetime | None
    updated_at: datetime | None
    app_url: str | None

    @classmethod
    def from_json(cls, data: dict) -> ScreeningConfig:
        return cls(
            uuid=UUID(str(data["uuid"])),
            app_customer_uuid=UUID(str(data["app_customer_uuid"])),
            auto_approve_monitoring=bool(data.get("auto_approve_monitoring_flag")),
            suggestion_setting_uuid=UUID(str(data["screening_config_system_suggestion_setting_uuid"])),
            suggestion_setting_key=data.get("screening_config_system_suggestion_setting_key") or "",
            subscribe_to_email_notifications=bool(data.get("subscribe_to_email_notifications_flag")),
            created_at=moment(data.get("create_timestamp")),
            updated_at=moment(data.get("update_timestamp")),
            app_url=data.get("app_url"),
        )


class ScreeningArea(Area):
    def configs(self) -> list[ScreeningConfig]:
        """The organisation's configs, oldest first (needs `aml`)."""
        path = f"v1/app-customer/{path_segment(self.app_customer_uuid)}/screening-config"
        return [ScreeningConfig.from_json(c) for c in self.client.get("analysis", path)]

    def current_config(self) -> ScreeningConfig | None:
        """The config the dashboard works with: the organisation's oldest, or None before setup."""
        configs = self.configs()
        return configs[0] if configs else None
