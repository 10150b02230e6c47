"""Re-screening: a new list version's delta, or everything, in chunks that workers share.

**A new list version** (list_import.py enqueues `screening_list_version_rescreen_task` when an
import commits a version with added or changed entries): its hits are those of every screened
entity of every config that receives the category (PEP always, a sanction list when selected:
`config_category_keys`) searched in a small index of its added and changed entries (`DeltaIndex.whole`).
Unchanged entries make no work; removed entries make none either — their open cases stay as
they are (nothing is deleted; the case keeps the entry it was raised on, and the reviewer
closes it).

Most changed entries change what the engine does not read (remarks, programmes, addresses):
their **match key** (`engine.entity_match_key`) is their predecessor's, so they score exactly
as it did against every entity, and the entities they hit are those the predecessor hit —
which all have a case of that listed entity, as every hit makes or keeps one. So the run
searches each entity in the whole delta only when a narrower index of the entries with new
match facts (added, or changed names, birth dates, nationalities, gender, schema) finds it, or
when it has a case on one of the other entries (`Narrowing`). Whoever is searched is searched
in the whole delta, and its hits go through `hits_record` as ever (an open case moved to the
changed entry, a false positive raised again as its content hash changed, a confirmed hit left
alone). That rests on every screened entity having been searched, with its current details,
against the current entries of the lists its config receives; docs/screening.md says where
that does not hold.

**Everything** (`full_rescreen_plan`, the `rescreen_all` command): every screened entity of
every config against the engine's full index, e.g. after an engine change.

Both are planned the same way: per config, its screened monitorings in uuid order, cut into
chunks of CHUNK_SIZE (run_models.py); each chunk is a task. Hits go through the same
`entities_screen` -> `hits_record` path as the run when a monitoring becomes active.
"""

from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from service.screening.engine import (
    SCREENED_SCHEMAS,
    ListedEntry,
    LoadedIndex,
    entity_match_key,
    list_entity_from,
    screening_index,
)
from service.screening.matching import MatchIndex
from service.screening.models import (
    ScreeningCase,
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningListCategory,
    ScreeningListEntry,
    ScreeningListEntryChange,
    ScreeningListVersion,
    ScreeningRun,
    ScreeningRunChunk,
)
from service.screening.monitoring_selectors import monitorings_screened
from service.screening.screening_run import Narrowing, RunResult, config_category_keys, entities_screen

CHUNK_SIZE = 2000
# What `list_entity_from` reads of an entry, and its source id.
ENGINE_FIELDS = ("uuid", "source_id", "schema", "primary_name", "names", "birth_dates", "nationalities", "gender")
DELTA_CHANGES = (ScreeningListEntryChange.Change.ADDED, ScreeningListEntryChange.Change.CHANGED)

_lock = threading.Lock()
_delta_cache: dict[uuid.UUID, DeltaIndex] = {}


@dataclass(frozen=True)
class DeltaIndex:
    """A version's delta as its run searches it."""

    whole: LoadedIndex  # every added and changed entry: where hits come from
    new_facts: MatchIndex | None  # the entries whose match key is new (None: no entry)
    carried_source_ids: frozenset[str]  # the changed entries with their predecessor's match key
    category_uuid: uuid.UUID

    def narrowing(self, config: ScreeningConfig) -> Narrowing | None:
        """Who of the config's entities to search in `whole`; None (everyone) when no entry is carried."""
        if not self.carried_source_ids:
            return None
        with_cases = ScreeningCase.objects.filter(
            screening_config=config, list_category_id=self.category_uuid, list_source_id__in=self.carried_source_ids
        ).values_list("entity_inquiry__inquiry_entity_uuid", flat=True)
        return Narrowing(self.new_facts, frozenset(with_cases))


def delta_entries(version: ScreeningListVersion):
    """The version's added and changed entries that the engine screens (persons, organisations)."""
    changed = ScreeningListEntryChange.objects.filter(version=version, change__in=DELTA_CHANGES).values("entry_id")
    return ScreeningListEntry.objects.filter(uuid__in=changed, schema__in=SCREENED_SCHEMAS)


def _predecessor_keys(version: ScreeningListVersion) -> dict[str, str]:
    """source_id -> the match key of its entry in the previous version, for the changed entries
    whose predecessor the engine screened."""
    previous = ScreeningListEntryChange.objects.filter(
        version=version, change=ScreeningListEntryChange.Change.CHANGED
    ).values("previous_entry_id")
    entries = ScreeningListEntry.objects.filter(uuid__in=previous, schema__in=SCREENED_SCHEMAS).only(*ENGINE_FIELDS)
    return {entry.source_id: entity_match_key(list_entity_from(entry)) for entry in entries.iterator(chunk_size=2000)}


def delta_index(version_uuid: uuid.UUID) -> DeltaIndex:
    """The version's delta indexes; one per worker process (the newest asked)."""
    with _lock:
        loaded = _delta_cache.get(version_uuid)
        if loaded is None:
            loaded = _delta_index_build(version_uuid)
            _delta_cache.clear()
            _delta_cache[version_uuid] = loaded
    return loaded


def _delta_index_build(version_uuid: uuid.UUID) -> DeltaIndex:
    version = ScreeningListVersion.objects.select_related("category").get(uuid=version_uuid)
    category = version.category
    predecessor_keys = _predecessor_keys(version)
    entities, new_facts, carried, listed = [], [], set(), {}
    for entry in delta_entries(version).only(*ENGINE_FIELDS).order_by("source_id").iterator(chunk_size=2000):
        entity = list_entity_from(entry)
        entities.append(entity)
        listed[str(entry.uuid)] = ListedEntry(category.key, category.list_type, entry.source_id)
        if predecessor_keys.get(entry.source_id) == entity_match_key(entity):
            carried.add(entry.source_id)
        else:
            new_facts.append(entity)
    return DeltaIndex(
        whole=LoadedIndex(MatchIndex.build(entities), (str(version_uuid),), listed),
        new_facts=MatchIndex.build(new_facts) if new_facts else None,
        carried_source_ids=frozenset(carried),
        category_uuid=category.uuid,
    )


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


def full_rescreen_plan(*, config_uuid: uuid.UUID | str | None = None, chunk_size: int = CHUNK_SIZE) -> ScreeningRun | None:
    """A run of every screened entity of every config (or of one config) against every current
    list. None when the config asked for is gone."""
    configs = ScreeningConfig.objects.order_by("uuid")
    if config_uuid is not None:
        configs = configs.filter(uuid=config_uuid)
        if not configs.exists():
            return None
    with transaction.atomic():
        run = ScreeningRun.objects.create(kind=ScreeningRun.Kind.FULL)
        _plan(run, list(configs), chunk_size)
        # The re-screens owed since a category was selected are planned now (their chunks read
        # the config's categories when they run).
        ScreeningConfigListCategory.objects.filter(
            screening_config__in=configs, rescreen_owed_timestamp__isnull=False
        ).update(rescreen_owed_timestamp=None)
    return run


def configs_rescreen_owed_uuids(*, selected_before) -> list[uuid.UUID]:
    """Configs with a category selected before then whose re-screen was never planned (its
    message lost, or still queued)."""
    return list(
        ScreeningConfigListCategory.objects.filter(rescreen_owed_timestamp__lt=selected_before)
        .order_by("screening_config_id").values_list("screening_config_id", flat=True).distinct()
    )


def list_versions_unplanned_uuids(*, imported_before) -> list[uuid.UUID]:
    """Current list versions with added or changed entries, imported before then, whose re-screen
    was never planned (its message lost, or still queued). A version already superseded is not
    planned: its delta holds entries the current version may have removed (docs/production.md)."""
    current = ScreeningListCategory.objects.exclude(current_version=None).values("current_version")
    planned = ScreeningRun.objects.filter(kind=ScreeningRun.Kind.LIST_VERSION, list_version=OuterRef("pk"))
    return list(
        ScreeningListVersion.objects.filter(uuid__in=current, imported_at__lt=imported_before)
        .filter(Q(added_count__gt=0) | Q(changed_count__gt=0)).exclude(Exists(planned))
        .order_by("imported_at").values_list("uuid", flat=True)
    )


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
    run, config = chunk.run, chunk.screening_config
    if run.kind == ScreeningRun.Kind.LIST_VERSION:
        delta = delta_index(run.list_version_id)
        loaded, narrowing = delta.whole, delta.narrowing(config)
    else:
        loaded, narrowing = screening_index(), None
    monitorings = monitorings_screened(screening_config=config).filter(
        uuid__gte=chunk.first_monitoring_uuid, uuid__lte=chunk.last_monitoring_uuid
    )
    entities_screen(config=config, monitorings=monitorings, loaded=loaded, result=result, narrowing=narrowing)
    now = timezone.now()
    marked = ScreeningRunChunk.objects.filter(pk=chunk.pk, done_timestamp=None).update(
        done_timestamp=now, screened=result.screened, hits=result.hits,
        cases_created=result.cases_created, cases_updated=result.cases_updated,
    )
    if marked and not ScreeningRunChunk.objects.filter(run=run, done_timestamp=None).exists():
        ScreeningRun.objects.filter(pk=run.pk, finished_timestamp=None).update(finished_timestamp=now)
    return result
