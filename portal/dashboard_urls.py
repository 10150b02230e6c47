from django.urls import path

from portal import admin_views, audit_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("members/", views.members, name="members"),
    path("members/invite/", admin_views.member_invite, name="member-invite"),
    path("members/<uuid:member_uuid>/role/", admin_views.member_role, name="member-role"),
    path("members/<uuid:member_uuid>/deactivate/", admin_views.member_deactivate, name="member-deactivate"),
    path("members/<uuid:member_uuid>/reactivate/", admin_views.member_reactivate, name="member-reactivate"),
    path("members/<uuid:member_uuid>/password/", admin_views.member_password, name="member-password"),
    path("members/api-users/", admin_views.api_users, name="api-users"),
    path("members/api-users/<uuid:api_user_uuid>/rotate/", admin_views.api_user_rotate, name="api-user-rotate"),
    path("members/api-users/<uuid:api_user_uuid>/deactivate/", admin_views.api_user_deactivate, name="api-user-deactivate"),
    path("members/audit/", audit_views.audit, name="audit"),
    path("members/audit/export.csv", audit_views.audit_export, name="audit-export"),
    path("health/", views.health, name="health"),
]
