"""The objects of a top-level JSON array, one at a time, from a text stream.

The brreg download is one JSON array of a million objects; loading it whole would
take gigabytes. `json.JSONDecoder.raw_decode` (the C scanner) decodes one object at a
time from a sliding buffer; an object cut by the buffer's end simply fails to decode,
so the buffer is refilled and the object tried again. Items must be objects: an
object only decodes once its closing brace is there, so a cut can never be mistaken
for a complete value.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from service.companies.importers.source import ImportFileError

_CHUNK = 1 << 20
MAX_OBJECT_CHARS = 16 << 20  # far above any register unit; stops a broken object from swallowing the file
_WHITESPACE = " \t\n\r"


class JsonSyntaxError(Exception):
    """The array breaks off or is malformed at `line` (rows before it may have been imported)."""

    def __init__(self, message: str, *, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


class _Buffer:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.text = ""
        self.pos = 0
        self.line = 1
        self.eof = False

    def refill(self) -> bool:
        if self.eof:
            return False
        chunk = self.stream.read(_CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.text = self.text[self.pos :] + chunk
        self.pos = 0
        return True

    def skip_whitespace(self) -> str:
        """The next non-blank character ('' at the end of the stream), not consumed."""
        while True:
            while self.pos < len(self.text) and self.text[self.pos] in _WHITESPACE:
                if self.text[self.pos] == "\n":
                    self.line += 1
                self.pos += 1
            if self.pos < len(self.text):
                return self.text[self.pos]
            if not self.refill():
                return ""


def json_array_objects(stream, *, name: str) -> Iterator[tuple[int, dict]]:
    """(line the object starts on, object) for each element of the array."""
    buffer = _Buffer(stream)
    decoder = json.JSONDecoder()
    if buffer.skip_whitespace() != "[":
        raise ImportFileError(f"{name} is not JSON in the brreg download format: expected a JSON array '[...]'")
    buffer.pos += 1
    expect_item = True
    while True:
        char = buffer.skip_whitespace()
        if char == "]":
            buffer.pos += 1
            if buffer.skip_whitespace():
                raise JsonSyntaxError("unexpected content after the closing ']'", line=buffer.line)
            return
        if char == ",":
            if expect_item:
                raise JsonSyntaxError("unexpected ','", line=buffer.line)
            buffer.pos += 1
            expect_item = True
            continue
        if char == "":
            raise JsonSyntaxError("the array breaks off before its closing ']'", line=buffer.line)
        if not expect_item:
            raise JsonSyntaxError(f"expected ',' or ']', found {char!r}", line=buffer.line)
        if char != "{":
            raise JsonSyntaxError(f"array items must be objects, found {char!r}", line=buffer.line)
        while True:
            try:
                item, end = decoder.raw_decode(buffer.text, buffer.pos)
                break
            except json.JSONDecodeError as exc:
                too_long = len(buffer.text) - buffer.pos > MAX_OBJECT_CHARS
                if too_long or not buffer.refill():
                    raise JsonSyntaxError(f"invalid JSON object: {exc.msg}", line=buffer.line) from None
        yield buffer.line, item
        buffer.line += buffer.text.count("\n", buffer.pos, end)
        buffer.pos = end
        expect_item = False
