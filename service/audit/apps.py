from django.apps import AppConfig


class ServiceAuditConfig(AppConfig):
    name = "service.audit"
    label = "service_audit"
    verbose_name = "Service: audit log"
