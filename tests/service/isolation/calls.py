"""Calling an operation of the matrix for a world, and reading what came back."""

from __future__ import annotations

import json

from tests.service.isolation.matrix import Private, path_params
from tests.service.isolation.world import World


def content_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def url_of(path: str, ids: dict) -> str:
    for name in path_params(path):
        path = path.replace("{" + name + "}", str(ids[name]))
    return path


def send(caller: World, method: str, path: str, ids: dict, spec: Private, own: World, *, body=None, query=None):
    url = url_of(path, ids)
    multipart = spec.multipart(own) if spec.multipart else None
    if body is None and spec.body:
        body = spec.body(own)
    if query is None and spec.query:
        query = spec.query(own)
    response = caller.call(method, url, body=body, query=query, multipart=multipart)
    sent = url + json.dumps(body) + json.dumps(query)
    return response, sent


def leaks(response, secrets: set[str], sent: str) -> list[str]:
    text = content_of(response).decode("utf-8", errors="replace")
    return sorted(s for s in secrets if s not in sent and s in text)


def write_order(op):
    method, path = op
    # Reads first, then writes; deletes last, the deepest resource first (B's own controls stay valid).
    # A release ends a hold: after the writes that need it in force (keep).
    rank = {"get": 0, "post": 1, "patch": 2, "put": 2, "delete": 3}[method] + (0.5 if path.endswith("/release") else 0)
    return (rank, -len(path) if method == "delete" else 0)
