"""The engine's index of the current lists: loaded once per process, kept out of the garbage collector's walks."""

from __future__ import annotations

import gc
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
