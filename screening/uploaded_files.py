"""A CSV file an officer or admin uploads to be sent to the service (a batch screening file, a file of
customer persons to import): the size it may have, and the service's problems with its rows as a
person reads them. One rule for both pages."""

from __future__ import annotations

from django.conf import settings

from portal.service import ServiceBadRequest
from vakt_format import norwegian as no

PROBLEMS_SHOWN = 100  # the service lists at most 100 problems of a file


def too_large_text(upload, *, not_done: str, limit: int | None = None) -> str | None:
    """Why the file is not sent ("<name> was not <not_done>: it is 5,3 kB ..."), or None when it may be.
    `limit`: the bytes the call it goes to takes (the service's body limit unless named). A file over it would
    be refused after sending it whole: it is not read into memory, nor sent."""
    limit = settings.VAKT_MAX_BODY_BYTES if limit is None else limit
    if upload.size <= limit:
        return None
    return (f"{upload.name} was not {not_done}: it is {no.file_size(upload.size)}, files up to {no.file_size(limit)} are. "
            "Split it into smaller files.")


def file_problems(error: ServiceBadRequest) -> list[str]:
    """The service's problems as a person reads them: "Line 7, birth_date: 2031 is in the future"."""
    return problems_text(error.errors, error.detail)


def problems_text(errors, detail: str) -> list[str]:
    """Problems in the shape of the service's `errors` (a 400's, or a failed import job's `failure_errors`:
    `loc` ["body", "file", "line 7", "birth_date"]) as lines; `detail` alone when there are none, and after the
    first hundred (the service lists no more: its detail gives the total)."""
    lines = []
    for problem in (errors or [])[:PROBLEMS_SHOWN]:
        where = [str(part) for part in problem.get("loc", [])[2:]]  # after "body", "file"
        place = ", ".join(where) if where else "the file"
        lines.append(f"{place[:1].upper()}{place[1:]}: {problem.get('msg', '')}")
    if not lines:
        return [detail]
    if len(lines) == PROBLEMS_SHOWN:
        lines.append(detail)
    return lines
