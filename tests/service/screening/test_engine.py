"""The engine's index of the current lists: loaded once per process, kept out of the garbage collector's walks."""

from __future__ import annotations

import gc
import pickle
import weakref

import pytest

from service.screening import engine
from service.screening.list_import import screening_list_import
from service.screening.models import ScreeningListCategory
from tests.conftest import shared_file


@pytest.fixture
def un_list(db):
    category = ScreeningListCategory.objects.get(key="un_security_council")
    screening_list_import(category=category, path=shared_file("sanctions/un/UN_consolidated.xml"))
    engine._cache.clear()
    gc.unfreeze()
    yield category
    engine._cache.clear()
    gc.unfreeze()


def test_it_keeps_a_loaded_index_out_of_garbage_collection(un_list, monkeypatch):
    freezes, freeze = [], gc.freeze
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append(freeze()))
    loaded = engine.screening_index(category_keys=["un_security_council"])
    # The index's name parts, among everything else alive, are no longer walked by collections.
    assert len(freezes) == 1 and gc.get_freeze_count() > len(loaded.index._vocabulary.parts)
    assert engine.screening_index(category_keys=["un_security_council"]) is loaded  # reused, not loaded again
    assert len(freezes) == 1


def test_it_still_frees_an_index_the_lists_have_moved_on_from(un_list):
    loaded = engine.screening_index(category_keys=["un_security_council"])
    old = weakref.ref(loaded.index)
    del loaded
    engine.screening_index(category_keys=[])  # another set of list versions replaces it
    assert old() is None  # frozen, yet freed: the index holds no reference cycles


def test_it_builds_the_index_while_another_worker_writes_the_same_disk_cache(un_list, monkeypatch, settings, tmp_path):
    # Two workers (processes sharing the data directory) that meet a new list version at once
    # both build its index and write it to disk; the other one writes while this one does.
    settings.DATA_DIR = tmp_path
    categories = engine._current_categories(["un_security_council"])
    version_uuids = tuple(str(c.current_version_id) for c in categories)
    dump, others = pickle.dump, []

    def dump_while_another_worker_writes(obj, stream, **kwargs):
        if not others:
            others.append("writing")
            others[0] = engine._load_or_build(categories, version_uuids)  # the other worker, start to end
        dump(obj, stream, **kwargs)

    monkeypatch.setattr(pickle, "dump", dump_while_another_worker_writes)
    loaded = engine.screening_index(category_keys=["un_security_council"])

    assert loaded.version_uuids == version_uuids == others[0].version_uuids
    cache_files = list((tmp_path / "screening-index").iterdir())
    assert [f.suffix for f in cache_files] == [".pickle"]  # no half-written file left behind
    with open(cache_files[0], "rb") as stream:
        assert pickle.load(stream).version_uuids == version_uuids  # a third worker loads it whole
