"""Accept a path or an open file wherever a parser takes a source."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Union

from .entry import ParseError

Source = Union[str, "os.PathLike[str]", IO[str], IO[bytes]]


def source_name(source: Source) -> str:
    """A short name for messages: the file name, or what the file object calls itself."""
    if isinstance(source, (str, os.PathLike)):
        return Path(source).name
    return Path(str(getattr(source, "name", "<stream>"))).name


@contextmanager
def open_text(source: Source, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """Yield a text stream; files we open are closed, files we are given are not."""
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, encoding=encoding, newline="") as stream:
                yield stream
        except UnicodeDecodeError as error:
            raise ParseError(source_name(source), f"not {encoding} text: {error}") from error
        return
    if isinstance(source, io.TextIOBase):
        yield source
        return
    wrapper = io.TextIOWrapper(source, encoding=encoding, newline="")  # type: ignore[type-var]
    try:
        yield wrapper
    except UnicodeDecodeError as error:
        raise ParseError(source_name(source), f"not {encoding} text: {error}") from error
    finally:
        wrapper.detach()  # leave the caller's binary file open


@contextmanager
def open_raw(source: Source) -> Iterator[IO[bytes] | IO[str]]:
    """Yield the stream as given (or opened in binary), for parsers that decode
    by themselves: the XML parser reads the encoding from the declaration."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as stream:
            yield stream
        return
    yield source
