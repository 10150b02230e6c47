"""Root URLs: the service's APIs, then the dashboard apps (included by dotted string)."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("service.urls")),
    path("admin/", admin.site.urls),
    path("", include("portal.dashboard_urls")),
    path("companies/", include("companies.urls")),
    path("watchlists/", include("watchlists.urls")),
    path("screening/", include("screening.urls")),
    path("reports/", include("reports.urls")),
]
