"""A dashboard page that needs the service while it cannot be reached says so (503), instead of
a 500 or a misleading 404; the next request tries the service again, so pages recover on their own.

Views catch the service's refusals they can explain in place (a form's error); what reaches this
middleware is a `ServiceUnavailable` nobody caught: the service is down, restarting or unreachable.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from portal.feedback import service_error_text
from portal.service import ServiceUnavailable

RETRY_AFTER_SECONDS = 30


class ServiceUnavailableMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception) -> HttpResponse | None:
        if not isinstance(exception, ServiceUnavailable):
            return None
        text = "The Vakt service cannot be reached just now, so this page cannot be shown. Try again in a moment."
        if getattr(request, "htmx", False):  # a panel: a sentence in place of the panel
            response = render(request, "503.html#message", {"text": service_error_text(exception)}, status=503)
        else:
            response = render(request, "503.html", {"text": text}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
