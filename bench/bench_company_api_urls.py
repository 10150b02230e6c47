"""URLconf for bench/bench_company_api.py only: a minimal Django JSON view beside the project's URLs."""

from django.http import JsonResponse
from django.urls import include, path


def minimal(request):
    """The floor: routing, the middleware stack and a JSON body, no auth and no database."""
    return JsonResponse({"uuid": "00000000-0000-4000-8000-000000000000", "name": "Minimal AS", "ok": True})


urlpatterns = [
    path("bench/minimal", minimal),
    path("", include("portal.urls")),
]
