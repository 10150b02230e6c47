"""Form fields the dashboard's forms share.

A day is typed and shown as the dashboard writes days elsewhere (15.10.1986), not in the
browser's own format: an `<input type="date">` follows the browser's locale (10/15/1986 in
an English browser), so day fields are text fields with the format as their hint.
"""

from __future__ import annotations

from datetime import date

from django import forms
from django.core.exceptions import ValidationError

from vakt_format.norwegian import DAY_FORMAT, day

DAY_HINT = "dd.mm.yyyy"
ISO_DAY = "%Y-%m-%d"  # accepted too: what a date picker or a pasted ISO date gives


class DayField(forms.DateField):
    """A day as dd.mm.yyyy (ISO yyyy-mm-dd accepted too), shown back as dd.mm.yyyy."""

    default_error_messages = {"invalid": f"Enter the date as {DAY_HINT}, e.g. 15.10.1986."}

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("help_text", DAY_HINT)
        attrs = {"placeholder": DAY_HINT, "inputmode": "numeric", "autocomplete": "off"}
        super().__init__(input_formats=[DAY_FORMAT, ISO_DAY], widget=forms.TextInput(attrs=attrs), **kwargs)

    def prepare_value(self, value):
        """A day as dd.mm.yyyy, also when it was typed as yyyy-mm-dd; what is not a day, as typed."""
        if isinstance(value, str):
            try:
                value = self.to_python(value)
            except ValidationError:
                return value
        return day(value) if isinstance(value, date) else value
