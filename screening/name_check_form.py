"""Check one name: a person or company typed in, screened as a one-row batch job.

The service's batch jobs already check a row (birth date, countries, what a company may not
have) and screen it in the worker, where the lists' index is loaded; a one-name check goes the
same way, so there is one rule for a row and the web process never loads the index. The job is
in the list and the audit log like any file: who checked which name, and when, is on record.
"""

from __future__ import annotations

import csv
import io

from django import forms

from portal.service import ServiceBadRequest
from vakt_format.norwegian import partial_day_iso

PERSON, COMPANY = "person", "company"
COLUMNS = ("type", "id", "name", "birth_date", "nationality", "gender", "country")
# The file's column (in the service's error `loc`) -> the form's field
FIELD_OF = {"type": "kind", "id": "reference", "name": "name", "birth_date": "birth_date", "nationality": "country",
            "country": "country", "gender": "gender"}
BIRTH_DATE_HINT = "dd.mm.yyyy, mm.yyyy or yyyy"


class NameCheckForm(forms.Form):
    kind = forms.ChoiceField(choices=[(PERSON, "Person"), (COMPANY, "Company")], initial=PERSON,
                             widget=forms.RadioSelect, label="Who")
    name = forms.CharField(max_length=500, label="Name", widget=forms.TextInput(attrs={"autocomplete": "off"}))
    birth_date = forms.CharField(required=False, max_length=10, label="Birth date",
                                 widget=forms.TextInput(attrs={"placeholder": BIRTH_DATE_HINT, "autocomplete": "off"}))
    country = forms.CharField(required=False, max_length=100, label="Nationality or country",
                              widget=forms.TextInput(attrs={"placeholder": "e.g. NO or NO; SE"}))
    gender = forms.ChoiceField(required=False, choices=[("", "—"), ("female", "Female"), ("male", "Male")],
                               label="Gender")
    reference = forms.CharField(required=False, max_length=100, label="Your reference")

    def clean_birth_date(self) -> str:
        """Typed as the dashboard writes days (14.03.1966, 03.1966, 1966), sent as the file format's
        ISO form; whether it is a date, and not in the future, is the service's rule for a row."""
        return partial_day_iso(self.cleaned_data["birth_date"])

    def file_name(self) -> str:
        """What the job is called in the list: the name, said to be a check of one name."""
        return f"{self.cleaned_data['name'].strip()} (name check)"

    def csv_content(self) -> bytes:
        """The form as a one-row file of the batch format; a person's country is its nationality."""
        data = self.cleaned_data
        person = data["kind"] == PERSON
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerow([data["kind"], data["reference"].strip(), data["name"].strip(), data["birth_date"],
                         data["country"].strip() if person else "", data["gender"], "" if person else data["country"].strip()])
        return out.getvalue().encode("utf-8")

    def add_service_errors(self, error: ServiceBadRequest) -> None:
        """The service names a problem by line and column (`["body", "file", "line 2", "birth_date"]`);
        each lands on the field it came from, and anything else on the form."""
        placed = False
        for problem in error.errors or []:
            loc = [str(part) for part in problem.get("loc", [])]
            field = FIELD_OF.get(loc[3]) if len(loc) > 3 else None
            message = _sentence(problem.get("msg", ""))
            if field == "birth_date":  # said of the date as typed, not as sent in the file's ISO form
                typed, sent = self.data.get("birth_date", "").strip(), self.cleaned_data.get("birth_date", "")
                message = message.replace(sent, typed) if sent and typed else message
                if "YYYY" in message:
                    message = f"Enter the birth date as {BIRTH_DATE_HINT}, e.g. 14.03.1966."
            if field in self.fields:
                self.add_error(field, message)
                placed = True
        if not placed:
            self.add_error(None, error.detail)


def _sentence(message: str) -> str:
    return f"{message[:1].upper()}{message[1:]}." if message and not message.endswith(".") else message
