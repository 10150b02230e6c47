"""Schemathesis over both OpenAPI documents: no 5xx, every answer as documented.

Every operation of the analysis and datasets APIs is collected from the documents
the service serves (operations added later are fuzzed without touching this file),
and called through the Django WSGI app with real basic-auth credentials of an API
user holding every role, against a small seeded register. Generated parameters named
in SEEDED_VALUES (company identifiers, dataset names, a sector query) are swapped half
the time for values that find the seeded data, so answers with data are checked too,
not only 400s and 404s.

Checks: `not_a_server_error`, `status_code_conformance` (every status documented)
and `response_schema_conformance` (bodies, error bodies included, match their schema).
Bounded: MAX_EXAMPLES per operation (100: about a minute per database on two workers,
and enough to find the NUL-in-a-query 500 on PostgreSQL that service/input_checks.py
now refuses), fixed derandomised seed, no example database, so a CI run is repeatable;
`VAKT_FUZZ_EXAMPLES` changes the bound for a deeper local run.
"""

from __future__ import annotations

import os
import uuid
from datetime import date

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from portal.wsgi import application
from service.api import analysis_api, datasets_api
from service.auth.models import ROLE_KEYS
from service.companies import services
from service.companies.datasets.registry import DATASETS
from service.companies.analysis import analysis_refresh
from tests.conftest import make_caller
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

MAX_EXAMPLES = int(os.environ.get("VAKT_FUZZ_EXAMPLES", "100"))
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]

SEEDED_UUID = uuid.UUID("5d1b8a36-7f4e-4c1a-9a52-0c6f2b1e9d01")
SEEDED_ORG_NR = "913748174"
_IDENTIFIERS = [str(SEEDED_UUID), f"NO{SEEDED_ORG_NR}"]
# Values that find the seeded data; a generated parameter of one of these names is swapped for one
# of them half the time (all such parameters of a case at once, so e.g. a sector query is whole).
SEEDED_VALUES = {
    "company_identifier": _IDENTIFIERS,
    "debtor_company_identifier": _IDENTIFIERS,
    "benchmark_company_identifier": _IDENTIFIERS,
    "name": list(DATASETS),  # the datasets
    "measure_year": [2024],
    "company_measure_type_identifier": ["return_on_assets", "employees"],
    "nace_code_identifiers": ["NO-62.010", "NO-J"],
}


def _schema(api) -> schemathesis.BaseSchema:
    # The very document the service serves at <prefix>/openapi.json (test_the_fuzzed_documents_are_the_served_ones).
    schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
    schema.app = application
    return schema


analysis = _schema(analysis_api)
datasets = _schema(datasets_api)


def _with_seeded_values(strategy):
    """Half the time, parameters named in SEEDED_VALUES find the seeded data (so real answers get checked)."""

    def seeded(values, pick):
        if not isinstance(values, dict):  # negative generation may give no mapping at all
            return values
        return {key: pick(SEEDED_VALUES[key]) if key in SEEDED_VALUES else value for key, value in values.items()}

    picks = st.randoms(use_true_random=False).map(lambda random: random.choice)
    return st.one_of(strategy, st.tuples(strategy, picks).map(lambda t: seeded(*t)))


for _schema_of_api in (analysis, datasets):
    _schema_of_api.hook("before_generate_path_parameters")(lambda context, strategy: _with_seeded_values(strategy))
    _schema_of_api.hook("before_generate_query")(lambda context, strategy: _with_seeded_values(strategy))


@pytest.fixture
def _connection_kept():
    # Django's WSGI handler closes the database connection when a request finishes, which would
    # end the test's transaction (PostgreSQL); django.test.Client keeps it the same way.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_headers(db, _connection_kept):
    """A caller with every role, and a register with a company that has accounts, remarks and a score."""
    company = company_make(org_nr=SEEDED_ORG_NR, uuid=SEEDED_UUID, employees=14)
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)
    payment_remark_make(company=company, amount="48250", registered=date(2025, 1, 10))
    services.company_risk_status_set(company=company, status_key="under_liquidation", on_date=date(2024, 6, 1))
    peers = [company_make() for _ in range(3)]
    for peer in peers:
        accounts_make(company=peer, year=2024)
    analysis_refresh(company_uuids=[company.uuid, *(peer.uuid for peer in peers)])
    caller = make_caller("Fuzz Bank ASA")
    headers = {"Authorization": caller.headers()["HTTP_AUTHORIZATION"], "Nk-Role-Keys": ",".join(k for k, _ in ROLE_KEYS)}
    return headers


FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@analysis.parametrize()
@FUZZ_SETTINGS
def test_analysis_api(case, fuzz_headers):
    case.call_and_validate(headers=fuzz_headers, checks=CHECKS)


@datasets.parametrize()
@FUZZ_SETTINGS
def test_datasets_api(case, fuzz_headers):
    case.call_and_validate(headers=fuzz_headers, checks=CHECKS)
