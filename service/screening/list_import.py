"""Importing a list file as a new version of a screening list category.

All or nothing: the new version's entries, its change records and the switch
of `current_version` happen in one transaction, after the whole file has been
read. A file that cannot be trusted (ParseError) leaves the current version
in place; single bad records are rejected, counted and reported. A version with added or
changed entries is re-screened once committed (only that delta: service/screening/rescreen.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.db.models import Max

from service.screening.lists.formats.entry import ParsedEntry, ParseError, ParseSummary
from service.screening.lists.formats.registry import FORMATS, parse_file
from service.screening.models import (
    ScreeningListCategory,
    ScreeningListEntry,
    ScreeningListEntryChange,
    ScreeningListVersion,
)

BATCH_SIZE = 2000


class ListImportError(Exception):
    """The file was refused as a whole; the current version is unchanged."""


@dataclass
class ListImportResult:
    category_key: str
    version: ScreeningListVersion | None
    unchanged: bool
    read: int = 0
    accepted: int = 0
    rejected: list[dict] = field(default_factory=list)
    skipped: int = 0
    warnings: int = 0
    added: int = 0
    changed: int = 0
    removed: int = 0

    def summary_line(self) -> str:
        if self.unchanged:
            return f"{self.category_key}: file unchanged since the current version; nothing imported."
        return (
            f"{self.category_key} v{self.version.number}: read {self.read}, written {self.accepted}, "
            f"rejected {len(self.rejected)}, out of scope {self.skipped}, warnings {self.warnings}; "
            f"added {self.added}, changed {self.changed}, removed {self.removed}."
        )


def file_sha256(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _entry_values(entry: ParsedEntry) -> dict:
    return {
        "source_id": entry.source_id,
        "schema": entry.schema,
        "primary_name": (entry.primary_name or "")[:500],
        "names": [{"name": n.name, "quality": n.quality, "kind": n.kind} for n in entry.names],
        "birth_dates": list(entry.birth_dates),
        "nationalities": list(entry.nationalities),
        "gender": entry.gender or "",
        "identifiers": [{"kind": i.kind, "value": i.value, "country": i.country} for i in entry.identifiers],
        "programmes": list(entry.programmes),
        "listed_date": entry.listed_date or "",
        "source_url": entry.source_url or "",
        "remarks": entry.remarks or "",
        "addresses": list(entry.addresses),
        "positions": list(entry.positions),
    }


# Facts read since the first versions, hashed only when an entry has them: an entry without them keeps its hash,
# so adding a fact to the parsers does not make every entry "changed" (and raise its closed false positives again).
HASHED_WHEN_GIVEN = ("positions",)


def _content_hash(values: dict) -> str:
    hashed = {key: value for key, value in values.items() if value or key not in HASHED_WHEN_GIVEN}
    return hashlib.sha256(json.dumps(hashed, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def screening_list_import(
    *,
    category: ScreeningListCategory,
    path: str | os.PathLike,
    format: str | None = None,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ListImportResult:
    """Import `path` as the next version of `category` (skipped when the file is unchanged)."""
    format = format or category.source_format
    if format not in FORMATS:
        raise ListImportError(f"unknown list format {format!r}; known: {', '.join(FORMATS)}")
    if not Path(path).is_file():
        raise ListImportError(f"no file at {path}")
    sha256 = file_sha256(path)

    def unchanged(current: ScreeningListVersion | None) -> bool:
        return current is not None and current.source_sha256 == sha256 and not force

    if unchanged(category.current_version):
        return ListImportResult(category.key, category.current_version, unchanged=True)

    summary = ParseSummary()
    try:
        with transaction.atomic():
            locked = ScreeningListCategory.objects.select_for_update().get(pk=category.pk)
            previous = locked.current_version
            if unchanged(previous):  # another import of this file committed since `category` was read
                category.current_version = previous
                return ListImportResult(category.key, previous, unchanged=True)
            number = (locked.versions.aggregate(n=Max("number"))["n"] or 0) + 1
            version = ScreeningListVersion.objects.create(
                category=locked, number=number, source_name=Path(path).name, source_sha256=sha256
            )
            _write_entries(version, parse_file(path, format, summary), progress)
            counts = _record_changes(version, previous)
            version.entry_count = summary.accepted
            version.rejected_count = len(summary.rejected)
            version.added_count, version.changed_count, version.removed_count = counts
            version.report = {
                "read": summary.read,
                "accepted": summary.accepted,
                "rejected": [_problem(p) for p in summary.rejected],
                "skipped": dict(summary.skipped),
                "warnings": [_problem(p) for p in summary.warnings[:500]],
                "warning_count": len(summary.warnings),
            }
            version.save()
            locked.current_version = version
            locked.save(update_fields=["current_version"])
            if counts[0] or counts[1]:
                _rescreen_on_commit(version)
    except ParseError as exc:
        raise ListImportError(f"{Path(path).name} was not imported: {exc}") from exc
    category.current_version = version  # the caller's instance sees the new version too

    return ListImportResult(
        category.key,
        version,
        unchanged=False,
        read=summary.read,
        accepted=summary.accepted,
        rejected=[_problem(p) for p in summary.rejected],
        skipped=sum(summary.skipped.values()),
        warnings=len(summary.warnings),
        added=counts[0],
        changed=counts[1],
        removed=counts[2],
    )


def _rescreen_on_commit(version: ScreeningListVersion) -> None:
    """Once the version is committed: screen its added and changed entries (rescreen.py)."""
    from service.screening.tasks import screening_list_version_rescreen_task

    # robust: a broker that is away does not undo the import; the resume plans what was not sent.
    transaction.on_commit(lambda: screening_list_version_rescreen_task.delay(str(version.uuid)), robust=True)


def _problem(problem) -> dict:
    return {"location": problem.location, "reason": problem.reason, "source_id": problem.source_id}


def _write_entries(version: ScreeningListVersion, entries, progress) -> None:
    batch: list[ScreeningListEntry] = []
    seen: set[str] = set()
    for entry in entries:
        if entry.source_id in seen:  # a source repeating an id: the first record wins
            continue
        seen.add(entry.source_id)
        values = _entry_values(entry)
        batch.append(ScreeningListEntry(version=version, content_hash=_content_hash(values), **values))
        if len(batch) >= BATCH_SIZE:
            ScreeningListEntry.objects.bulk_create(batch)
            if progress:
                progress(len(batch))
            batch = []
    if batch:
        ScreeningListEntry.objects.bulk_create(batch)
        if progress:
            progress(len(batch))


def _record_changes(version: ScreeningListVersion, previous: ScreeningListVersion | None) -> tuple[int, int, int]:
    new = {sid: (uuid, digest) for sid, uuid, digest in version.entries.values_list("source_id", "uuid", "content_hash")}
    old = (
        {sid: (uuid, digest) for sid, uuid, digest in previous.entries.values_list("source_id", "uuid", "content_hash")}
        if previous
        else {}
    )
    Change = ScreeningListEntryChange.Change
    changes = []
    for source_id, (entry_uuid, digest) in new.items():
        before = old.get(source_id)
        if before is None:
            changes.append(ScreeningListEntryChange(version=version, source_id=source_id, change=Change.ADDED, entry_id=entry_uuid))
        elif before[1] != digest:
            changes.append(
                ScreeningListEntryChange(
                    version=version, source_id=source_id, change=Change.CHANGED, entry_id=entry_uuid, previous_entry_id=before[0]
                )
            )
    for source_id, (entry_uuid, _digest) in old.items():
        if source_id not in new:
            changes.append(
                ScreeningListEntryChange(version=version, source_id=source_id, change=Change.REMOVED, previous_entry_id=entry_uuid)
            )
    ScreeningListEntryChange.objects.bulk_create(changes, batch_size=BATCH_SIZE)
    added = sum(1 for c in changes if c.change == Change.ADDED)
    changed = sum(1 for c in changes if c.change == Change.CHANGED)
    return added, changed, len(changes) - added - changed
