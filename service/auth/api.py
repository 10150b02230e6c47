import uuid

from django.http import HttpRequest, HttpResponse
from ninja import Router

from service.auth.models import AppCustomer
from service.auth.principal import principal_of
from service.auth.schemas import OverviewOut
from service.errors import NotFound
from service.overview import overview_counts

router = Router(tags=["Authentication"])


@router.get("/auth-status", response={200: str}, summary="Check that the credentials work")
def auth_status(request: HttpRequest) -> HttpResponse:
    principal = principal_of(request)
    granted = ", ".join(sorted(principal.granted_roles)) or "none"
    return HttpResponse(
        f"Authenticated as API user {principal.api_user_uuid} of app customer "
        f"{principal.app_customer_uuid}. Roles granted for this request: {granted}.\n",
        content_type="text/plain; charset=utf-8",
    )


@router.get(
    "/app-customer/{app_customer_uuid}/overview",
    response=OverviewOut,
    summary="Counts for the organisation (extension)",
    description="Extension to the spec: the counts the dashboard home shows. Another organisation's uuid is 404.",
    tags=["Extensions"],
)
def app_customer_overview(request: HttpRequest, app_customer_uuid: uuid.UUID):
    principal = principal_of(request)
    if app_customer_uuid != principal.app_customer_uuid:
        raise NotFound("No such app customer.")
    customer = AppCustomer.objects.get(uuid=app_customer_uuid)
    return {
        "app_customer_uuid": customer.uuid,
        "name": customer.name,
        "counts": overview_counts(app_customer_uuid=customer.uuid),
    }
