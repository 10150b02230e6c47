"""Schemathesis over both OpenAPI documents: no 5xx, every answer as documented.

Every operation of the analysis and datasets APIs is collected from the documents
the service serves (operations added later are fuzzed without touching this file),
and called through the Django WSGI app with real basic-auth credentials of an API
user holding every role, against a small seeded register. Generated parameters named
in SEEDED_VALUES (company identifiers, dataset names, a sector query, the caller's own
organisation) are swapped half the time for values that find the seeded data, so answers
with data are checked too, not only 400s and 404s.

Checks: `not_a_server_error`, `status_code_conformance` (every status documented)
and `response_schema_conformance` (bodies, error bodies included, match their schema).

Stateful: `test_analysis_api_stateful` runs schemathesis's state machine over the analysis
API, whose links (create then read, update, delete: a watchlist's uuid into its detail, rename,
companies and delete; a config's into its persons, monitorings, cases...) schemathesis infers
from the documents (dependency analysis of the `*_uuid` fields and path parameters), so a new
operation is linked without touching this file. The caller's own organisation is written into
the paths (`_of_organisation`), so the operations under it are entry points: they create, and
the links carry real resources onwards. The same checks, plus `use_after_free` and
`ensure_resource_availability`.
Bounded: MAX_EXAMPLES per operation (50: the file was a fifth of the suite's time at 100, and
half of a call's time is Hypothesis generating it; the deep run below goes further), fixed
derandomised seed, no example database, so a CI run is repeatable;
`VAKT_FUZZ_EXAMPLES` changes the bound for a deeper local run, `VAKT_FUZZ_STATEFUL_EXAMPLES` and
`VAKT_FUZZ_STATEFUL_STEPS` those of the state machine (scenarios, steps per scenario).
Deep local run (README, *Reliability*):
    VAKT_FUZZ_EXAMPLES=1000 VAKT_FUZZ_STATEFUL_EXAMPLES=500 VAKT_FUZZ_STATEFUL_STEPS=40 \
        VAKT_FUZZ_FIGURES=/tmp/fuzz.jsonl pytest tests/service/test_fuzzing.py -p no:cacheprovider -n 2
"""

from __future__ import annotations

import copy
import json
import os
import re
import uuid
from collections import Counter
from datetime import date

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    ensure_resource_availability, response_schema_conformance, status_code_conformance, use_after_free,
)

from portal.wsgi import application
from service.api import analysis_api, datasets_api
from service.auth.models import ROLE_KEYS
from service.companies import services
from service.companies.datasets.registry import DATASETS
from service.companies.analysis import analysis_refresh
from tests.conftest import make_caller
from tests.service.companies.factories import accounts_make, company_make, payment_remark_make

MAX_EXAMPLES = int(os.environ.get("VAKT_FUZZ_EXAMPLES", "50"))
STATEFUL_EXAMPLES = int(os.environ.get("VAKT_FUZZ_STATEFUL_EXAMPLES", "30"))
STATEFUL_STEPS = int(os.environ.get("VAKT_FUZZ_STATEFUL_STEPS", "12"))
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]
STATEFUL_CHECKS = [*CHECKS, use_after_free, ensure_resource_availability]
ORGANISATION_IN_PATH = re.compile(r"(?<=/app-customer/)[0-9a-f-]{36}")
STATS: Counter = Counter()  # calls per answer class and operations answered 2xx, printed at the module's end

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
    SEEDED_VALUES["app_customer_uuid"] = [str(caller.app_customer_uuid)]  # its own organisation, half the time
    yield headers
    SEEDED_VALUES.pop("app_customer_uuid")


def _count(case, response) -> None:
    STATS["calls"] += 1
    STATS[f"called {case.method.upper()} {case.path} {response.status_code}"] += 1
    STATS[f"{response.status_code // 100}xx"] += 1
    if response.status_code < 300:  # by the documented path (the state machine's has the organisation written in)
        STATS[f"ok {case.method.upper()} {ORGANISATION_IN_PATH.sub('{app_customer_uuid}', case.path)}"] += 1


@pytest.fixture(scope="module", autouse=True)
def _figures():
    """The figures of the README's reliability section, printed with -s."""
    yield
    operations = sorted(key[3:] for key in STATS if key.startswith("ok "))
    answers = ", ".join(f"{key} {STATS[key]}" for key in ("2xx", "4xx", "5xx") if STATS[key])
    print(f"\nfuzzing: {STATS['calls']} calls ({answers}); {len(operations)} operations answered 2xx at least once")
    if path := os.environ.get("VAKT_FUZZ_FIGURES"):  # one JSON line per process (xdist workers print nothing)
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({key: STATS[key] for key in ("calls", "2xx", "4xx", "5xx")} | {"ok_operations": operations}) + "\n")
    if os.environ.get("VAKT_FUZZ_LIST_OPERATIONS"):
        print("\n".join(operations))
        print("\n".join(f"{k} {v}" for k, v in sorted(STATS.items()) if k.startswith("called")))


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
    response = case.call(headers=fuzz_headers)
    _count(case, response)
    case.validate_response(response, checks=CHECKS)


@datasets.parametrize()
@FUZZ_SETTINGS
def test_datasets_api(case, fuzz_headers):
    response = case.call(headers=fuzz_headers)
    _count(case, response)
    case.validate_response(response, checks=CHECKS)


def _of_organisation(document: dict, app_customer_uuid: str) -> schemathesis.BaseSchema:
    """The document with the caller's organisation written into its paths (the stateless tests try
    others'): the operations under it become entry points of the state machine, so it creates
    watchlists, configs, members... and the links carry those real resources onwards."""
    document = copy.deepcopy(document)
    paths = {}
    for path, methods in document["paths"].items():
        for operation in methods.values():
            parameters = operation.get("parameters", [])
            operation["parameters"] = [p for p in parameters if p.get("name") != "app_customer_uuid"]
        paths[path.replace("{app_customer_uuid}", app_customer_uuid)] = methods
    document["paths"] = paths
    schema = schemathesis.openapi.from_dict(document)
    schema.app = application
    return schema


def test_analysis_api_stateful(fuzz_headers):
    """Create, then read, update and delete through the inferred links, checking every answer."""

    schema = _of_organisation(analysis_api.get_openapi_schema(), SEEDED_VALUES["app_customer_uuid"][0])

    class Links(schema.as_state_machine()):
        # Each scenario starts from the seeded register and empty counters: what one created is rolled
        # back before the next, and the cache's rate-limit and failed-authentication windows are
        # cleared, so a scenario that Hypothesis replays gets the answers it got the first time (a name
        # taken by an earlier scenario, or a 429 because an earlier one rotated the caller's own secret
        # and its calls then failed, would change them, and Hypothesis reports that as flaky data).
        def setup(self):
            self.savepoint = transaction.savepoint()
            cache.clear()

        def teardown(self):
            transaction.savepoint_rollback(self.savepoint)

        def get_call_kwargs(self, case):
            return {"headers": fuzz_headers}

        def after_call(self, response, case):
            _count(case, response)

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=STATEFUL_CHECKS, headers=fuzz_headers)

    Links.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=STATEFUL_STEPS,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )
