"""Extension endpoints: batch screening of a CSV file of persons and companies (batch_services.py).

A job belongs to a screening config, whose lists it screens against (PEP always, sanction
lists as selected); another config's or organisation's job is 404. Every endpoint needs `aml`.
"""

from __future__ import annotations

import io
import json
import uuid

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpRequest
from ninja import File, Query, Router, Schema, Status
from ninja.files import UploadedFile

from service.errors import ApiError, NotFound, bad_field
from service.pagination import PageQuery, composite_collection
from service.screening import batch_schemas as s
from service.screening import batch_selectors as selectors
from service.screening import batch_services as services
from service.screening.access import EXTENSION
from service.screening.batch_report import batch_report_render
from service.screening.config_api import acting, config_of
from service.screening.models import ScreeningBatch
from service.screening.person_file import list_names, result_csv_write

router = Router(tags=["Screening batches"])

FILE_FORMAT = (
    "A CSV file (UTF-8; `,` or `;` between columns) with a header. `type`: `person` (the default) or `company`; "
    "`name` (required); `id` (optional, repeated in the result). Persons: `birth_date` (YYYY, YYYY-MM or "
    "YYYY-MM-DD, not in the future), `nationality` (countries separated by `;`), `gender` (male, female, unknown). "
    "Companies: `country`. Other columns are ignored."
)


NOT_READY = {
    "description": "The job is not complete yet (`code`: not_ready)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
DELETED = {
    "description": "The job's file and result were deleted (`code`: deleted)",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


RESULT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json", "pdf": "application/pdf"}


class ResultQuery(Schema):
    response_file_type: str = "csv"


@router.post(
    "/screening-config/{screening_config_uuid}/screening-batch",
    response={202: s.ScreeningBatchOut},
    summary="Extension: screen a CSV file of persons and companies in the background",
    description=(
        f"{FILE_FORMAT} Send it as multipart form data in the field `file`. The whole file is checked first: "
        "any bad row is a 400 whose `errors` name every problem by line and column "
        '(`["body", "file", "line 7", "birth_date"]`) and nothing is screened. Larger than the body limit: 413; '
        "more rows than the row limit (`VAKT_BATCH_MAX_ROWS`, default 10,000): 400. A good file answers 202 with "
        "the job; poll it until `screening_batch_status_key` is `complete`, then download `result_url`. The rows "
        "are screened against the lists the config receives hits from: PEP always, sanction lists as selected. "
        "`app_membership_uuid` (query): the member who uploads, for the audit log."
    ),
    openapi_extra=EXTENSION,
)
def batch_create(
    request: HttpRequest, screening_config_uuid: uuid.UUID, file: UploadedFile | None = File(None),
    app_membership_uuid: uuid.UUID | None = None,
):
    config = config_of(request, screening_config_uuid)
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    if file is None:
        raise bad_field(["body", "file"], "send the CSV file as multipart form data in the field `file`")
    batch = services.batch_create(config=config, file_name=file.name or "", content=file.read(), actor=actor)
    batch.refresh_from_db()
    return Status(202, s.batch_out(request, batch))


@router.get(
    "/screening-config/{screening_config_uuid}/screening-batch",
    response=list[s.ScreeningBatchCollection],
    summary="Extension: the config's batch screening jobs",
    description="Newest first; `limit` (default 100, at most 1000) and `offset` as in rule 6.",
    openapi_extra=EXTENSION,
)
def batch_list(request: HttpRequest, screening_config_uuid: uuid.UUID, query: Query[PageQuery]):
    config = config_of(request, screening_config_uuid)
    return composite_collection(
        selectors.batches_list(config=config), query.page(), lambda b: s.batch_out(request, b), ordering=("-create_timestamp", "-uuid")
    )


@router.get(
    "/screening-config/{screening_config_uuid}/screening-batch/{screening_batch_uuid}",
    response=s.ScreeningBatchOut,
    summary="Extension: one batch screening job, with its progress",
    openapi_extra=EXTENSION,
)
def batch_detail(request: HttpRequest, screening_config_uuid: uuid.UUID, screening_batch_uuid: uuid.UUID):
    config = config_of(request, screening_config_uuid)
    return s.batch_out(request, selectors.batch_get(config=config, batch_uuid=screening_batch_uuid))


@router.get(
    "/screening-config/{screening_config_uuid}/screening-batch/{screening_batch_uuid}/result",
    response={200: None},
    summary="Extension: the result of a complete batch screening job",
    description=(
        "`response_file_type=csv` (default): for a person opening it in a spreadsheet (UTF-8 with a byte order "
        "mark): a header row in words (Line, Your reference, Kind, Name, Born, Nationality, Country, Possible hit, "
        "Hit, List, List type, Source id, Listed name, Score, Why), then in file order a line per hit of a row "
        "(its best three, best first) and one line for a row without a hit: the list's name, Person or Company, "
        "PEP or Sanction, Yes or No, the score and birth dates as the dashboard writes them (0,93; 14.03.1966) "
        "and why in words (name similarity, aligned name parts, birth date and nationality agreement). "
        "`json`, for programs: the rows as a list with their keys (`type`, `birth_date` as partial ISO ...), "
        "each with `hits` carrying the list key, the list entry's uuid, the score as a number and the full "
        "explanation (`explanation_detail`: aligned name parts, birth date, nationality, gender adjustments). "
        "`pdf`: the record of the check to file (who checked, when, the list versions screened against, each "
        "row's hits and why). "
        "A job that is not complete is a 409; a deleted one a 410."
    ),
    openapi_extra={**EXTENSION, "responses": {"409": NOT_READY, "410": DELETED}},
)
def batch_result(request: HttpRequest, screening_config_uuid: uuid.UUID, screening_batch_uuid: uuid.UUID, query: Query[ResultQuery]):
    config = config_of(request, screening_config_uuid)
    if query.response_file_type not in RESULT_TYPES:
        raise bad_field(["query", "response_file_type"], "use csv, json or pdf")
    batch = selectors.batch_get(config=config, batch_uuid=screening_batch_uuid)
    if batch.status == ScreeningBatch.Status.DELETED:
        raise ApiError(
            f"The job's file and result were deleted on {batch.deleted_timestamp:%Y-%m-%d} "
            f"({batch.get_deletion_reason_key_display()}).", code="deleted", status=410,
        )
    if batch.status != ScreeningBatch.Status.COMPLETE:
        raise ApiError(
            f"The job is {batch.status}; its result can be downloaded once it is complete.", code="not_ready", status=409
        )
    file_type = query.response_file_type
    name = batch.storage_name(services.RESULT_JSON)
    if not default_storage.exists(name):
        raise NotFound("The result file of this job is gone.")
    stem = batch.file_name.rsplit(".", 1)[0] or "screening"
    try:
        content = default_storage.open(name, "rb")
    except FileNotFoundError:  # deleted between the check and the open
        raise NotFound("The result file of this job is gone.") from None
    if file_type != "json":  # the CSV and the PDF are rendered from the JSON result, stored nowhere
        with content:
            rows = json.load(content)
        if file_type == "pdf":
            content = io.BytesIO(batch_report_render(batch=batch, rows=rows, organisation_name=config.app_customer.name))
        else:
            text = io.StringIO(newline="")
            result_csv_write(text, rows, names=list_names())
            content = io.BytesIO(text.getvalue().encode("utf-8"))
    response = FileResponse(content, content_type=RESULT_TYPES[file_type], as_attachment=True,
                            filename=f"{stem}-result.{file_type}")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@router.delete(
    "/screening-config/{screening_config_uuid}/screening-batch/{screening_batch_uuid}",
    response={204: None},
    summary="Extension: delete a batch screening job's file and result",
    description=(
        "Removes the uploaded file, its result and the rows screened: the names of the persons in it. "
        "The job stays, `deleted`, with its counts, and the audit log records who deleted it "
        "(`app_membership_uuid`, query). A job still running stops. Files are deleted anyway "
        "`VAKT_BATCH_RETENTION_DAYS` after the upload (`retained_until`). A job already deleted: 204."
    ),
    openapi_extra=EXTENSION,
)
def batch_delete(request: HttpRequest, screening_config_uuid: uuid.UUID, screening_batch_uuid: uuid.UUID,
                 app_membership_uuid: uuid.UUID | None = None):
    config = config_of(request, screening_config_uuid)
    batch = selectors.batch_get(config=config, batch_uuid=screening_batch_uuid)
    actor = acting(request, app_membership_uuid, ["query", "app_membership_uuid"])
    services.batch_delete(batch=batch, actor=actor)
    return Status(204, None)
