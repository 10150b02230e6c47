"""The datasets API router, mounted at /datasets/v1/ (spec §4.6; docs/datasets.md).

Thin: everything a request asks for is validated before the response starts
(so a bad filter is a proper 400, not a broken stream), then rows are streamed.
"""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest, StreamingHttpResponse
from ninja import Field, Query, Router, Schema

from service.auth.principal import principal_of
from service.companies.datasets.fields import FieldType
from service.companies.datasets.filters import Operator, conditions_from
from service.companies.datasets.formats import FORMATS
from service.companies.datasets.keyset import keyset_from
from service.companies.datasets.names import visible_fields
from service.companies.datasets.query import dataset_queryset, plan_for, plan_rows
from service.companies.datasets.registry import DATASETS, dataset_named
from service.companies.datasets.selection import selection_from
from service.errors import BadRequest, bad_field, field_error
from service.pagination import page_from

router = Router(tags=["Datasets"])

DEFAULT_LIMIT = 1000
MAX_LIMIT = 100_000

DATASET_DOC = f"""Rows of one dataset, streamed, ordered by primary key (offsets are stable).

Datasets: {", ".join(DATASETS)} (`GET /datasets/v1/dataset` lists their entities and fields).

Filters are query parameters `<entity>.<field>=<value>`, or `<field>=<value>` for the root
entity; the value may start with an operator: {", ".join(op.value for op in Operator)}
(`accounts_type.accounts_type_key=EQ:annual_company_accounts`, `update_timestamp=GTE:2021-05-01`,
`company.name=LIKE:%fjord%`, `accounting_year=IN:2021,2022`, `accounts_balance_sheet.uuid=ISNULL:true`).
Pagination: `limit` (default {DEFAULT_LIMIT}, at most {MAX_LIMIT}) and `offset`; for change feeds
`after_update_timestamp` with `after_uuid` instead of `offset`: rows ordered by the root's
`update_timestamp`, then `uuid`, strictly after that position (the last row of the previous page).
"""


class DatasetFieldOut(Schema):
    name: str
    type: Literal[tuple(t.value for t in FieldType)] = Field(description="The value's type on the wire")  # type: ignore[valid-type]
    filterable: bool = Field(description="Whether `<entity>.<field>=<value>` filters on it")


class DatasetEntityOut(Schema):
    name: str
    fields: list[DatasetFieldOut] = Field(description="The fields the caller's roles show")


class DatasetOut(Schema):
    name: str
    description: str
    composite: bool = Field(description="Rows are `{entity: {...}}` objects, not flat")
    required_role: str | None = Field(description="The role key the whole dataset needs, if any")
    entities: list[DatasetEntityOut]


@router.get(
    "/dataset", response=list[DatasetOut], summary="List the datasets with their entities and fields (extension)"
)
def dataset_catalogue(request: HttpRequest) -> list[dict]:
    granted = principal_of(request).granted_roles
    return [
        {
            "name": dataset.name,
            "description": dataset.description,
            "composite": dataset.composite,
            "required_role": dataset.role,
            "entities": [
                {
                    "name": entity.name,
                    "fields": [
                        {"name": field.name, "type": field.type.value, "filterable": field.filterable}
                        for field in visible_fields(entity, granted_roles=granted)
                    ],
                }
                for entity in dataset.entities
            ],
        }
        for dataset in DATASETS.values()
    ]


@router.get("/dataset/{name}", summary="Stream a dataset", description=DATASET_DOC)
def dataset_rows(
    request: HttpRequest,
    name: str,
    limit: int | None = Query(None, description=f"rows per page, 1..{MAX_LIMIT} (default {DEFAULT_LIMIT})"),
    offset: int | None = Query(None, description="rows to skip, by primary key order"),
    after_update_timestamp: str | None = Query(
        None, description="keyset page: rows after this update_timestamp (with after_uuid), in update order"
    ),
    after_uuid: str | None = Query(None, description="keyset page: the uuid of the last row of the previous page"),
    keep_only_fields: str | None = Query(None, description="comma list of entity, entity.field or root field"),
    ignore_fields: str | None = Query(None, description="comma list of entity, entity.field or root field"),
    response_file_type: str = Query("json", description=f"one of {', '.join(FORMATS)}"),
) -> StreamingHttpResponse:
    principal = principal_of(request)
    dataset = dataset_named(name)
    if dataset is None:
        detail = f"No dataset named {name!r}. Available datasets: {', '.join(DATASETS)}."
        raise BadRequest(detail, code="unknown_dataset", errors=[field_error(["path", "name"], detail)])
    if dataset.role is not None:
        principal.require(dataset.role)
    page = page_from(limit, offset, default=DEFAULT_LIMIT, maximum=MAX_LIMIT)
    keyset = keyset_from(
        dataset=dataset, after_update_timestamp=after_update_timestamp, after_uuid=after_uuid, offset=offset
    )
    response_format = FORMATS.get(response_file_type)
    if response_format is None:
        raise bad_field(["query", "response_file_type"], f"must be one of {', '.join(FORMATS)}")
    granted = principal.granted_roles
    selection = selection_from(dataset=dataset, keep_only=keep_only_fields, ignore=ignore_fields, granted_roles=granted)
    conditions = conditions_from(dataset=dataset, params=request.GET.lists(), granted_roles=granted)
    plan = plan_for(dataset=dataset, selection=selection)
    queryset = dataset_queryset(dataset=dataset, conditions=conditions, granted_roles=granted, keyset=keyset)
    rows = plan_rows(plan=plan, queryset=queryset, page=page, ordering=keyset.ordering if keyset else ("pk",))
    response = StreamingHttpResponse(response_format.stream(plan, rows), content_type=response_format.content_type)
    response["Content-Disposition"] = f'inline; filename="{dataset.name}.{response_format.name}"'
    return response
