app_name = "watchlists"
urlpatterns: list = []
