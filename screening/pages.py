"""What the screening setup and approval pages share: who may read or change, and acting after a change."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404

from portal.feedback import service_error_text
from portal.formatting import member_label
from portal.models import Member
from portal.roles import member_api_role_keys
from portal.service import ServiceBadRequest, ServiceError, ServiceNotFound, ServiceUnavailable
from screening import freshness

AML = "aml"
NATIONAL_ID = "person_national_identification"
NO_AML_TEXT = (
    "Screening needs the API role aml, which your organisation's API user does not hold. "
    "Ask your organisation's admin to have the role added to its API user."
)


def can_read_screening(member: Member) -> bool:
    """Every dashboard role grants `aml` (portal.roles); only an organisation without it reads no screening."""
    return AML in member_api_role_keys(member)


def can_read_national_ids(member: Member) -> bool:
    return NATIONAL_ID in member_api_role_keys(member)


def no_aml_text(member: Member) -> str:
    return NO_AML_TEXT


def sanction_selections(categories, selections) -> list:
    """Those of a config's selected categories that are sanction lists (PEP is screened always)."""
    sanction_lists = {c.uuid for c in categories if not c.is_pep}
    return [s for s in selections if s.category_uuid in sanction_lists]


def sanction_list_selected(client, config_uuid) -> bool:
    """Whether the config screens against a sanction list: a company's own name is searched only
    there (a PEP list names persons), so without one its companies are screened against nothing."""
    categories, selections = client.gather(
        client.screening.list_categories, lambda: client.screening.selected_categories(config_uuid)
    )
    return bool(sanction_selections(categories, selections))


ANOTHER_MEMBER = "another member"  # an assignee who is no dashboard member (a person named through the API)


def assignee_names(member: Member, person_uuids=None) -> dict:
    """The organisation's dashboard members by their service person (whom a case is assigned to), in one
    query, each named by `member_label` (their email); `person_uuids` None: every linked member. A person not
    found reads ANOTHER_MEMBER."""
    members = Member.objects.filter(organisation=member.organisation, app_membership_uuid__isnull=False)
    if person_uuids is not None:
        members = members.filter(app_membership_uuid__in=set(person_uuids))
    return {m.app_membership_uuid: member_label(m) for m in members.select_related("user")}


def member_names(member: Member, person_uuids) -> dict:
    """Each named service person's dashboard member (an assignee, an uploader), or ANOTHER_MEMBER; one query,
    none when no one is named."""
    wanted = {uuid for uuid in person_uuids if uuid}
    if not wanted:
        return {}
    found = assignee_names(member, wanted)
    return {key: found.get(key, ANOTHER_MEMBER) for key in wanted}


def decided_by(decision, names: dict) -> str:
    """Who made a monitoring decision, in words: the dashboard member behind its membership (`names`,
    from `assignee_names`), or how it was decided. A system decision names no one: an integration through
    the API or the set-up (the audit log says which)."""
    if decision.origin_key == "auto_approve":
        return "Automatic (auto-approval)"
    if decision.app_membership_uuid in names:
        return names[decision.app_membership_uuid]
    return "A system, no member named" if decision.origin_key != "user" else "A member"


def require_admin(member: Member) -> None:
    """Configuring screening and approving monitorings is for admins (DOMAIN.md); others read."""
    if member.role != Member.Role.ADMIN:
        raise PermissionDenied("Only admins change the screening setup or decide on monitorings.")


def acted(request, text: str) -> None:
    """After the service accepted a change: say so, and drop cached screening state (freshness)."""
    freshness.forget(organisation_uuid=request.member.organisation.app_customer_uuid)
    messages.success(request, text)


NOT_SET_UP_TEXT = "Screening is not set up for your organisation yet: an admin chooses the lists first."


def current_config_or_message(client):
    """The organisation's screening config and None, or None and the page's message (not set up, or
    the service's error)."""
    try:
        config = client.screening.current_config()
    except ServiceError as exc:
        return None, service_error_text(exc)
    if config is None:
        return None, NOT_SET_UP_TEXT
    return config, None


def config_or_404(screening, config_uuid):
    try:
        return screening.config(config_uuid)
    except ServiceNotFound:
        raise Http404("No such screening config.") from None


def first_found(calls):
    """The first answer of `calls` (one per config) that is not a 404; Http404 when all are."""
    for call in calls:
        try:
            return call()
        except ServiceNotFound:
            continue
    raise Http404("Not found in your organisation's screening.")


def refused(request, what: str, error: ServiceError) -> None:
    messages.error(request, f"{what} {service_error_text(error)}")


def page_number(request) -> int:
    """The page asked for (`page`, from 1); anything else is the first."""
    try:
        return max(1, int(request.GET.get("page") or 1))
    except ValueError:
        return 1


def form_refused(form, error: ServiceError) -> int:
    """The service's answer on a form: a 400 (or a 404 naming a field) at the fields it names,
    anything else as a sentence above it; the status to answer with (503 when the service is away)."""
    if isinstance(error, (ServiceBadRequest, ServiceNotFound)) and error.errors:
        form.add_service_errors(error)
    else:
        form.add_error(None, service_error_text(error))
    return 503 if isinstance(error, ServiceUnavailable) else 200
