from django.apps import AppConfig


class ServiceCompaniesConfig(AppConfig):
    name = "service.companies"
    label = "service_companies"
