"""Organisation B, holding every role, gets nothing of organisation A through any operation.

For every operation of both OpenAPI documents (tests/service/isolation/matrix.py):
- with A's identifiers in the path, B gets 404 and the answer holds none of A's secrets
  (ids, names, emails, numbers) beyond what B itself sent;
- through B's own resources with A's identifiers in the body or query (`crossed`), B gets a
  400 or 404 for a write, and never any of A's data;
- afterwards A reads every one of its resources exactly as before (nothing written by B);
- B's own call of the same operation (the control) succeeds, so each 404 is about whose data it
  is and not a malformed request, and B's own lists hold none of A's data;
- public operations (reference and register data) answer B without any of A's data.
"""

from __future__ import annotations

import json
import uuid

from tests.service.isolation.calls import content_of, leaks, send, url_of, write_order
from tests.service.isolation.matrix import PRIVATE, PUBLIC, operations, path_params, public_calls
from tests.service.isolation.world import EVERY_ROLE, World


def _comparable(response):
    content = content_of(response)
    if not response["Content-Type"].startswith("application/json"):
        return content
    data = json.loads(content)
    for element in data if isinstance(data, list) else [data]:
        if isinstance(element, dict):
            element.pop("pdf_base64", None)  # rendered on each request, with the moment it was made
    return data


def _snapshot(a: World) -> dict:
    shots = {}
    for (method, path), spec in PRIVATE.items():
        if method == "get" and all(name in a.ids for name in path_params(path)):
            response, _ = send(a, method, path, a.ids, spec, a)
            shots[path] = (response.status_code, _comparable(response))
    return shots


def test_it_covers_every_operation():
    ops = operations()
    uncovered = [op for op in ops if op not in PRIVATE and op not in PUBLIC]
    assert not uncovered, f"operations neither in PRIVATE nor PUBLIC of tests/service/isolation/matrix.py: {uncovered}"
    stale = [op for op in [*PRIVATE, *PUBLIC] if op not in ops]
    assert not stale, f"matrix entries for operations the documents no longer have: {stale}"
    assert not set(PRIVATE) & set(PUBLIC)


def test_it_shows_organisation_b_nothing_of_organisation_a(worlds):
    a, b = worlds
    before = _snapshot(a)
    problems: list[str] = []
    cases = 0

    for (method, path), spec in PRIVATE.items():
        op = f"{method.upper()} {path}"
        tenant_path = [name for name in path_params(path) if name != "company_identifier"]
        if tenant_path:
            response, sent = send(b, method, path, a.ids, spec, b)
            cases += 1
            if response.status_code != 404:
                problems.append(f"{op} on A's resources: {response.status_code} {content_of(response)[:200]!r}")
            if leaked := leaks(response, a.secrets, sent):
                problems.append(f"{op} on A's resources leaks {leaked}")
        for description, crossed in spec.crossed:
            parts = crossed(a, b)
            ids = {**b.ids, **parts.get("path", {})}
            response, sent = send(b, method, path, ids, spec, b, body=parts.get("body"), query=parts.get("query"))
            cases += 1
            allowed = (200, 400, 404) if method == "get" else (400, 404)
            if response.status_code not in allowed:
                problems.append(f"{op} {description}: {response.status_code} {content_of(response)[:200]!r}")
            if leaked := leaks(response, a.secrets, sent):
                problems.append(f"{op} {description} leaks {leaked}")

    after = _snapshot(a)
    for path, shot in before.items():
        if after[path] != shot:
            problems.append(f"A's GET {path} changed after B's calls")

    for method, path in sorted(PRIVATE, key=write_order):
        spec = PRIVATE[(method, path)]
        response, sent = send(b, method, path, b.ids, spec, b)
        cases += 1
        if not 200 <= response.status_code < 300:
            problems.append(f"control {method.upper()} {path} on B's own: {response.status_code} {content_of(response)[:300]!r}")
        if leaked := leaks(response, a.secrets, sent):
            problems.append(f"{method.upper()} {path} on B's own leaks {leaked}")

    for method, path in PUBLIC:
        for url, query, _role in public_calls(b, method, path):
            response = b.call(method, url, query=query)
            cases += 1
            if response.status_code >= 500:
                problems.append(f"public {url}: {response.status_code}")
            if leaked := leaks(response, a.secrets, ""):
                problems.append(f"public {url} leaks {leaked}")

    print(f"\nisolation: {len(PRIVATE)} private + {len(PUBLIC)} public operations, {cases} cases asserted")
    assert not problems, "\n".join(problems)


def test_it_answers_a_foreign_identifier_as_an_unknown_one_whatever_the_roles(worlds):
    """No existence oracle: B's status for A's identifiers equals its status for made-up ones, with
    every role, none, and each role left out (a role checked after an unscoped lookup would differ)."""
    a, b = worlds
    problems = []
    for (method, path), spec in PRIVATE.items():
        names = [name for name in path_params(path) if name != "company_identifier"]
        if not names:
            continue
        made_up = {**a.ids, **{name: str(uuid.uuid4()) for name in names}}
        if "file_path" in names:
            made_up["file_path"] = a.ids["file_path"].rsplit("/", 1)[0] + f"/{uuid.uuid4()}.pdf"
        for roles in (EVERY_ROLE, [], *([r for r in EVERY_ROLE if r != left] for left in EVERY_ROLE)):
            statuses = []
            for ids in (a.ids, made_up):
                body = spec.body(b) if spec.body else None
                query = spec.query(b) if spec.query else None
                multipart = spec.multipart(b) if spec.multipart else None
                statuses.append(b.call(method, url_of(path, ids), body=body, query=query, multipart=multipart, roles=roles).status_code)
            if statuses[0] != statuses[1]:
                problems.append(f"{method.upper()} {path} with {roles}: {statuses[0]} for A's, {statuses[1]} for made-up ids")
    assert not problems, "\n".join(problems)
