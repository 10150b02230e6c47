from django.apps import AppConfig


class ServiceWatchlistsConfig(AppConfig):
    name = "service.watchlists"
    label = "service_watchlists"
    verbose_name = "Service: watchlists"

    def ready(self) -> None:
        from service.overview import counter_register
        from service.watchlists.models import Watchlist

        counter_register(
            key="watchlists",
            label="Watchlists",
            count=lambda org: Watchlist.objects.filter(app_customer_id=org).count(),
            order=100,
        )
