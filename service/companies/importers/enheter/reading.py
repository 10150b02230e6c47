"""An Enhetsregisteret file, CSV or JSON, as blocks of rows: columns of text named as the CSV header.

A CSV is read by pyarrow's CSV reader in blocks, in a thread of our own that asks for
the next block while the rules check the last one (pyarrow lets go of the GIL). A row
with the wrong number of fields is skipped there and reported; the lines of the rows
a report names are the row's ordinal + 2 when every row is one line, else counted
again by Python's csv module (quoted fields over several lines, blank lines). The whole
file, unread columns too, must be UTF-8.

The JSON download (one array of nested objects) is flattened to the same column names
(records.py) and gathered into blocks of the same size, each row's line kept.
"""

from __future__ import annotations

import csv
import io
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pa_csv

from service.companies.importers.csv_rows import csv_header_check, csv_rows
from service.companies.importers.enheter.records import COLUMNS, json_records
from service.companies.importers.json_array import JsonSyntaxError
from service.companies.importers.source import ImportFileError, TextSource, progress_advance, text_source_open

# pyarrow's read block. Its reader reads up to 32 blocks ahead, so blocks are small; they are checked in
# groups of BLOCK_ROWS rows, each rule a pass over a whole column.
BLOCK_BYTES = 1 << 20
BLOCK_ROWS = 10_000
_BOM = b"\xef\xbb\xbf"
_STRING = pa.string()


@dataclass
class Blocks:
    """The blocks of one file. Once they are all read: `rows`, the rows the file holds (those a block
    carries and those refused by shape), `refused` (line, reason) and `lines_of` for the others."""

    blocks: Iterator[pa.RecordBatch]
    rows: int = 0
    refused: list[tuple[int, str]] = field(default_factory=list)
    lines: list[int] | None = None  # each block row's line, when known as it is read (JSON)
    _csv: _CsvFile | None = None

    def lines_of(self, ordinals: set[int]) -> dict[int, int]:
        if self.lines is not None:
            return {ordinal: self.lines[ordinal] for ordinal in ordinals}
        return self._csv.lines_of(ordinals)


def is_json(source: TextSource, file_format: str, name: str) -> bool:
    starts_as_array = source.head.lstrip(_BOM + b" \t\r\n")[:1] == b"["
    if file_format == "auto":
        return starts_as_array
    if file_format == "json" and not starts_as_array:
        raise ImportFileError(f"{name} is not JSON in the brreg download format: expected a JSON array '[...]'")
    return file_format == "json"


def json_blocks(source: TextSource, bar, path: Path) -> Blocks:
    if not source.tail.rstrip().endswith(b"]"):
        raise ImportFileError(f"{path.name} is not a complete JSON array: it does not end with ']'")
    blocks = Blocks(iter(()), lines=[])

    def read() -> Iterator[pa.RecordBatch]:
        columns: dict[str, list[str]] = {column: [] for column in COLUMNS}
        try:
            for line, values in json_records(source.stream, path.name):
                blocks.lines.append(line)
                for column in COLUMNS:
                    columns[column].append(values[column])
                if len(blocks.lines) % BLOCK_ROWS == 0:
                    progress_advance(bar, source)
                    yield pa.RecordBatch.from_pydict(columns)
                    columns = {column: [] for column in COLUMNS}
        except JsonSyntaxError as exc:
            raise ImportFileError(f"{path.name} is not valid JSON at {exc}") from None
        blocks.rows = len(blocks.lines)
        if columns[COLUMNS[0]]:
            yield pa.RecordBatch.from_pydict(columns)

    blocks.blocks = read()
    return blocks


def csv_blocks(source: TextSource, bar, path: Path) -> Blocks:
    header = _header(source, path.name)
    csv_file = _CsvFile(source, bar, header, path)
    blocks = Blocks(iter(()), _csv=csv_file)

    def read() -> Iterator[pa.RecordBatch]:
        yield from csv_file.blocks()
        csv_file.lines_count()
        blocks.rows, blocks.refused = csv_file.rows, csv_file.refused

    blocks.blocks = read()
    return blocks


def _header(source: TextSource, name: str) -> list[str]:
    first = source.binary.readline()
    if first.startswith(_BOM):
        first = first[len(_BOM) :]
    if not first.strip():
        raise ImportFileError(f"{name} is empty: expected a CSV header")
    try:
        header = next(csv.reader([first.decode("utf-8").rstrip("\r\n")]))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ImportFileError(f"{name} is not readable as CSV: {exc}") from None
    csv_header_check(header, required_columns=COLUMNS, name=name)
    return header


class _CsvFile:
    def __init__(self, source: TextSource, bar, header: list[str], path: Path) -> None:
        self.header, self.path = header, path
        self.stream = _CheckedStream(source, bar, path.name)
        self.read_rows = 0  # rows pyarrow gave
        self.skipped = 0  # rows pyarrow skipped for their shape
        self.rows = 0
        self.refused: list[tuple[int, str]] = []
        self._lines: dict[int, int] | None = None

    def blocks(self) -> Iterator[pa.RecordBatch]:
        # Columns by position: a repeated column name is read as the csv module's DictReader reads it (the last wins).
        positions = {name: index for index, name in enumerate(self.header)}
        names = [f"c{index}" for index in range(len(self.header))]
        wanted = [names[positions[column]] for column in COLUMNS]

        def skip(row) -> str:
            self.skipped += 1
            return "skip"

        try:
            reader = pa_csv.open_csv(
                self.stream,
                read_options=pa_csv.ReadOptions(column_names=names, block_size=BLOCK_BYTES),
                parse_options=pa_csv.ParseOptions(newlines_in_values=True, invalid_row_handler=skip),
                convert_options=pa_csv.ConvertOptions(
                    include_columns=wanted, column_types=dict.fromkeys(wanted, _STRING), strings_can_be_null=False
                ),
            )
            for batch in _read_ahead(reader):
                self.stream.check()
                self.read_rows += batch.num_rows
                yield pa.RecordBatch.from_arrays([batch.column(name) for name in wanted], names=list(COLUMNS))
        except pa.ArrowInvalid as exc:  # a broken quote ...
            self.stream.check()
            raise ImportFileError(f"{self.path.name} is unreadable: {str(exc).splitlines()[0]}") from None
        self.stream.check()

    def lines_count(self) -> None:
        """After the last block: if every row was one line, each row's line is its ordinal + 2; otherwise the
        csv module counts the lines (and finds the rows pyarrow skipped, with the reason)."""
        self.rows = self.read_rows
        if self.stream.lines() == self.read_rows + 1 and not self.skipped:
            return
        self._lines = {}
        good = 0
        with text_source_open(self.path) as again:
            for row in csv_rows(again.stream, required_columns=COLUMNS, name=self.path.name):
                if row.problem:
                    self.refused.append((row.line, row.problem))
                    continue
                self._lines[good] = row.line
                good += 1
        if good != self.read_rows or len(self.refused) != self.skipped:
            raise ImportFileError(f"{self.path.name}: pyarrow and the csv module read different rows; the file is malformed")
        self.rows = good + len(self.refused)

    def lines_of(self, ordinals: set[int]) -> dict[int, int]:
        if self._lines is None:
            return {ordinal: ordinal + 2 for ordinal in ordinals}
        return {ordinal: self._lines[ordinal] for ordinal in ordinals}


def _read_ahead(reader) -> Iterator[pa.RecordBatch]:
    """The reader's blocks, gathered into groups of BLOCK_ROWS, read by a thread of our own one group ahead."""
    groups: queue.Queue = queue.Queue(maxsize=1)
    stop = threading.Event()

    def put(item) -> None:
        while not stop.is_set():
            try:
                groups.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def read() -> None:
        group: list[pa.RecordBatch] = []
        rows = 0
        try:
            while not stop.is_set():
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    break
                group.append(batch)
                rows += batch.num_rows
                if rows >= BLOCK_ROWS:
                    put(pa.Table.from_batches(group).combine_chunks().to_batches()[0])
                    group, rows = [], 0
            if group:
                put(pa.Table.from_batches(group).combine_chunks().to_batches()[0])
            put(None)
        except BaseException as exc:  # noqa: BLE001 (whatever it is, the consumer raises it)
            put(exc)

    thread = threading.Thread(target=read, name="enheter-csv-reader", daemon=True)
    thread.start()
    try:
        while (item := groups.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        thread.join()


class _CheckedStream(io.RawIOBase):
    """The file's bytes on their way to pyarrow: line breaks counted, UTF-8 checked, progress shown."""

    def __init__(self, source: TextSource, bar, name: str) -> None:
        self.source, self.bar, self.name = source, bar, name
        self.breaks = 0
        self.carriage_returns = False
        self.last = b""
        self.partial = b""  # a UTF-8 sequence cut by the end of the last chunk
        self.problem = ""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        chunk = self.source.binary.read(len(buffer))
        if not self.problem:
            self._utf8_check(chunk)
        self.breaks += chunk.count(b"\n")
        self.carriage_returns = self.carriage_returns or b"\r" in chunk
        self.last = chunk[-1:] or self.last
        progress_advance(self.bar, self.source)
        buffer[: len(chunk)] = chunk
        return len(chunk)

    def _utf8_check(self, chunk: bytes) -> None:
        """The whole file must be UTF-8, checked by the decoder (a sequence cut by the chunk kept for the next)."""
        data = self.partial + chunk
        try:
            text_end = len(data) if not chunk else _complete_end(data)
            data[:text_end].decode("utf-8")
            self.partial = data[text_end:]
        except UnicodeDecodeError as exc:
            line = 2 + self.breaks + data[: exc.start].count(b"\n")  # (the header is line 1, read before)
            self.problem = f"{self.name} is unreadable after line {line - 1}: bytes that are not UTF-8"

    def check(self) -> None:
        if self.problem:
            raise ImportFileError(self.problem)

    def lines(self) -> int:
        """Physical lines counted the csv module's way, if no \\r appears (else more than rows + 1 anyway)."""
        if self.carriage_returns:
            return -1
        return 1 + self.breaks + (1 if self.last not in (b"\n", b"") else 0)


def _complete_end(data: bytes) -> int:
    """Where the last complete UTF-8 sequence ends."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte < 0x80:
            break
        if byte >= 0xC0:
            if (2 if byte < 0xE0 else 3 if byte < 0xF0 else 4) > back:
                end -= back
            break
    return end
