from django.apps import AppConfig


class ServiceAuthConfig(AppConfig):
    name = "service.auth"
    label = "service_auth"
    verbose_name = "Service: organisations and API users"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from service.auth.models import ApiUser, AppCustomer, AppMembership
        from service.auth.principal_cache import callers_changed
        from service.overview import counter_register

        # Any change to who may call, or with which roles, is seen by the next request.
        for model in (ApiUser, AppCustomer):
            post_save.connect(callers_changed, sender=model, dispatch_uid=f"forget-callers-save-{model.__name__}")
            post_delete.connect(callers_changed, sender=model, dispatch_uid=f"forget-callers-delete-{model.__name__}")
        m2m_changed.connect(callers_changed, sender=ApiUser.roles.through, dispatch_uid="forget-callers-roles")

        counter_register(
            key="api_users",
            label="API users",
            count=lambda org: ApiUser.objects.filter(app_customer_id=org, is_active=True).count(),
            order=900,
        )
        counter_register(
            key="members",
            label="People",
            count=lambda org: AppMembership.objects.filter(app_customer_id=org, active_flag=True).count(),
            order=910,
        )
