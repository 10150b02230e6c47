"""The companies an import touched, collected so that their analysis (highlights, measures,
flags, credit risk) is refreshed once at the end: `refresh()` enqueues the Celery task on
commit (service.companies.tasks). Past `ALL_THRESHOLD` companies the set is not kept
(constant memory on a million-row import) and every company is refreshed instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from service.companies.tasks import analysis_refresh_on_commit

ALL_THRESHOLD = 100_000


class AffectedCompanies:
    def __init__(self) -> None:
        self.uuids: set[uuid.UUID] = set()
        self.everything = False

    def add(self, company_uuids: Iterable[uuid.UUID]) -> None:
        if self.everything:
            return
        self.uuids.update(company_uuids)
        if len(self.uuids) > ALL_THRESHOLD:
            self.everything = True
            self.uuids.clear()

    def refresh(self) -> None:
        """Enqueue the analysis refresh of these companies (or of all) once the transaction commits."""
        if not self.everything and not self.uuids:
            return
        analysis_refresh_on_commit(company_uuids=None if self.everything else self.uuids)
