from django.urls import path

from watchlists import views

app_name = "watchlists"
urlpatterns = [
    path("", views.watchlist_list, name="list"),
    path("<uuid:watchlist_uuid>/", views.watchlist_detail, name="detail"),
    path("<uuid:watchlist_uuid>/export.csv", views.watchlist_export, name="export"),
    path("<uuid:watchlist_uuid>/rename/", views.watchlist_rename, name="rename"),
    path("<uuid:watchlist_uuid>/delete/", views.watchlist_delete, name="delete"),
    path("<uuid:watchlist_uuid>/add/", views.watchlist_add, name="add"),
    path("<uuid:watchlist_uuid>/clear/", views.watchlist_clear, name="clear"),
    path("<uuid:watchlist_uuid>/search/", views.watchlist_search, name="search"),
    path("<uuid:watchlist_uuid>/companies/<uuid:company_uuid>/remove/", views.watchlist_remove, name="remove"),
]
