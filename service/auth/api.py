import uuid

from django.http import HttpRequest, HttpResponse
from ninja import Router

from service.auth.models import AppCustomer, AppMembership
from service.auth.principal import principal_of
from service.auth.schemas import AppMembershipCollection, OverviewOut, app_membership_out
from service.overview import overview_counts
from service.pagination import composite_collection, page_from

router = Router(tags=["Authentication"])


@router.get(
    "/auth-status",
    summary="Check that the credentials work",
    # the answer is a sentence in plain text, documented as such (ninja would declare JSON)
    openapi_extra={"responses": {200: {"description": "OK", "content": {"text/plain": {"schema": {"type": "string"}}}}}},
)
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
    customer = AppCustomer.objects.get(uuid=principal_of(request).own_app_customer(app_customer_uuid))
    return {
        "app_customer_uuid": customer.uuid,
        "name": customer.name,
        "counts": overview_counts(app_customer_uuid=customer.uuid),
    }


@router.get(
    "/app-customer/{app_customer_uuid}/app-membership",
    response=list[AppMembershipCollection],
    summary="People in the organisation (extension)",
    description=(
        "Extension to the spec: the organisation's members (reviewers, approvers) as a composite collection, "
        "by email. `active_flag` true or false lists only active or only deactivated members."
    ),
    tags=["Extensions"],
)
def app_membership_collection(
    request: HttpRequest,
    app_customer_uuid: uuid.UUID,
    limit: int | None = None,
    offset: int | None = None,
    active_flag: bool | None = None,
):
    customer_uuid = principal_of(request).own_app_customer(app_customer_uuid)
    memberships = AppMembership.objects.filter(app_customer_id=customer_uuid)
    if active_flag is not None:
        memberships = memberships.filter(active_flag=active_flag)
    return composite_collection(memberships, page_from(limit, offset), app_membership_out, ordering=("email", "uuid"))


# The admin endpoints share this router (their paths overlap the collection above).
from service.auth import admin_api  # noqa: E402,F401
