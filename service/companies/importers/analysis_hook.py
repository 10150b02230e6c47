"""Recomputing the analysis (highlights, measures, flags, credit risk) of the companies an import touched.

The analysis package may be absent in a deployment that only holds register data;
then there is nothing to recompute and the call is skipped. Past `ALL_THRESHOLD`
companies the set is not kept (constant memory on a million-row import) and the
whole register is recomputed instead.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import uuid
from collections.abc import Iterable

logger = logging.getLogger(__name__)

ANALYSIS_MODULE = "service.companies.analysis"
ALL_THRESHOLD = 100_000


def analysis_available() -> bool:
    return importlib.util.find_spec(ANALYSIS_MODULE) is not None


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
        """Run analysis_refresh for these companies (or all); skipped when the analysis is not installed."""
        if not self.everything and not self.uuids:
            return
        if not analysis_available():
            logger.info("service.companies.analysis is not installed: analysis refresh skipped")
            return
        analysis_refresh = importlib.import_module(ANALYSIS_MODULE).analysis_refresh
        analysis_refresh(company_uuids=None if self.everything else sorted(self.uuids))
