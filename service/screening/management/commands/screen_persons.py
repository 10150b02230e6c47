"""Screen a CSV of persons and companies (service/screening/batch_file.py) against the current lists."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from service.screening.upload_csv import ScreeningFileError
from service.screening.person_file import BEST_HITS, persons_file_screen


class Command(BaseCommand):
    help = (
        "Screen persons and companies from a CSV against the current screening lists; writes the batch result CSV "
        "(in words, for a spreadsheet): a line per hit with its list, score and why, one line for a row without a "
        "hit. Rows with problems are reported by line and skipped."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "source",
            help="CSV with a header: type (person or company, default person), name, id; persons: birth_date "
            "(YYYY[-MM[-DD]]), nationality, gender; companies: country",
        )
        parser.add_argument("--out", required=True, help="where to write the result (CSV)")
        parser.add_argument("--categories", help="comma-separated list category keys (default: every current list)")
        parser.add_argument("--threshold", type=float, help="score threshold (default: the engine's)")
        parser.add_argument("--limit", type=int, default=BEST_HITS, help=f"hits per row at most (1 to {BEST_HITS})")

    def handle(self, *args, source, out, categories, threshold, limit, **options):
        source_path = Path(source)
        if not source_path.is_file():
            raise CommandError(f"No file at {source}")
        if threshold is not None and not 0 < threshold <= 1:
            raise CommandError("--threshold must be above 0 and at most 1")
        if not 1 <= limit <= BEST_HITS:
            raise CommandError(f"--limit must be between 1 and {BEST_HITS}")
        keys = [k.strip() for k in categories.split(",")] if categories else None
        try:
            result = persons_file_screen(
                source=source_path, target=Path(out), category_keys=keys, threshold=threshold, limit=limit
            )
        except ScreeningFileError as exc:
            raise CommandError(f"{source_path.name}: {exc}") from None
        for problem in result.rejected:
            self.stderr.write(f"  rejected {problem}")
        self.stdout.write(result.summary_line())
