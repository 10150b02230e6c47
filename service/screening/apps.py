from django.apps import AppConfig


class ServiceScreeningConfig(AppConfig):
    name = "service.screening"
    label = "service_screening"
