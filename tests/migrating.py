"""Data migrations tested as they run: the database moved to a migration, rows made with the models
as that migration sees them, then moved on."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets, *also_read):
    """Move the database to `targets`; the app registry of that state (with `also_read`'s models)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([*targets, *also_read]).apps


@pytest.fixture
def latest_after():
    """The database back at the newest migrations after the test, as every other test expects it."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
