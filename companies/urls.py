from django.urls import path

from companies import views

app_name = "companies"
urlpatterns = [
    path("", views.search, name="search"),
    path("<uuid:company_uuid>/", views.detail, name="detail"),
    path("<uuid:company_uuid>/benchmark/", views.benchmark, name="benchmark"),
]
