app_name = "screening"
urlpatterns: list = []
