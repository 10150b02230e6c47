"""Dashboard screening tests commit for real: the screening run that raises cases is enqueued on commit."""

from __future__ import annotations

import pytest

from tests.service.screening.cases.conftest import lists  # noqa: F401  (the tiny UN and PEP lists)


@pytest.fixture(autouse=True)
def _committing(transactional_db):
    return None

