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
        from service.screening.subscription import on_watchlist_companies_changed
        from service.watchlists.signals import watchlist_companies_changed

        # Companies joining or leaving a watchlist change who is monitored (subscription.py).
        watchlist_companies_changed.connect(on_watchlist_companies_changed, dispatch_uid="screening-watchlist-sync")
        from service.companies.signals import company_persons_changed
        from service.screening.subscription import on_company_persons_changed

        # An import changed roles or ownership: watched companies are re-evaluated (subscription.py).
        company_persons_changed.connect(on_company_persons_changed, dispatch_uid="screening-register-sync")
        from service.companies.signals import entity_details_changed
        from service.screening.details_changed import on_entity_details_changed

        # An import changed a screened person's or company's details: they are screened again.
        entity_details_changed.connect(on_entity_details_changed, dispatch_uid="screening-details-rescreen")
        from django.db.models.signals import post_delete

        from service.screening.models import CustomerPersonImportJob
        from service.screening.person_import_job import on_import_job_deleted

        # A job row deleted before it ended (by a cascade, the ORM or an admin) takes its file, which holds national ids.
        post_delete.connect(on_import_job_deleted, sender=CustomerPersonImportJob, dispatch_uid="screening-import-job-file")
