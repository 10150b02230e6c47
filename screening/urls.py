from django.urls import path

from screening import views_cases

app_name = "screening"
urlpatterns: list = [
    # The case queue and the case page (views_cases).
    path("cases/", views_cases.case_queue, name="queue"),
    path("cases/<uuid:case_uuid>/", views_cases.case_detail, name="case"),
    path("cases/<uuid:case_uuid>/review/", views_cases.case_review, name="case-review"),
    path("cases/<uuid:case_uuid>/assign/", views_cases.case_assign, name="case-assign"),
    path("cases/<uuid:case_uuid>/report.pdf", views_cases.case_report, name="case-report"),
]
