"""Dot-notation filters: `<entity>.<field>=<OP>:<value>` (or a bare `<field>` of the root entity).

    accounts_type.accounts_type_key=EQ:annual_company_accounts
    accounts_highlights.return_on_assets=GT:0.1
    update_timestamp=GTE:2021-05-01            (root entity: accounts in accounts-composite)
    company.name=LIKE:%fjord%                  (SQL LIKE, case-insensitive)
    accounting_year=IN:2021,2022
    accounts_balance_sheet.uuid=ISNULL:true    (accounts without a balance sheet)

A value without an operator means EQ. Values are typed by the field; a bad one
is a 400 naming the parameter. Repeating a parameter ANDs the conditions
(`accounting_year=GTE:2019&accounting_year=LTE:2021`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import models
from django.db.models import Q, QuerySet

from service.companies.datasets.fields import ORDERED_TYPES, FieldType, check_column_range, parse_value
from service.companies.datasets.names import entity_for, field_for, split_reference, unknown_name
from service.companies.datasets.schema import Dataset, Field
from service.errors import bad_field

# Query parameters that are not filters.
RESERVED_PARAMETERS = (
    "limit",
    "offset",
    "after_update_timestamp",
    "after_uuid",
    "keep_only_fields",
    "ignore_fields",
    "response_file_type",
)


class Operator(enum.Enum):
    EQ = "EQ"
    NEQ = "NEQ"
    GT = "GT"
    GTE = "GTE"
    LT = "LT"
    LTE = "LTE"
    LIKE = "LIKE"
    IN = "IN"
    ISNULL = "ISNULL"


_COMPARISONS = {Operator.GT: "gt", Operator.GTE: "gte", Operator.LT: "lt", Operator.LTE: "lte"}
# An operator is a word of letters before the first colon; timestamps (2021-05-01T10:00) never look like one.
_OPERATOR_PREFIX = re.compile(r"([A-Za-z]+):(.*)", re.DOTALL)


@dataclass(frozen=True)
class Condition:
    parameter: str
    field: Field
    operator: Operator
    value: Any


def conditions_from(
    *, dataset: Dataset, params: Iterable[tuple[str, list[str]]], granted_roles: frozenset[str]
) -> list[Condition]:
    """Every filter among the query parameters (`QueryDict.lists()`), validated and typed."""
    conditions = []
    for parameter, raw_values in params:
        if parameter in RESERVED_PARAMETERS:
            continue
        field = _field_of_parameter(dataset=dataset, parameter=parameter, granted_roles=granted_roles)
        column = column_of(dataset.model, field.path)
        for raw in raw_values:
            operator, operand = _split_operator(parameter=parameter, raw=raw)
            value = _typed_operand(parameter=parameter, field=field, column=column, operator=operator, operand=operand)
            conditions.append(Condition(parameter, field, operator, value))
    return conditions


def apply_conditions(queryset: QuerySet, conditions: Iterable[Condition]) -> QuerySet:
    for condition in conditions:
        queryset = _apply(queryset, condition)
    return queryset


def column_of(model: type[models.Model], path: str) -> models.Field | None:
    """The model field an ORM path ends at (`company__employees` from Accounts), None if it is a relation."""
    *relations, name = path.split("__")
    for relation in relations:
        model = model._meta.get_field(relation).related_model
    column = model._meta.get_field(name)
    return column if isinstance(column, models.Field) and not column.is_relation else None


def like_to_regex(pattern: str) -> str:
    r"""SQL LIKE (`%` any run, `_` one character, `\` escapes) as an anchored regular expression.

    Run as `iregex` so the match is case-insensitive beyond ASCII (Ø, Æ, Å) on
    SQLite as well, where LIKE folds ASCII letters only.
    """
    parts = ["^"]
    characters = iter(pattern)
    for character in characters:
        if character == "\\":
            parts.append(re.escape(next(characters, "\\")))
        elif character == "%":
            parts.append(".*")
        elif character == "_":
            parts.append(".")
        else:
            parts.append(re.escape(character))
    parts.append("$")
    return "".join(parts)


# --- parsing ----------------------------------------------------------------------------------


def _field_of_parameter(*, dataset: Dataset, parameter: str, granted_roles: frozenset[str]) -> Field:
    loc = ["query", parameter]
    entity_name, field_name = split_reference(parameter)
    if entity_name is None:
        if dataset.root.field_named(field_name) is None and dataset.entity_named(field_name) is None:
            raise unknown_name(
                loc,
                f"Unknown parameter {parameter!r}: not a field of {dataset.root.name} nor one of "
                f"{', '.join(RESERVED_PARAMETERS)}. Filter other entities as <entity>.<field> "
                f"({', '.join(entity.name for entity in dataset.entities)}); root fields: "
                f"{', '.join(field.name for field in dataset.root.fields if field.role is None)}.",
                code="unknown_field",
            )
        if dataset.root.field_named(field_name) is None:
            raise unknown_name(
                loc,
                f"Filter {parameter!r} names an entity; filter one of its fields as {parameter}.<field>.",
                code="unknown_field",
            )
        entity = dataset.root
    else:
        entity = entity_for(dataset=dataset, name=entity_name, loc=loc)
    field = field_for(dataset=dataset, entity=entity, name=field_name, loc=loc, granted_roles=granted_roles)
    if not field.filterable:
        reason = f"{parameter} cannot be filtered on (it is {_why_not_filterable(field)})"
        raise bad_field(loc, reason, code="unfilterable_field")
    return field


def _why_not_filterable(field: Field) -> str:
    if field.path is None:
        return "always null"
    if field.derive is not None:
        return "derived from another field"
    return "a JSON object"


def _split_operator(*, parameter: str, raw: str) -> tuple[Operator, str]:
    match = _OPERATOR_PREFIX.fullmatch(raw)
    if match is None:
        return Operator.EQ, raw
    name, operand = match.group(1).upper(), match.group(2)
    try:
        return Operator(name), operand
    except ValueError:
        available = ", ".join(op.value for op in Operator)
        raise unknown_name(
            ["query", parameter],
            f"Unknown operator {match.group(1)!r} in {parameter}. Available operators: {available}; "
            f"to match a value that itself starts with a word and a colon, write EQ:{raw}.",
            code="unknown_operator",
        ) from None


def _typed_operand(
    *, parameter: str, field: Field, column: models.Field | None, operator: Operator, operand: str
) -> Any:
    loc = ["query", parameter]
    if operator is Operator.ISNULL:
        return _parse(loc=loc, field_type=FieldType.BOOL, raw=operand)
    if operator is Operator.LIKE:
        if field.type is not FieldType.STRING:
            raise bad_field(loc, f"LIKE matches text; {parameter} is of type {field.type.value}")
        return operand
    if operator in _COMPARISONS and field.type not in ORDERED_TYPES:
        raise bad_field(
            loc, f"{operator.value} compares numbers, dates and text; {parameter} is of type {field.type.value}"
        )
    if operator is Operator.IN:
        items = [item for item in operand.split(",") if item != ""]
        if not items:
            raise bad_field(loc, "IN needs a comma-separated list of values")
        return [_parse(loc=loc, field_type=field.type, column=column, raw=item) for item in items]
    return _parse(loc=loc, field_type=field.type, column=column, raw=operand)


def _parse(*, loc: list[str], field_type: FieldType, raw: str, column: models.Field | None = None) -> Any:
    """The typed value, a 400 naming the parameter if it is not one or is out of the column's range."""
    try:
        value = parse_value(field_type=field_type, raw=raw)
        check_column_range(value=value, column=column)
        return value
    except ValueError as exc:
        raise bad_field(loc, str(exc)) from None


# --- applying ---------------------------------------------------------------------------------


def _apply(queryset: QuerySet, condition: Condition) -> QuerySet:
    path, operator, value = condition.field.path, condition.operator, condition.value
    if operator is Operator.EQ:
        return queryset.filter(**{path: value})
    if operator is Operator.NEQ:
        # exclude() keeps rows whose value is null: "not equal to X" includes "no value".
        return queryset.exclude(**{path: value})
    if operator in _COMPARISONS:
        return queryset.filter(**{f"{path}__{_COMPARISONS[operator]}": value})
    if operator is Operator.IN:
        return queryset.filter(**{f"{path}__in": value})
    if operator is Operator.LIKE:
        return queryset.filter(**{f"{path}__iregex": like_to_regex(value)})
    if operator is Operator.ISNULL:
        missing = Q(**{f"{path}__isnull": True})
        if condition.field.type is FieldType.STRING:
            missing |= Q(**{path: ""})  # the register stores absent text as ""
        return queryset.filter(missing if value else ~missing)
    raise AssertionError(f"unhandled operator {operator}")
