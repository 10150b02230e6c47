"""A URLconf for the error page tests: the site's URLs plus one view that fails."""

from portal.urls import urlpatterns as site_urlpatterns


def broken(request):
    raise RuntimeError("a bug in a view")


from django.urls import path  # noqa: E402

urlpatterns = [path("broken/", broken), *site_urlpatterns]
