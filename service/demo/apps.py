from django.apps import AppConfig


class ServiceDemoConfig(AppConfig):
    """Development data only: holds the generate_demo command, no models."""

    name = "service.demo"
    label = "service_demo"
    verbose_name = "Service: development data (generate_demo)"
