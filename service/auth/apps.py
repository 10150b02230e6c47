from django.apps import AppConfig


class ServiceAuthConfig(AppConfig):
    name = "service.auth"
    label = "service_auth"
    verbose_name = "Service: organisations and API users"

    def ready(self) -> None:
        from service.auth.models import ApiUser, AppMembership
        from service.overview import counter_register

        counter_register(
            key="api_users",
            label="API users",
            count=lambda org: ApiUser.objects.filter(app_customer_id=org, is_active=True).count(),
            order=900,
        )
        counter_register(
            key="members",
            label="People",
            count=lambda org: AppMembership.objects.filter(app_customer_id=org).count(),
            order=910,
        )
