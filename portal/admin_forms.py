"""Forms of the organisation admin pages: inviting a member, a member's role, an API user, the
audit log's filter."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q

from portal.form_fields import DayField
from portal.models import Member


# The email is the login's username: no longer than a username may be (checked before the service
# is asked, so an address the database would refuse never leaves a person in the service without a login).
LOGIN_MAX_LENGTH = get_user_model()._meta.get_field("username").max_length


class InviteForm(forms.Form):
    email = forms.EmailField(label="Email", max_length=LOGIN_MAX_LENGTH, help_text="They sign in with this address.")
    full_name = forms.CharField(label="Full name", max_length=150)
    role = forms.ChoiceField(label="Dashboard role", choices=Member.Role.choices, initial=Member.Role.VIEWER)

    def __init__(self, *args, organisation, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.organisation = organisation

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        login = get_user_model().objects.filter(Q(username__iexact=email) | Q(email__iexact=email)).select_related("member").first()
        if login is None:
            return email
        member = getattr(login, "member", None)
        if member is not None and member.organisation_id == self.organisation.pk:
            if not login.is_active:
                raise forms.ValidationError(
                    f"{email} is a deactivated member: use Reactivate on the members page (their role and history are kept)."
                )
            raise forms.ValidationError(
                f"{email} is already a member. If they lost their password, use New one-time password on the members page."
            )
        raise forms.ValidationError("Someone with this email already has a login.")

    def clean_full_name(self) -> str:
        name = " ".join(self.cleaned_data["full_name"].split())
        if not name:
            raise forms.ValidationError("Give the person's name.")
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Member.Role.choices)


class ApiUserForm(forms.Form):
    name = forms.CharField(label="Name", max_length=200, help_text="What it is for, e.g. “ERP integration”.")
    role_keys = forms.MultipleChoiceField(
        label="Roles", required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Only roles your organisation has are offered.",
    )

    def __init__(self, *args, organisation_keys: list[str], descriptions: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["role_keys"].choices = [(key, f"{key} · {descriptions.get(key, '')}".rstrip(" ·")) for key in organisation_keys]

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the API user a name.")
        return name


class AuditFilterForm(forms.Form):
    """The audit log's kind, who acted, what about and range of days (Oslo days, both included), read
    from the URL. `actors`: the organisation's members and API users (dicts with a uuid); `who` must be one."""

    kind = forms.CharField(required=False)
    who = forms.UUIDField(label="Who", required=False, error_messages={"invalid": "Choose a member or an API user from the list."})
    object_uuid = forms.UUIDField(
        label="About", required=False, error_messages={"invalid": "Not an id: use an “All about this” link of a record."}
    )
    created_from = DayField(label="From", required=False)
    created_to = DayField(label="To", required=False)

    def __init__(self, *args, actors: list[dict], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.actors = {actor["uuid"]: actor for actor in actors}

    def clean_who(self) -> dict | None:
        who = self.cleaned_data.get("who")
        if who is None:
            return None
        if who not in self.actors:
            raise forms.ValidationError("No member or API user of your organisation has this id.")
        return self.actors[who]

    def clean(self):
        cleaned = super().clean()
        start, end = cleaned.get("created_from"), cleaned.get("created_to")
        if start and end and start > end:
            self.add_error("created_to", "The last day is before the first.")
        return cleaned
