from django.apps import AppConfig


class ServiceWatchlistsConfig(AppConfig):
    name = "service.watchlists"
    label = "service_watchlists"
