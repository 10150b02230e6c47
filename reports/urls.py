from django.urls import path

from reports import views

app_name = "reports"
urlpatterns = [
    path("", views.report_list, name="list"),
    path("order/", views.order, name="order"),
    path("<uuid:download_uuid>/row/", views.report_row, name="row"),
]
