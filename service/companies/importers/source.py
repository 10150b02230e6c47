"""Opening an import file as a text stream: gzip detected by its magic bytes, progress by bytes.

A gzip file is read through once before anything is written: a truncated or corrupt
download fails on its CRC or missing end marker up front instead of after half the
rows were committed. That pass keeps the file's first and last bytes, so the format
can be recognised and JSON's closing bracket checked without a second pass.
"""

from __future__ import annotations

import gzip
import io
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

GZIP_MAGIC = b"\x1f\x8b"
TAIL_BYTES = 64
_CHUNK = 1 << 20


class ImportFileError(Exception):
    """The file as a whole is unusable (missing, wrong header, not gzip, not JSON ...)."""


@dataclass
class TextSource:
    stream: io.TextIOBase
    binary: io.BufferedIOBase  # the same content as bytes (decompressed); read one or the other, not both
    size: int  # bytes on disk, the progress bar's total
    head: bytes  # the first bytes of the (decompressed) content
    tail: bytes  # the last bytes of the (decompressed) content
    _raw: io.BufferedReader

    def position(self) -> int:
        """Bytes of the file on disk consumed so far (compressed bytes for gzip)."""
        return self._raw.tell()


def is_gzip(path: Path) -> bool:
    with path.open("rb") as raw:
        return raw.read(2) == GZIP_MAGIC


def gzip_verify(path: Path) -> tuple[bytes, bytes]:
    """Decompress the whole file, discarding it: (first bytes, last bytes), or ImportFileError."""
    head = tail = b""
    try:
        with gzip.open(path, "rb") as stream:
            while chunk := stream.read(_CHUNK):
                head = head or chunk[:TAIL_BYTES]
                tail = (tail + chunk)[-TAIL_BYTES:]
    except (EOFError, OSError, zlib.error) as exc:
        raise ImportFileError(f"{path.name} is not a complete gzip file: {exc}") from None
    return head, tail


def plain_ends(path: Path) -> tuple[bytes, bytes]:
    with path.open("rb") as raw:
        head = raw.read(TAIL_BYTES)
        raw.seek(0, io.SEEK_END)
        raw.seek(max(0, raw.tell() - TAIL_BYTES))
        return head, raw.read()


@contextmanager
def text_source_open(path: Path | str) -> Iterator[TextSource]:
    """The file as UTF-8 text (a BOM is dropped), decompressed when it is gzip."""
    path = Path(path)
    if not path.is_file():
        raise ImportFileError(f"{path} does not exist or is not a file")
    compressed = is_gzip(path)
    if path.suffix == ".gz" and not compressed:
        raise ImportFileError(f"{path.name} ends in .gz but is not gzip-compressed")
    head, tail = gzip_verify(path) if compressed else plain_ends(path)
    raw = path.open("rb")
    try:
        binary = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
        stream = io.TextIOWrapper(binary, encoding="utf-8-sig", newline="")
        yield TextSource(stream=stream, binary=binary, size=path.stat().st_size, head=head, tail=tail, _raw=raw)
    finally:
        raw.close()


def progress_bar(*, total: int, description: str, quiet: bool) -> tqdm:
    """A byte progress bar on stderr; off with --quiet and whenever stderr is not a terminal."""
    return tqdm(
        total=total,
        desc=description,
        unit="B",
        unit_scale=True,
        file=sys.stderr,
        disable=True if quiet else None,
        leave=False,
    )


def progress_advance(bar: tqdm, source: TextSource) -> None:
    bar.update(source.position() - bar.n)
