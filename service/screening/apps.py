from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _ensure_catalog(sender, **kwargs) -> None:
    from service.screening.catalog import list_categories_ensure, screening_catalog_ensure

    list_categories_ensure()
    screening_catalog_ensure()


class ServiceScreeningConfig(AppConfig):
    name = "service.screening"
    label = "service_screening"
    verbose_name = "Service: PEP and sanction screening"

    def ready(self) -> None:
        post_migrate.connect(_ensure_catalog, sender=self)
