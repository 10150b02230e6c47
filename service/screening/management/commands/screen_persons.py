"""Screen a CSV of persons (name, birth_date, nationality[, gender, id]) against the current lists."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from service.screening.person_file import persons_file_screen


class Command(BaseCommand):
    help = "Screen persons from a CSV against the current screening lists; writes matches with scores and explanations."

    def add_arguments(self, parser):
        parser.add_argument("source", help="CSV with a header: name, birth_date (YYYY[-MM[-DD]]), nationality, gender, id")
        parser.add_argument("--out", required=True, help="where to write the matches (CSV)")
        parser.add_argument("--categories", help="comma-separated list category keys (default: every current list)")
        parser.add_argument("--threshold", type=float, help="score threshold (default: the engine's)")
        parser.add_argument("--limit", type=int, default=5, help="matches per person at most")

    def handle(self, *args, source, out, categories, threshold, limit, **options):
        source_path = Path(source)
        if not source_path.is_file():
            raise CommandError(f"No file at {source}")
        if threshold is not None and not 0 < threshold <= 1:
            raise CommandError("--threshold must be above 0 and at most 1")
        keys = [k.strip() for k in categories.split(",")] if categories else None
        try:
            result = persons_file_screen(
                source=source_path, target=Path(out), category_keys=keys, threshold=threshold, limit=limit
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        for line, reason in result.rejected:
            self.stderr.write(f"  rejected line {line}: {reason}")
        self.stdout.write(result.summary_line())
