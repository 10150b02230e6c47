from django.urls import path

from screening import views_related

app_name = "screening"
urlpatterns: list = [
    # related companies (views_related)
    path("related-companies/", views_related.related_companies, name="related"),
    path("related-companies/refresh/", views_related.related_companies_refresh, name="related-refresh"),
]
