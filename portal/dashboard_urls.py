from django.urls import path

from portal import views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("members/", views.members, name="members"),
    path("health/", views.health, name="health"),
]
