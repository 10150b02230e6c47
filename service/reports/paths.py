"""Report file paths (spec §2.6) and where their files live in storage.

    app_customer/{app_customer_uuid}/company/{company_uuid}/{partner_report_type_key}/{file_name}

A path from a request is accepted only in exactly this shape: canonical lower-case
uuids, a lower-case type key and a plain file name. So `..`, absolute paths,
backslashes, percent signs (a %2F or %2e%2e that survived decoding, or a double
encoding) and empty segments are all a 400 before any lookup, and nothing built from
a request can name a file outside its organisation's folder.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from service.errors import bad_field

BUCKET = "general"  # the only bucket: report files (spec §4.4)
_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_PATH = re.compile(
    rf"app_customer/(?P<app_customer>{_UUID})/company/(?P<company>{_UUID})"
    r"/(?P<report_type>[a-z][a-z_]{0,63})/(?P<file_name>[a-z0-9][a-z0-9_-]{0,99}\.pdf)"
)
SHAPE = "app_customer/{app_customer_uuid}/company/{company_uuid}/{partner_report_type_key}/{file_name}"


@dataclass(frozen=True)
class ReportFilePath:
    path: str
    app_customer_uuid: uuid.UUID


def report_file_path(*, app_customer_uuid, company_uuid, report_type_key: str, report_uuid) -> str:
    return f"app_customer/{app_customer_uuid}/company/{company_uuid}/{report_type_key}/{report_uuid}.pdf"


def report_file_path_parse(raw: str, *, loc: list) -> ReportFilePath:
    """The path when it has exactly the report file shape, else a 400 naming `loc`."""
    match = _PATH.fullmatch(raw or "")
    if match is None:
        raise bad_field(loc, f"not a report file path; expected {SHAPE}", code="invalid_file_path")
    return ReportFilePath(path=raw, app_customer_uuid=uuid.UUID(match["app_customer"]))


def storage_name(file_path: str) -> str:
    """Where a report file lives in Django's storage: under its bucket's folder."""
    return f"{BUCKET}/{file_path}"
