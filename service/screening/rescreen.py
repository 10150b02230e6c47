"""Re-screening: a new list version's delta, or everything, in chunks that workers share.

**A new list version** (list_import.py enqueues `screening_list_version_rescreen_task` when an
import commits a version with added or changed entries): only those entries are searched, in
a small index built over them alone (`delta_index`, cached per worker process), against every
screened entity of every config that receives the category (PEP always, a sanction list when
selected: `config_category_keys`). Unchanged entries make no work; removed entries make none
either — their open cases stay as they are (nothing is deleted; the case keeps the entry it
was raised on, and the reviewer closes it).

**Everything** (`full_rescreen_plan`, the `rescreen_all` command): every screened entity of
every config against the engine's full index, e.g. after an engine change.

Both are planned the same way: per config, its screened monitorings in uuid order, cut into
chunks of CHUNK_SIZE (run_models.py); each chunk is a task. Hits go through the same
`entities_screen` -> `hits_record` path as the run when a monitoring becomes active.
"""

from __future__ import annotations

import threading
import uuid

from django.db import transaction
from django.utils import timezone

from service.screening.engine import SCREENED_SCHEMAS, ListedEntry, LoadedIndex, list_entity_from, screening_index
from service.screening.matching import MatchIndex
from service.screening.models import (
    ScreeningConfig,
    ScreeningListEntry,
    ScreeningListEntryChange,
    ScreeningListVersion,
    ScreeningRun,
    ScreeningRunChunk,
)
from service.screening.monitoring_selectors import monitorings_screened
from service.screening.screening_run import RunResult, config_category_keys, entities_screen

CHUNK_SIZE = 2000
DELTA_CHANGES = (ScreeningListEntryChange.Change.ADDED, ScreeningListEntryChange.Change.CHANGED)

_lock = threading.Lock()
_delta_cache: dict[uuid.UUID, LoadedIndex] = {}


def delta_entries(version: ScreeningListVersion):
    """The version's added and changed entries that the engine screens (persons, organisations)."""
    changed = ScreeningListEntryChange.objects.filter(version=version, change__in=DELTA_CHANGES).values("entry_id")
    return ScreeningListEntry.objects.filter(uuid__in=changed, schema__in=SCREENED_SCHEMAS)


def delta_index(version_uuid: uuid.UUID) -> LoadedIndex:
    """A MatchIndex over the version's delta alone; one per worker process (the newest asked)."""
    with _lock:
        loaded = _delta_cache.get(version_uuid)
        if loaded is None:
            version = ScreeningListVersion.objects.select_related("category").get(uuid=version_uuid)
            category = version.category
            entities, listed = [], {}
            for entry in delta_entries(version).order_by("source_id"):
                entities.append(list_entity_from(entry))
                listed[str(entry.uuid)] = ListedEntry(category.key, category.list_type, entry.source_id)
            loaded = LoadedIndex(MatchIndex.build(entities), (str(version_uuid),), listed)
            _delta_cache.clear()
            _delta_cache[version_uuid] = loaded
    return loaded


def _configs_receiving(category_key: str) -> list[ScreeningConfig]:
    return [c for c in ScreeningConfig.objects.order_by("uuid") if category_key in config_category_keys(c)]


def _chunks(run: ScreeningRun, configs: list[ScreeningConfig], chunk_size: int) -> list[ScreeningRunChunk]:
    chunks = []
    for config in configs:
        uuids = list(monitorings_screened(screening_config=config).order_by("uuid").values_list("uuid", flat=True))
        for start in range(0, len(uuids), chunk_size):
            part = uuids[start : start + chunk_size]
            chunks.append(
                ScreeningRunChunk(
                    run=run, screening_config=config, first_monitoring_uuid=part[0], last_monitoring_uuid=part[-1],
                    monitoring_count=len(part),
                )
            )
    return chunks


def _plan(run: ScreeningRun, configs: list[ScreeningConfig], chunk_size: int) -> None:
    """Write the run's chunks (in the caller's transaction) and enqueue them on commit."""
    chunks = _chunks(run, configs, chunk_size)
    ScreeningRunChunk.objects.bulk_create(chunks)
    run.chunk_count = len(chunks)
    if not chunks:
        run.finished_timestamp = timezone.now()
    run.save(update_fields=["chunk_count", "finished_timestamp"])
    _enqueue_on_commit([c.uuid for c in chunks])


def _enqueue_on_commit(chunk_uuids: list[uuid.UUID]) -> None:
    from service.screening.tasks import screening_run_chunk_task

    for chunk_uuid in chunk_uuids:
        # robust: a broker that is away does not undo the plan; chunks_open finds what was not sent.
        transaction.on_commit(lambda chunk_uuid=str(chunk_uuid): screening_run_chunk_task.delay(chunk_uuid), robust=True)


def list_version_rescreen_plan(*, version_uuid: uuid.UUID | str, chunk_size: int = CHUNK_SIZE) -> ScreeningRun | None:
    """The run of this version's delta, planned once; a repeated call enqueues the chunks not
    done yet (a redelivered planning task). None when the version is gone."""
    version = ScreeningListVersion.objects.select_related("category").filter(uuid=version_uuid).first()
    if version is None:
        return None
    with transaction.atomic():
        ScreeningRun.objects.bulk_create(
            [ScreeningRun(kind=ScreeningRun.Kind.LIST_VERSION, list_version=version)], ignore_conflicts=True
        )
        run = ScreeningRun.objects.select_for_update().get(kind=ScreeningRun.Kind.LIST_VERSION, list_version=version)
        if run.chunk_count or run.finished_timestamp:
            _enqueue_on_commit(list(run.chunks.filter(done_timestamp=None).values_list("uuid", flat=True)))
            return run
        run.delta_entry_count = delta_entries(version).count()
        run.save(update_fields=["delta_entry_count"])
        configs = _configs_receiving(version.category.key) if run.delta_entry_count else []
        _plan(run, configs, chunk_size)
    return run


def full_rescreen_plan(*, chunk_size: int = CHUNK_SIZE) -> ScreeningRun:
    """A run of every screened entity of every config against every current list."""
    with transaction.atomic():
        run = ScreeningRun.objects.create(kind=ScreeningRun.Kind.FULL)
        _plan(run, list(ScreeningConfig.objects.order_by("uuid")), chunk_size)
    return run


def chunks_open_uuids(*, planned_before) -> list[uuid.UUID]:
    """Chunks not done of runs planned before then: to enqueue again after a broker outage."""
    return list(
        ScreeningRunChunk.objects.filter(done_timestamp=None, run__created_timestamp__lt=planned_before)
        .order_by("run__created_timestamp", "uuid").values_list("uuid", flat=True)
    )


def chunk_screen(*, chunk_uuid: uuid.UUID | str) -> RunResult | None:
    """Screen one chunk; None when it is gone. A chunk already done is not screened again."""
    chunk = ScreeningRunChunk.objects.select_related("run", "screening_config").filter(uuid=chunk_uuid).first()
    if chunk is None:
        return None
    result = RunResult()
    if chunk.done_timestamp is not None:
        return result
    run = chunk.run
    loaded = delta_index(run.list_version_id) if run.kind == ScreeningRun.Kind.LIST_VERSION else screening_index()
    monitorings = monitorings_screened(screening_config=chunk.screening_config).filter(
        uuid__gte=chunk.first_monitoring_uuid, uuid__lte=chunk.last_monitoring_uuid
    )
    entities_screen(config=chunk.screening_config, monitorings=monitorings, loaded=loaded, result=result)
    now = timezone.now()
    marked = ScreeningRunChunk.objects.filter(pk=chunk.pk, done_timestamp=None).update(
        done_timestamp=now, screened=result.screened, hits=result.hits,
        cases_created=result.cases_created, cases_updated=result.cases_updated,
    )
    if marked and not ScreeningRunChunk.objects.filter(run=run, done_timestamp=None).exists():
        ScreeningRun.objects.filter(pk=run.pk, finished_timestamp=None).update(finished_timestamp=now)
    return result
