from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_catalog(sender, **kwargs) -> None:
    from service.reports.catalog import report_types_ensure

    report_types_ensure()


class ServiceReportsConfig(AppConfig):
    name = "service.reports"
    label = "service_reports"

    def ready(self) -> None:
        post_migrate.connect(_ensure_catalog, sender=self)
