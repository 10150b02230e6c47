"""Extension endpoint: import a CSV file of customer persons and put them under monitoring
(person_import.py). Needs `aml`; a file with national ids also `person_national_identification`."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from django.http import HttpRequest
from ninja import File, Router, Schema, Status
from ninja.files import UploadedFile
from pydantic import Field

from service.errors import bad_field
from service.screening.access import EXTENSION, NATIONAL_ID, screening_app_url
from service.screening.config_api import acting, config_of
from service.screening.person_import import ImportResult, RowOutcome, customer_person_file_check, customer_persons_import

router = Router(tags=["Screening customer persons"])

COMMENT_MAX = 500
FILE_FORMAT = (
    "A CSV file (UTF-8; `,` or `;` between columns) with a header, one customer a row: `name` (required); "
    "`birth_date` (YYYY-MM-DD or DD.MM.YYYY, a whole date, not in the future); `gender` (male, female, unknown); "
    "`nationality` (countries separated by `;`); `national_id` with `national_id_country` (NO, SE or DK; checked as "
    "when added one by one, and agreeing with the birth date, which it gives when none is); `street_address`, "
    "`postal_code`, `postal_place`, `address_country` (the person's residence); `id` (your number for the customer: "
    "their `customer_reference`, echoed per row as `reference`). Other columns are ignored."
)


class ImportRowOut(Schema):
    line: int
    reference: str
    full_name: str
    birth_date: date | None
    outcome: Literal["created", "monitored", "already_monitored"]
    customer_person_uuid: uuid.UUID | None = Field(description="null for a person a dry run would create")
    entity_monitoring_uuid: uuid.UUID | None
    national_id_added_flag: bool
    customer_reference_added_flag: bool = Field(description="an existing person without a reference got the row's")
    approved_now_flag: bool = Field(
        description="with approved_flag: an existing person's monitoring that waited for a decision is approved"
    )
    app_url: str | None


class ImportOut(Schema):
    dry_run: bool
    approved_flag: bool
    file_name: str
    rows_count: int
    created_count: int = Field(description="new customer persons, each with a new monitoring")
    monitored_count: int = Field(description="monitorings created: new persons and existing ones nothing screened")
    already_monitored_count: int = Field(description="existing customer persons under a monitoring that is not removed")
    national_ids_added_count: int
    approved_now_count: int = Field(
        description="with approved_flag: existing persons' monitorings that waited for a decision, approved now"
    )
    rows: list[ImportRowOut]


def _row_out(outcome: RowOutcome) -> dict:
    row, person_uuid = outcome.row, outcome.person_uuid
    return {
        "line": row.line,
        "reference": row.reference,
        "full_name": row.full_name,
        "birth_date": row.birth_date,
        "outcome": outcome.outcome,
        "customer_person_uuid": person_uuid,
        "entity_monitoring_uuid": outcome.monitoring_uuid,
        "national_id_added_flag": outcome.national_id_added,
        "customer_reference_added_flag": outcome.reference_added,
        "approved_now_flag": outcome.approved_now,
        "app_url": screening_app_url(f"/screening/customer-persons/{person_uuid}/") if person_uuid else None,
    }


def _out(result: ImportResult) -> dict:
    return {
        "dry_run": result.dry_run,
        "approved_flag": result.approved_flag,
        "file_name": result.file_name,
        "rows_count": len(result.rows),
        "created_count": result.created_count,
        "monitored_count": result.monitored_count,
        "already_monitored_count": result.already_monitored_count,
        "national_ids_added_count": result.national_ids_added_count,
        "approved_now_count": result.approved_now_count,
        "rows": [_row_out(outcome) for outcome in result.rows],
    }


def import_request_checked(request: HttpRequest, screening_config_uuid: uuid.UUID, file: UploadedFile | None,
                           monitoring_comment: str, app_membership_uuid: uuid.UUID | None):
    """The config and the actor of an import's request (this one's or a job's), or the 4xx naming what is wrong."""
    config = config_of(request, screening_config_uuid)
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    if len(monitoring_comment) > COMMENT_MAX:
        raise bad_field(["query", "monitoring_comment"], f"at most {COMMENT_MAX} characters")
    if file is None:
        raise bad_field(["body", "file"], "send the CSV file as multipart form data in the field `file`")
    return config, actor


@router.post(
    "/screening-config/{screening_config_uuid}/customer-person-import",
    response={200: ImportOut, 201: ImportOut},
    summary="Extension: import a CSV file of customer persons and put them under monitoring",
    description=(
        f"{FILE_FORMAT} Send it as multipart form data in the field `file`. All or nothing: any bad row is a 400 whose "
        '`errors` name every problem by line and column (`["body", "file", "line 7", "birth_date"]`), and a row of '
        "a customer another row already is (the same national id, or the same name and birth date) is one; nothing "
        "is written. Larger than the body limit: 413; more rows than `VAKT_BATCH_MAX_ROWS` (default 10,000): 400. A "
        "file with national ids needs the `person_national_identification` role besides `aml` (403).\n\n"
        "Each row is one customer person: `created` (new, with a monitoring), `monitored` (an existing customer person "
        "nothing screened: a new monitoring), or `already_monitored` (an existing one under a monitoring that is not "
        "removed: nothing new, except a customer reference or national id the row has and they lack). An existing "
        "customer person is the row's customer when their customer reference is the row's `id`, a national id recorded "
        "for them is the row's, or their name (any case) and birth date are, unless other references or numbers of one "
        "country tell them apart; a reference and a number of two people are a 400. So importing a file again creates nothing. Monitorings "
        "have type `other` and `monitoring_comment` (default \"Imported from <file name>.\"); with `approved_flag` "
        "they are approved at once by the member (`app_membership_uuid`) and screened, as are existing persons' "
        "monitorings that wait for their first decision (`approved_now_flag`; a declined one stays declined), "
        "otherwise they wait for a decision. Every person, number, address and approval is in the audit log. `dry_run`: 200 with what would "
        "be done, nothing written; otherwise 201."
    ),
    openapi_extra=EXTENSION,
)
def customer_person_import(
    request: HttpRequest, screening_config_uuid: uuid.UUID, file: UploadedFile | None = File(None),
    approved_flag: bool = False, monitoring_comment: str = "", dry_run: bool = False,
    app_membership_uuid: uuid.UUID | None = None,
):
    config, actor = import_request_checked(request, screening_config_uuid, file, monitoring_comment, app_membership_uuid)
    person_file = customer_person_file_check(
        content=file.read(), national_ids_check=lambda: request.auth.require("aml", NATIONAL_ID)
    )
    result = customer_persons_import(
        config=config, person_file=person_file, file_name=file.name or "", approved_flag=approved_flag,
        comment=monitoring_comment, actor=actor, dry_run=dry_run,
    )
    return Status(200 if dry_run else 201, _out(result))
