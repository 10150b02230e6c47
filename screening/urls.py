from django.urls import path

from screening import (
    views_approvals,
    views_batches,
    views_case_batch,
    views_cases,
    views_customer_person,
    views_records,
    views_related,
    views_setup,
    views_statistics,
)

app_name = "screening"
urlpatterns = [
    # The case queue and the case page (views_cases).
    path("cases/", views_cases.case_queue, name="queue"),
    path("cases/export.csv", views_cases.case_export, name="queue-export"),
    path("cases/batch/", views_case_batch.case_batch, name="queue-batch"),
    path("cases/statistics/", views_statistics.case_statistics, name="statistics"),
    path("cases/statistics.csv", views_statistics.case_statistics_export, name="statistics-export"),
    path("cases/<uuid:case_uuid>/", views_cases.case_detail, name="case"),
    path("cases/<uuid:case_uuid>/review/", views_cases.case_review, name="case-review"),
    path("cases/<uuid:case_uuid>/assign/", views_cases.case_assign, name="case-assign"),
    path("cases/<uuid:case_uuid>/report.pdf", views_cases.case_report, name="case-report"),
    # screening setup (admins change, officers read)
    path("setup/", views_setup.setup, name="setup"),
    path("setup/create/", views_setup.config_create, name="config-create"),
    path("configs/<uuid:config_uuid>/", views_setup.config_page, name="config"),
    path("configs/<uuid:config_uuid>/update/", views_setup.config_update, name="config-update"),
    path("configs/<uuid:config_uuid>/lists/", views_setup.category_select, name="category-select"),
    path("configs/<uuid:config_uuid>/watchlists/attach/", views_setup.watchlist_attach, name="watchlist-attach"),
    path("configs/<uuid:config_uuid>/watchlists/<uuid:link_uuid>/detach/", views_setup.watchlist_detach, name="watchlist-detach"),
    # monitoring approvals
    path("approvals/", views_approvals.approvals, name="approvals"),
    path("approvals/decide/", views_approvals.decide, name="decide"),
    path("approvals/remove/", views_approvals.remove, name="remove"),
    path("approvals/customer-person/", views_approvals.customer_person_add, name="customer-person-add"),
    path("approvals/monitorings.csv", views_records.monitorings_export, name="monitorings-export"),
    path("monitorings/<uuid:monitoring_uuid>/", views_records.monitoring_page, name="monitoring"),
    # a customer person's page (admins correct the details, add or remove a national id or an address)
    path("customer-persons/<uuid:customer_person_uuid>/", views_customer_person.customer_person_page, name="customer-person"),
    path("customer-persons/<uuid:customer_person_uuid>/correct/", views_customer_person.customer_person_correct,
         name="customer-person-correct"),
    path("customer-persons/<uuid:customer_person_uuid>/national-ids/", views_customer_person.customer_person_national_id_add,
         name="customer-person-national-id-add"),
    path("customer-persons/<uuid:customer_person_uuid>/addresses/", views_customer_person.customer_person_address_add,
         name="customer-person-address-add"),
    path("customer-persons/<uuid:customer_person_uuid>/monitor/", views_customer_person.customer_person_monitor,
         name="customer-person-monitor"),
    path("customer-persons/<uuid:customer_person_uuid>/hold/", views_customer_person.customer_person_hold_place,
         name="customer-person-hold"),
    path("customer-persons/<uuid:customer_person_uuid>/hold/<uuid:hold_uuid>/release/",
         views_customer_person.customer_person_hold_release, name="customer-person-hold-release"),
    path("customer-persons/<uuid:customer_person_uuid>/national-ids/<uuid:national_identification_uuid>/remove/",
         views_customer_person.customer_person_national_id_remove, name="customer-person-national-id-remove"),
    path("customer-persons/<uuid:customer_person_uuid>/addresses/<uuid:location_uuid>/remove/",
         views_customer_person.customer_person_address_remove, name="customer-person-address-remove"),
    # batch screening of a file (views_batches)
    path("batches/", views_batches.batches, name="batches"),
    path("batches/upload/", views_batches.batch_upload, name="batch-upload"),
    path("batches/check/", views_batches.name_check, name="batch-check"),
    path("batches/<uuid:batch_uuid>/", views_batches.batch_detail, name="batch"),
    path("batches/<uuid:batch_uuid>/row/", views_batches.batch_row, name="batch-row"),
    path("batches/<uuid:batch_uuid>/delete/", views_batches.batch_delete, name="batch-delete"),
    path("batches/<uuid:batch_uuid>/result.<str:file_type>", views_batches.batch_result, name="batch-result"),
    # related companies (views_related)
    path("related-companies/", views_related.related_companies, name="related"),
    path("related-companies/refresh/", views_related.related_companies_refresh, name="related-refresh"),
    path("related-companies/<uuid:company_uuid>/", views_related.company_screening, name="company-screening"),
]
