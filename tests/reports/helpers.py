import importlib

from django.apps import apps


def report_types_seed() -> None:
    """The report types a data migration seeds: a transactional test before this one flushed them."""
    importlib.import_module("service.reports.migrations.0002_seed_report_types").seed(apps, None)
