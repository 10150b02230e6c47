from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_catalog(sender, **kwargs) -> None:
    from service.companies.catalog import catalog_ensure

    catalog_ensure()


class ServiceCompaniesConfig(AppConfig):
    name = "service.companies"
    label = "service_companies"
    verbose_name = "Service: company register and analysis"

    def ready(self) -> None:
        post_migrate.connect(_ensure_catalog, sender=self)
