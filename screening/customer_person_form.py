"""The customer person forms, and where the service's field errors land on them.

The parts (name, birth date and gender; a national id; an address) are one form each, so a
field and its rule are written once: the approvals page's form that adds a customer person
and puts them under monitoring is made of all three, and the customer person's page corrects
the details, adds a national id or an address, or puts the person under monitoring again with one
part each.

Adding takes up to four calls (person, national id, address, monitoring); the service has
no single call for it. When a later call is refused, the person already exists: the form
carries its uuid, so sending the corrected form again continues with that person instead
of creating a second one (views_approvals reads that person and skips what they already have).
"""

from __future__ import annotations

import re

from django import forms
from django.forms.boundfield import BoundField

from portal.form_fields import DayField
from portal.service import ServiceBadRequest
from portal.service.screening import PersonAddress
from vakt_format.countries import country_code_known
from vakt_limits.customer_persons import CUSTOMER_REFERENCE_MAX

# The service's body field, per step, -> the form's field
FIELD_OF = {
    "person": {
        "full_name": "full_name", "birth_date": "birth_date", "gender_uuid": "gender", "nationalities": "nationalities",
        "customer_reference": "customer_reference",
    },
    "national_id": {
        "national_identification_schema": "national_id_schema",
        "national_identification_number": "national_id_number",
        "customer_person_uuid": "national_id_number",
        "check_birth_date": "birth_date",  # the birth date the number was checked against (the add form's)
    },
    "location": {
        "street_address": "street_address",
        "postal_code": "postal_code",
        "postal_place": "postal_place",
        "country_code_two": "country_code",
        "body": "street_address",
    },
    "monitoring": {"monitoring_comment": "comment", "decision_comment": "comment"},
    "import": {"monitoring_comment": "comment", "approved_flag": "approve"},
    "hold": {"reason": "reason", "entity_uuid": "reason"},
    "hold_release": {"release_reason": "release_reason", "app_membership_uuid": "release_reason"},
    "hold_keep": {"keep_reason": "keep_reason"},
}
NATIONAL_ID_SCHEMAS = [("", "—"), ("NO", "Norway (fødselsnummer or D-number)"), ("SE", "Sweden (personnummer)"), ("DK", "Denmark (CPR)")]


class HeldBoundField(BoundField):
    """A form's field that knows the other customer person who already has its value, when the form was
    refused for that (`ServiceForm.refuse_held`): its error links to their page (form_field.html)."""

    @property
    def held_by(self):
        return self.form.held_by.get(self.name)


class ServiceForm(forms.Form):
    """A form whose fields a service call's body fields map to (FIELD_OF[service_step])."""

    service_step = ""
    bound_field_class = HeldBoundField

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.held_by = {}  # field name -> the customer person who has the value it was refused for

    def refuse_held(self, name: str, text: str, holder) -> None:
        """Refuse the field's value because another customer person already has it (one customer, one
        record): `text` at the field, which links to their page. Asked of the service before anything
        is sent, so nothing is saved."""
        self.add_error(name, text)
        self.held_by[name] = holder

    def add_service_errors(self, error: ServiceBadRequest, step: str | None = None) -> None:
        """Put each of the service's complaints at the field it names (else on the form); `step`: which
        call of a form that makes several."""
        fields = FIELD_OF[step or self.service_step]
        placed = False
        for item in error.errors:
            loc = [str(part) for part in item.get("loc") or []]
            name = next((fields[part] for part in reversed(loc) if part in fields), None)
            if name and name in self.fields:
                self.add_error(name, item.get("msg") or error.detail)
                placed = True
        if not placed:
            self.add_error(None, error.detail)


class PersonDetailsForm(ServiceForm):
    """Name, birth date, gender and nationalities, and the organisation's own number for the customer:
    what a customer person is made with and corrected to (the service refuses a reference another customer
    person of the config has, at its field)."""

    service_step = "person"

    full_name = forms.CharField(max_length=300, label="Full name")
    birth_date = DayField(required=False, label="Birth date")
    gender = forms.ChoiceField(required=False, label="Gender")
    nationalities = forms.CharField(
        required=False, max_length=100, label="Nationality",
        help_text="two letters; several with commas",
        widget=forms.TextInput(attrs={"placeholder": "e.g. NO or NO, SE", "autocomplete": "off"}),
    )
    # What the bank's core system calls the customer, so a hit is traced back to them (the service's limit).
    customer_reference = forms.CharField(
        required=False, max_length=CUSTOMER_REFERENCE_MAX, label="Customer reference (your customer number)",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, genders=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["gender"].choices = [("", "—"), *((str(g.uuid), g.description) for g in genders)]
        self.gender_uuids = {g.key: str(g.uuid) for g in genders}

    def clean_nationalities(self) -> tuple[str, ...]:
        """"no, se" or "NO SE" -> ("NO", "SE"), each once; the service says which is not a country."""
        parts = re.split(r"[\s,;]+", self.cleaned_data["nationalities"].upper())
        return tuple(dict.fromkeys(part for part in parts if part))

    def changes(self, person) -> dict:
        """What differs from the person as the service has them, as `update_customer_person`'s arguments
        (empty: nothing to send). A name that differs only in spaces is the same name (the service keeps
        names with single spaces)."""
        data = self.cleaned_data
        changes = {}
        if " ".join(data["full_name"].split()) != person.full_name:
            changes["full_name"] = data["full_name"]
        if data["birth_date"] != person.birth_date:
            changes["birth_date"] = data["birth_date"]
        if (data["gender"] or "") != self.gender_uuids.get(person.gender_key, ""):
            changes["gender_uuid"] = data["gender"] or None
        if data["nationalities"] != person.nationalities:
            changes["nationalities"] = data["nationalities"]
        if data["customer_reference"] != person.customer_reference:  # both without spaces at either end; "" clears it
            changes["customer_reference"] = data["customer_reference"]
        return changes


class NationalIdForm(ServiceForm):
    """A national id: the issuing country and the number (the service checks the number)."""

    service_step = "national_id"

    national_id_schema = forms.ChoiceField(required=False, choices=NATIONAL_ID_SCHEMAS, label="National id country")
    national_id_number = forms.CharField(required=False, max_length=40, label="National id number")

    def clean(self):
        data = super().clean()
        if data.get("national_id_number") and not data.get("national_id_schema"):
            self.add_error("national_id_schema", "Say which country issued the number.")
        return data


def same_person_text(twin) -> str:
    """The form's message when a customer person of the same name and birth date exists."""
    born = f", born {twin.birth_date:%d.%m.%Y}," if twin.birth_date else " (no birth date)"
    return (f"{twin.full_name}{born} is already a customer person. Nothing was saved: open their page under "
            "Customer persons, or tick “This is someone else” and send again.")


def national_id_held_text(holder) -> str:
    """The field's error when another customer person already has the number (`ServiceForm.refuse_held`)."""
    return f"This national id is already recorded for {_who(holder)}."


def reference_held_text(reference: str, holder) -> str:
    """The field's error when another customer person of the config already has the customer reference
    (`ServiceForm.refuse_held`)."""
    return f"{reference} is already the customer reference of {_who(holder)}."


def _who(person) -> str:
    """ "Kari Nordmann, born 15.10.1986" (without a birth date, the name): which customer person has it."""
    return f"{person.full_name}, born {person.birth_date:%d.%m.%Y}" if person.birth_date else person.full_name


class AddressForm(ServiceForm):
    """An address; every part may be left out (the service checks the country code)."""

    service_step = "location"

    street_address = forms.CharField(required=False, max_length=300, label="Street address")
    postal_code = forms.CharField(required=False, max_length=20, label="Postal code")
    postal_place = forms.CharField(required=False, max_length=100, label="Place")
    country_code = forms.CharField(required=False, max_length=2, label="Country (two letters, e.g. NO)")

    def __init__(self, *args, countries=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.countries = countries  # offered as suggestions; the service checks the code

    def clean_country_code(self) -> str:
        """Checked here too, before a new customer person is saved: refused after it, at the address
        step, the person would wait half added (the service checks it by the same rule)."""
        code = self.cleaned_data["country_code"].strip().upper()
        if code and not country_code_known(code):
            raise forms.ValidationError("Not a country: give its two letters (ISO 3166-1), e.g. NO, SE or DK.")
        return code

    @property
    def address(self) -> PersonAddress:
        data = self.cleaned_data
        return PersonAddress(data["street_address"], data["postal_code"], data["postal_place"], data["country_code"])


class MonitoringForm(ServiceForm):
    """Putting a customer person under monitoring: approved at once or left for a decision, and why."""

    service_step = "monitoring"

    approve = forms.BooleanField(required=False, initial=True, label="Screen from now on (approve the monitoring)")
    comment = forms.CharField(required=False, max_length=4000, label="Why this person is screened")


class CustomerPersonForm(PersonDetailsForm, NationalIdForm, AddressForm, MonitoringForm):
    """A new customer person with, at will, a national id and an address, put under monitoring."""

    customer_person_uuid = forms.UUIDField(required=False, widget=forms.HiddenInput)
    # Ticked when a customer person of the same name and birth date exists and this is someone else.
    someone_else = forms.BooleanField(required=False, label="This is someone else: add them anyway")
    twin = None  # that customer person, once found: the form links to them

    field_order = [
        "full_name", "customer_reference", "birth_date", "gender", "nationalities", "national_id_schema", "national_id_number",
        "street_address", "postal_code", "postal_place", "country_code", "approve", "comment", "customer_person_uuid",
        "someone_else",
    ]

    def __init__(self, *args, national_ids: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not national_ids:
            del self.fields["national_id_schema"], self.fields["national_id_number"]


# --- the customer person's page: correct the details, add a national id or an address ---------------


class PersonCorrectionForm(PersonDetailsForm):
    """The person's name, birth date, gender and nationalities, filled in with what they are now."""

    def __init__(self, data=None, *, person, genders=(), **kwargs) -> None:
        self.person = person
        gender_uuids = {g.key: str(g.uuid) for g in genders}
        initial = {"full_name": person.full_name, "birth_date": person.birth_date, "gender": gender_uuids.get(person.gender_key, ""),
                   "nationalities": ", ".join(person.nationalities), "customer_reference": person.customer_reference}
        super().__init__(data, genders=genders, initial=initial, **kwargs)


class NationalIdAddForm(NationalIdForm):
    """A national id added to a person: the number is what is added."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["national_id_number"].required = True


class AddressAddForm(AddressForm):
    """An address added to a person: at least one of its parts."""

    def clean(self):
        data = super().clean()
        if not any(data.get(name) for name in ("street_address", "postal_code", "postal_place", "country_code")) and not self.errors:
            self.add_error("street_address", "Fill in the address, or at least a place or a country.")
        return data
