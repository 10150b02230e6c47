"""JSON lines: one object per line, read one line at a time."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import IO, Any

from .entry import ParsedEntry, ParseError, ParseSummary, RecordError
from .sources import Source, open_text, source_name

JsonObject = dict[str, Any]


def read_json_lines(stream: IO[str], name: str) -> Iterator[tuple[int, JsonObject | RecordError]]:
    """Each line's object, or the RecordError that rejects it.

    A bad first line means the file is not JSON lines at all, and a bad last
    line without its newline means the file was cut: both raise ParseError.
    """
    seen_object = False
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            if not seen_object:
                raise ParseError(f"{name} line {number}", f"not JSON lines ({error.msg})") from error
            if not line.endswith("\n"):
                raise ParseError(f"{name} line {number}", f"last line is not complete JSON: file cut short? ({error.msg})") from error
            yield number, RecordError(f"invalid JSON ({error.msg} at column {error.colno})")
            continue
        if not isinstance(value, dict):
            if not seen_object:
                raise ParseError(f"{name} line {number}", "not JSON lines: first line is not a JSON object")
            yield number, RecordError("line is not a JSON object")
            continue
        seen_object = True
        yield number, value


def parse_json_lines(
    source: Source, summary: ParseSummary, entry: Callable[[JsonObject, ParseSummary, str], ParsedEntry | None],
) -> Iterator[ParsedEntry]:
    """Each line's entry as `entry` makes it (given the object, the summary and "<file> line <n>");
    a line it rejects is counted in the summary, not raised."""
    name = source_name(source)
    with open_text(source) as stream:
        for line, record in read_json_lines(stream, name):
            location = f"{name} line {line}"
            parsed = summary.collect(location, lambda: entry(require_object(record), summary, location))
            if parsed is not None:
                yield parsed


def require_object(record: JsonObject | RecordError) -> JsonObject:
    """Raise the rejection carried instead of an object, for `ParseSummary.collect`."""
    if isinstance(record, RecordError):
        raise record
    return record


def strings(values: Any) -> list[str]:
    """A property that should hold a list of strings, tolerating one string or null."""
    if isinstance(values, str):
        return [values]
    if isinstance(values, list):
        return [value for value in values if isinstance(value, str)]
    return []
