"""A CSV file an officer or admin uploads to be sent to the service (a batch screening file, a file of
customer persons to import): the size it may have, and the service's problems with its rows as a
person reads them. One rule for both pages."""

from __future__ import annotations

from django.conf import settings

from portal.service import ServiceBadRequest
from vakt_format import norwegian as no

PROBLEMS_SHOWN = 100  # the service lists at most 100 problems of a file


def too_large_text(upload, *, not_done: str) -> str | None:
    """Why the file is not sent ("<name> was not <not_done>: it is 5,3 kB ..."), or None when it may be.
    A file over the service's body limit would be refused after sending it whole: it is not read into
    memory, nor sent."""
    if upload.size <= settings.VAKT_MAX_BODY_BYTES:
        return None
    limit = no.file_size(settings.VAKT_MAX_BODY_BYTES)
    return (f"{upload.name} was not {not_done}: it is {no.file_size(upload.size)}, files up to {limit} are. "
            "Split it into smaller files.")


def file_problems(error: ServiceBadRequest) -> list[str]:
    """The service's problems as a person reads them: "Line 7, birth_date: 2031 is in the future"."""
    lines = []
    for problem in (error.errors or [])[:PROBLEMS_SHOWN]:
        where = [str(part) for part in problem.get("loc", [])[2:]]  # after "body", "file"
        place = ", ".join(where) if where else "the file"
        lines.append(f"{place[:1].upper()}{place[1:]}: {problem.get('msg', '')}")
    if not lines:
        return [error.detail]
    if len(lines) == PROBLEMS_SHOWN:  # the service lists no more than these; its detail gives the total
        lines.append(error.detail)
    return lines
