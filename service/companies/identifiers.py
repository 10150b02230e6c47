"""Company identifiers: a company uuid, or `<schema><org_nr>` such as `NO913748174`.

Organisation numbers are checked with python-stdnum (NO: mod-11; SE, DK and FI with
their own check digits), so a malformed identifier is a 400 that says why, and a
well-formed unknown one a 404. Spaces and separators are compacted away.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from stdnum.exceptions import InvalidChecksum, InvalidFormat, InvalidLength
from stdnum.exceptions import ValidationError as StdnumValidationError
from stdnum.dk import cvr as dk_cvr
from stdnum.fi import ytunnus as fi_ytunnus
from stdnum.no import orgnr as no_orgnr
from stdnum.se import orgnr as se_orgnr

from service.errors import NotFound, bad_field

_SCHEMA_VALIDATORS = {"NO": no_orgnr, "SE": se_orgnr, "DK": dk_cvr, "FI": fi_ytunnus}
# digits of a valid number (FI with its check digit), for saying what is wrong with one
_DIGITS = {"NO": (9, "Norwegian"), "SE": (10, "Swedish"), "DK": (8, "Danish"), "FI": (8, "Finnish")}
ORG_NR_SCHEMAS = tuple(_SCHEMA_VALIDATORS)
# Two schema letters, then the number itself, which starts with a digit: "not-a-uuid" is no "NO" number.
_SCHEMA_PREFIX = re.compile(r"^([A-Za-z]{2})\s*(\d.*)$")
ACCEPTED_FORMS = (
    "a company uuid (such as 3fa85f64-5717-4562-b3fc-2c963f66afa6) or an organisation number "
    "prefixed with its schema (such as NO912345678)"
)
IDENTIFIER_DOC = "A company uuid, or the organisation number prefixed by its country schema (e.g. NO913748174)."


@dataclass(frozen=True)
class CompanyIdentifier:
    company_uuid: uuid.UUID | None = None
    org_nr_schema: str | None = None
    org_nr: str | None = None


class OrgNrInvalid(ValueError):
    """Why an organisation number is refused; `field` is the one at fault (org_nr_schema or org_nr)."""

    def __init__(self, field: str, msg: str) -> None:
        super().__init__(msg)
        self.field = field
        self.msg = msg


def org_nr_compact(*, org_nr: str, org_nr_schema: str) -> str:
    """The compact, valid organisation number (`912 345 678` -> `912345678`), or OrgNrInvalid."""
    schema = org_nr_schema.upper()
    validator = _SCHEMA_VALIDATORS.get(schema)
    if validator is None:
        raise OrgNrInvalid(
            "org_nr_schema", f"unsupported org_nr_schema {org_nr_schema!r}; supported: {', '.join(ORG_NR_SCHEMAS)}"
        )
    try:
        return validator.validate(org_nr)
    except StdnumValidationError as exc:
        raise OrgNrInvalid("org_nr", f"{org_nr!r} is not a valid {schema} organisation number: {_why(exc, org_nr, schema)}") from None


def _why(exc: StdnumValidationError, org_nr: str, schema: str) -> str:
    """What is wrong, in words a person can act on (python-stdnum says "The number has an invalid length.")."""
    if isinstance(exc, InvalidLength):
        digits = sum(char.isdigit() for char in org_nr)
        expected, country = _DIGITS[schema]
        return f"it has {digits} digit{'s' if digits != 1 else ''}, a {country} organisation number has {expected}"
    if isinstance(exc, InvalidChecksum):
        return "its check digit does not match (a digit mistyped or two swapped?)"
    if isinstance(exc, InvalidFormat):
        return "it holds something other than digits"
    return str(exc).rstrip(".").lower()


def org_nr_validate(*, org_nr: str, org_nr_schema: str, loc: list[str | int]) -> str:
    """The compact, valid organisation number, or a 400 naming `loc`."""
    try:
        return org_nr_compact(org_nr=org_nr, org_nr_schema=org_nr_schema)
    except OrgNrInvalid as exc:
        raise bad_field(loc, exc.msg) from None


def company_identifier_parse(value: str, *, loc: list[str | int]) -> CompanyIdentifier:
    value = (value or "").strip()
    if not value:
        raise bad_field(loc, f"required: {ACCEPTED_FORMS}")
    try:
        return CompanyIdentifier(company_uuid=uuid.UUID(value))
    except ValueError:
        pass
    match = _SCHEMA_PREFIX.match(value)
    if not match:
        hint = f"; a bare organisation number needs its schema: NO{value}" if value.isdigit() else ""
        raise bad_field(loc, f"{value!r} is not a company identifier; use {ACCEPTED_FORMS}{hint}")
    schema = match.group(1).upper()
    return CompanyIdentifier(
        org_nr_schema=schema, org_nr=org_nr_validate(org_nr=match.group(2), org_nr_schema=schema, loc=loc)
    )


def company_get(value: str, *, loc: list[str | int] | None = None, queryset=None):
    """The company an identifier names: 400 when malformed, 404 when unknown."""
    from service.companies.models import Company

    loc = loc or ["path", "company_identifier"]
    identifier = company_identifier_parse(value, loc=loc)
    queryset = queryset if queryset is not None else Company.objects.all()
    if identifier.company_uuid:
        company = queryset.filter(uuid=identifier.company_uuid).first()
    else:
        company = queryset.filter(org_nr_schema=identifier.org_nr_schema, org_nr=identifier.org_nr).first()
    if company is None:
        raise NotFound(f"No company with identifier {value!r}.")
    return company
