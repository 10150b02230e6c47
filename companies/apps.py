from django.apps import AppConfig


class CompaniesConfig(AppConfig):
    name = "companies"
    verbose_name = "Dashboard: companies"
