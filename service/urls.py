"""URLs of the service: the two APIs, the token issuer and the API reference."""

from django.urls import path

from service.api import analysis_api, datasets_api
from service.auth.views import token
from service.docs import docs_login_required


@docs_login_required
def documentation(request):
    return analysis_api.docs.render_page(request, analysis_api)


urlpatterns = [
    path("oauth/token", token, name="oauth-token"),
    path("analysis/", analysis_api.urls),
    path("datasets/", datasets_api.urls),
    path("documentation", documentation, name="api-documentation"),
]
