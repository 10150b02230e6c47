from django.apps import AppConfig


class ServiceReportsConfig(AppConfig):
    name = "service.reports"
    label = "service_reports"
