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

from tests.service.isolation.matrix import PRIVATE, PUBLIC, Private, operations, path_params, public_calls
from tests.service.isolation.world import World

ISOLATION_FIGURES: dict[str, int] = {}


def _content(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def _url(path: str, ids: dict) -> str:
    for name in path_params(path):
        path = path.replace("{" + name + "}", str(ids[name]))
    return path


def _send(caller: World, method: str, path: str, ids: dict, spec: Private, own: World, *, body=None, query=None):
    url = _url(path, ids)
    multipart = spec.multipart(own) if spec.multipart else None
    if body is None and spec.body:
        body = spec.body(own)
    if query is None and spec.query:
        query = spec.query(own)
    response = caller.call(method, url, body=body, query=query, multipart=multipart)
    sent = url + json.dumps(body) + json.dumps(query)
    return response, sent


def _leaks(response, secrets: set[str], sent: str) -> list[str]:
    text = _content(response).decode("utf-8", errors="replace")
    return sorted(s for s in secrets if s not in sent and s in text)


def _order(op):
    method, path = op
    # Reads first, then writes; deletes last, the deepest resource first (B's own controls stay valid).
    rank = {"get": 0, "post": 1, "patch": 2, "delete": 3}[method]
    return (rank, -len(path) if method == "delete" else 0)


def _comparable(response):
    content = _content(response)
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
            response, _ = _send(a, method, path, a.ids, spec, a)
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
            response, sent = _send(b, method, path, a.ids, spec, b)
            cases += 1
            if response.status_code != 404:
                problems.append(f"{op} on A's resources: {response.status_code} {_content(response)[:200]!r}")
            if leaked := _leaks(response, a.secrets, sent):
                problems.append(f"{op} on A's resources leaks {leaked}")
        for description, crossed in spec.crossed:
            parts = crossed(a, b)
            ids = {**b.ids, **parts.get("path", {})}
            response, sent = _send(b, method, path, ids, spec, b, body=parts.get("body"), query=parts.get("query"))
            cases += 1
            allowed = (200, 400, 404) if method == "get" else (400, 404)
            if response.status_code not in allowed:
                problems.append(f"{op} {description}: {response.status_code} {_content(response)[:200]!r}")
            if leaked := _leaks(response, a.secrets, sent):
                problems.append(f"{op} {description} leaks {leaked}")

    after = _snapshot(a)
    for path, shot in before.items():
        if after[path] != shot:
            problems.append(f"A's GET {path} changed after B's calls")

    for method, path in sorted(PRIVATE, key=_order):
        spec = PRIVATE[(method, path)]
        response, sent = _send(b, method, path, b.ids, spec, b)
        cases += 1
        if not 200 <= response.status_code < 300:
            problems.append(f"control {method.upper()} {path} on B's own: {response.status_code} {_content(response)[:300]!r}")
        if leaked := _leaks(response, a.secrets, sent):
            problems.append(f"{method.upper()} {path} on B's own leaks {leaked}")

    for method, path in PUBLIC:
        for url, query, _role in public_calls(b, method, path):
            response = b.call(method, url, query=query)
            cases += 1
            if response.status_code >= 500:
                problems.append(f"public {url}: {response.status_code}")
            if leaked := _leaks(response, a.secrets, ""):
                problems.append(f"public {url} leaks {leaked}")

    ISOLATION_FIGURES.update(operations=len(PRIVATE) + len(PUBLIC), private=len(PRIVATE), public=len(PUBLIC), cases=cases)
    print(f"\nisolation: {len(PRIVATE)} private + {len(PUBLIC)} public operations, {cases} cases asserted")
    assert not problems, "\n".join(problems)
