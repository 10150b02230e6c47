"""The watchlist signal and the sync task run after commit, as in production: these tests
commit for real (transactional database), so every request's on_commit work has run by
the time the next request reads."""

import pytest


@pytest.fixture(autouse=True)
def _committing(transactional_db):
    return None
