"""Each role-protected operation or fact, read without its role, is refused or absent.

Operation level: every operation of both documents is called by an API user of the
organisation once for each role left out of Nk-Role-Keys; an operation answers 403
(`role_missing`) exactly when it needs the missing role (ROLE_OPERATIONS, checked both ways, so
a newly protected operation or a protection lost fails here). A role in the header but not
assigned to the API user counts as missing too.

Fact level: the protected facts of the seeded data (a board member's and a customer person's
national id: person_national_identification; a payment remark's creditor and amount and a
collection case reference: credit_check) appear in no answer of any read operation (every
dataset included) without their role, whatever the field, and do appear somewhere with it.
"""

from __future__ import annotations

import re

from django.test import Client

from service.auth.models import AppCustomer
from service.auth.services import api_user_create
from tests.conftest import ApiCaller
from tests.service.isolation.calls import content_of, url_of, write_order
from tests.service.isolation.conftest import CASE_REFERENCE, CREDITOR, REGISTER_NATIONAL_ID, REMARK_AMOUNT
from tests.service.isolation.matrix import PRIVATE, PUBLIC, Private, operations, public_calls
from tests.service.isolation.world import EVERY_ROLE, World

A = "/analysis/v1"
SCREENING = re.compile(
    r"^/analysis/v1/(screening-|customer-person|records-hold|entity-monitoring-type|gender|person-location-type|geo-country"
    r"|entity-match-decision-type|app-customer/\{app_customer_uuid\}/screening-config)"
)
ADMIN = re.compile(r"^/analysis/v1/app-customer/\{app_customer_uuid\}/(api-user|audit-event)")
NATIONAL_ID_PATH = "/customer-person-national-identification"
WATCHLIST_REMOVAL = re.compile(r"^/analysis/v1/watchlist/\{watchlist_uuid\}(/company(/\{company_identifier\})?)?$")


def required_roles(method: str, path: str) -> set[str]:
    """The roles an operation needs (beside none at all), as the README and the docs state them."""
    roles = set()
    if SCREENING.match(path):
        roles.add("aml")  # all of screening, its reference lists included
    if NATIONAL_ID_PATH in path or path.endswith("/merge"):
        roles.add("person_national_identification")  # reading, writing, removing or moving a customer person's national ids
    if ADMIN.match(path) or (method != "get" and "/app-membership" in path):
        roles.add("app_admin")  # API users, the audit log, inviting and deactivating members
    if method == "delete" and WATCHLIST_REMOVAL.match(path):
        roles.add("aml")  # the world's watchlist is followed by screening: a removal stops screening
    if path == f"{A}/collection-case-composite":
        roles.add("credit_check")
    return roles


FACTS = {
    "person_national_identification": {REGISTER_NATIONAL_ID, "15108695088"},
    "credit_check": {CREDITOR, REMARK_AMOUNT, CASE_REFERENCE},
}


def _shows(fact: str, text: str) -> bool:
    """The fact as a value of its own, not inside a longer token: every answer carries a random hex
    request_id, which holds a five-digit amount now and then."""
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(fact)}(?![0-9A-Za-z])", text) is not None


def _calls(w: World, method: str, path: str) -> list[tuple[str, Private | None, dict | None, set[str]]]:
    """(url, spec, query, roles needed) of each call of an operation; a dataset needs the role its catalogue entry names."""
    if (method, path) in PUBLIC:
        return [(url, None, query, required_roles(method, path) | ({role} if role else set()))
                for url, query, role in public_calls(w, method, path)]
    return [(url_of(path, w.ids), PRIVATE[(method, path)], None, required_roles(method, path))]


def _call(w: World, method: str, url: str, spec: Private | None, query, roles):
    if spec is None:
        return w.call(method, url, query=query, roles=roles)
    body = spec.body(w) if spec.body else None
    multipart = spec.multipart(w) if spec.multipart else None
    return w.call(method, url, body=body, query=spec.query(w) if spec.query else None, multipart=multipart, roles=roles)


def _is_role_refusal(response) -> bool:
    return response.status_code == 403 and response.json().get("code") == "role_missing"


def test_it_refuses_each_role_protected_operation_without_its_role(world, company):
    w = world
    # Another API user of the same organisation, holding no role, sending every role key.
    unassigned = ApiCaller(Client(), api_user_create(app_customer=AppCustomer.objects.get(uuid=w.ids["app_customer_uuid"]),
                                                     name="No roles", role_keys=[]))
    problems, cases = [], 0
    for method, path in sorted(operations(), key=write_order):
        for url, spec, query, needed in _calls(w, method, path):
            for role in EVERY_ROLE if method == "get" else sorted(needed):
                response = _call(w, method, url, spec, query, [r for r in EVERY_ROLE if r != role])
                cases += 1
                if (role in needed) != _is_role_refusal(response):
                    problems.append(f"{method.upper()} {url} without {role}: {response.status_code} (needs {sorted(needed)})")
            if method != "get":
                # Only its declared roles: not refused for a role it was not declared to need.
                response = _call(w, method, url, spec, query, sorted(needed) or None)
                cases += 1
                if _is_role_refusal(response):
                    problems.append(f"{method.upper()} {url} with {sorted(needed)}: 403 {response.json()['detail']}")
            elif needed:
                response = unassigned.client.get(url, query or (spec.query(w) if spec and spec.query else {}),
                                                 **unassigned.headers(EVERY_ROLE))
                cases += 1
                if not _is_role_refusal(response):
                    problems.append(f"GET {url}: {response.status_code} to an API user without the roles it sent")
    print(f"\nroles: {cases} operation-role cases asserted")
    assert not problems, "\n".join(problems)


def test_it_shows_no_protected_fact_without_its_role(world, company):
    w = world
    problems, cases, seen = [], 0, set()
    for method, path in operations():
        if method != "get":
            continue
        for url, spec, query, _needed in _calls(w, method, path):
            full = _call(w, method, url, spec, query, EVERY_ROLE)
            seen |= {fact for facts in FACTS.values() for fact in facts if _shows(fact, content_of(full).decode(errors="replace"))}
            for role, facts in FACTS.items():
                response = _call(w, method, url, spec, query, [r for r in EVERY_ROLE if r != role])
                cases += 1
                text = content_of(response).decode(errors="replace")
                if leaked := sorted(fact for fact in facts if _shows(fact, text)):
                    problems.append(f"GET {url} without {role} shows {leaked}")
    missing = {fact for facts in FACTS.values() for fact in facts} - seen
    print(f"\nroles: {cases} fact-role cases asserted")
    assert not missing, f"facts no operation shows even with every role (the check would prove nothing): {missing}"
    assert not problems, "\n".join(problems)
