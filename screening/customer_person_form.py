"""The form that adds a customer person and puts them under monitoring, and where the
service's field errors land on it.

Adding takes up to four calls (person, national id, address, monitoring); the service has
no single call for it. When a later call is refused, the person already exists: the form
carries its uuid, so sending the corrected form again continues with that person instead
of creating a second one (views_approvals reads that person and skips what they already have).
"""

from __future__ import annotations

from django import forms

from portal.form_fields import DayField
from portal.service import ServiceBadRequest

# The service's body field, per step, -> the form's field
FIELD_OF = {
    "person": {"full_name": "full_name", "birth_date": "birth_date", "gender_uuid": "gender"},
    "national_id": {
        "national_identification_schema": "national_id_schema",
        "national_identification_number": "national_id_number",
        "customer_person_uuid": "national_id_number",
    },
    "location": {
        "street_address": "street_address",
        "postal_code": "postal_code",
        "postal_place": "postal_place",
        "country_code_two": "country_code",
        "body": "street_address",
    },
    "monitoring": {},
}
NATIONAL_ID_SCHEMAS = [("", "—"), ("NO", "Norway (fødselsnummer or D-number)"), ("SE", "Sweden (personnummer)"), ("DK", "Denmark (CPR)")]


class CustomerPersonForm(forms.Form):
    full_name = forms.CharField(max_length=300, label="Full name")
    birth_date = DayField(required=False, label="Birth date")
    gender = forms.ChoiceField(required=False, label="Gender")
    national_id_schema = forms.ChoiceField(required=False, choices=NATIONAL_ID_SCHEMAS, label="National id country")
    national_id_number = forms.CharField(required=False, max_length=40, label="National id number")
    street_address = forms.CharField(required=False, max_length=300, label="Street address")
    postal_code = forms.CharField(required=False, max_length=20, label="Postal code")
    postal_place = forms.CharField(required=False, max_length=100, label="Place")
    country_code = forms.CharField(required=False, max_length=2, label="Country (two letters, e.g. NO)")
    approve = forms.BooleanField(required=False, initial=True, label="Screen from now on (approve the monitoring)")
    comment = forms.CharField(required=False, max_length=4000, label="Why this person is screened")
    customer_person_uuid = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, genders=(), countries=(), national_ids: bool = True, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["gender"].choices = [("", "—"), *((str(g.uuid), g.description) for g in genders)]
        self.countries = countries  # offered as suggestions; the service checks the code
        if not national_ids:
            del self.fields["national_id_schema"], self.fields["national_id_number"]

    def clean_country_code(self) -> str:
        return self.cleaned_data["country_code"].strip().upper()

    def clean(self):
        data = super().clean()
        if data.get("national_id_number") and not data.get("national_id_schema"):
            self.add_error("national_id_schema", "Say which country issued the number.")
        return data

    def add_service_errors(self, step: str, error: ServiceBadRequest) -> None:
        """Put each of the service's complaints at the field it names (else on the form)."""
        fields = FIELD_OF[step]
        placed = False
        for item in error.errors:
            loc = [str(part) for part in item.get("loc") or []]
            name = next((fields[part] for part in reversed(loc) if part in fields), None)
            if name and name in self.fields:
                self.add_error(name, item.get("msg") or error.detail)
                placed = True
        if not placed:
            self.add_error(None, error.detail)
