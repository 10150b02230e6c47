"""The shape every import_* command shares: a file argument, --quiet, --batch-size, and the report.

The report is one line per rejected row, one per warning group, then the one-line
summary. A structurally bad file (ImportFileError) becomes a CommandError.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from service.companies.importers.result import ImportResult
from service.companies.importers.source import ImportFileError


class ImportCommand(BaseCommand):
    default_batch_size = 5000

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to import (gzip-compressed or not)")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument(
            "--batch-size", type=int, default=self.default_batch_size, help="rows written per transaction"
        )

    def run_import(self, *, path: str, quiet: bool, batch_size: int, **options) -> ImportResult:
        raise NotImplementedError

    def handle(self, *args, path: str, quiet: bool, batch_size: int, **options):
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        try:
            result = self.run_import(path=path, quiet=quiet, batch_size=batch_size, **options)
        except ImportFileError as exc:
            raise CommandError(str(exc)) from None
        for line in result.report_lines():
            self.stdout.write(line)
