"""The matching engine fed with the current list versions.

The index is built once per set of list versions and cached twice: in the
process (one build per worker, reused for every query) and on disk under the
data directory (so other workers and later processes load it instead of
building it). A new list version changes the cache key, so a stale index is
never used.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import pickle
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from service.screening.matching import INDEX_FORMAT, MatchIndex
from service.screening.matching.types import ListEntity, ListName
from service.screening.models import ScreeningListCategory, ScreeningListEntry

logger = logging.getLogger(__name__)

# Lists also carry vessels and aircraft; persons and organisations are what we screen.
SCREENED_SCHEMAS = ("Person", "Organization", "LegalEntity")


@dataclass(frozen=True)
class ListedEntry:
    category_key: str
    list_type: str  # pep | sanction
    source_id: str


@dataclass(frozen=True)
class LoadedIndex:
    index: MatchIndex
    version_uuids: tuple[str, ...]
    entries: dict[str, ListedEntry]  # entity id (the list entry's uuid) -> where it is listed


_lock = threading.Lock()
_cache: dict[tuple[str, ...], LoadedIndex] = {}


def list_entity_from(entry: ScreeningListEntry) -> ListEntity:
    return ListEntity(
        id=str(entry.uuid),
        schema="Person" if entry.schema == "Person" else "Organization",
        names=[ListName(n["name"], n.get("quality", "strong")) for n in entry.names] or [ListName(entry.primary_name)],
        birth_dates=list(entry.birth_dates),
        nationalities=list(entry.nationalities),
        gender=entry.gender or None,
    )


def entity_match_key(entity: ListEntity) -> str:
    """A digest of everything the engine reads of a listed entity but its id (its schema, its
    names in order with their quality, birth dates, nationalities, gender): two entities with
    the same key score the same against every query, so a list entry whose key is its
    predecessor's has the predecessor's hits (rescreen.py)."""
    facts = [entity.schema, [[name.name, name.quality] for name in entity.names], entity.birth_dates,
             entity.nationalities, entity.gender]
    return hashlib.sha256(json.dumps(facts, ensure_ascii=False).encode()).hexdigest()


def _current_categories(category_keys: Iterable[str] | None) -> list[ScreeningListCategory]:
    queryset = ScreeningListCategory.objects.exclude(current_version=None).select_related("current_version")
    if category_keys is not None:
        queryset = queryset.filter(key__in=list(category_keys))
    return sorted(queryset, key=lambda c: c.key)


def _entities(categories: list[ScreeningListCategory]) -> Iterator[tuple[ListEntity, ListedEntry]]:
    for category in categories:
        entries = ScreeningListEntry.objects.filter(
            version=category.current_version, schema__in=SCREENED_SCHEMAS
        ).iterator(chunk_size=5000)
        for entry in entries:
            yield list_entity_from(entry), ListedEntry(category.key, category.list_type, entry.source_id)


def screening_index(*, category_keys: Iterable[str] | None = None) -> LoadedIndex:
    categories = _current_categories(category_keys)
    version_uuids = tuple(str(c.current_version_id) for c in categories)
    with _lock:
        loaded = _cache.get(version_uuids)
        if loaded is None:
            loaded = _load_or_build(categories, version_uuids)
            _cache.clear()  # keep one index per process: older list versions are done with
            _cache[version_uuids] = loaded
            keep_out_of_garbage_collection()
    return loaded


def keep_out_of_garbage_collection() -> None:
    """Move every object alive now, a loaded index's millions among them, out of reach of
    the cyclic garbage collector. Otherwise its full collections walk them all: in the
    matching benchmark one took 0.9 s, inside a single screening, once every few thousand.
    The index holds no reference cycles, so a replaced one is still freed (by reference
    counting); garbage already waiting is collected first, so none of it is kept."""
    gc.collect()
    gc.freeze()


def _disk_path(version_uuids: tuple[str, ...]) -> Path:
    digest = hashlib.sha256(f"{INDEX_FORMAT}:{','.join(version_uuids)}".encode()).hexdigest()[:24]
    return Path(settings.DATA_DIR) / "screening-index" / f"{digest}.pickle"


def _load_or_build(categories: list[ScreeningListCategory], version_uuids: tuple[str, ...]) -> LoadedIndex:
    path = _disk_path(version_uuids)
    if path.exists():
        try:
            with open(path, "rb") as stream:
                loaded = pickle.load(stream)
            if loaded.version_uuids == version_uuids:
                return loaded
        except Exception:  # a torn or old-format cache file is rebuilt, never trusted
            logger.warning("Screening index cache %s unreadable; rebuilding.", path)
    listed: dict[str, ListedEntry] = {}
    entities = []
    for entity, where in _entities(categories):
        entities.append(entity)
        listed[entity.id] = where
    loaded = LoadedIndex(MatchIndex.build(entities), version_uuids, listed)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A file of this writer's own: workers that build the same index at once each write theirs
    # and the last rename wins (with one shared name, one renamed the other's file away).
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f"{path.stem}.", suffix=".partial")
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as stream:
            pickle.dump(loaded, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, path)  # atomic: readers never see half a file
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return loaded
