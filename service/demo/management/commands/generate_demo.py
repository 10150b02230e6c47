"""generate_demo: demo companies into the database, or an Enhetsregisteret-format CSV."""

from django.core.management.base import BaseCommand, CommandError

from service.demo.companies.enheter_csv import enheter_csv_write
from service.demo.companies.generate import BATCH_SIZE, demo_generate


class Command(BaseCommand):
    help = (
        "Generate realistic, deterministic demo companies (accounts, roles, ownership chains, payment remarks, "
        "statuses, employment), or with --enheter-csv an Enhetsregisteret-format CSV for import_enheter."
    )

    def add_arguments(self, parser):
        parser.add_argument("--companies", type=int, default=1000, help="how many companies (default 1000)")
        parser.add_argument("--seed", type=int, default=1, help="the same seed gives the same data (default 1)")
        parser.add_argument("--enheter-csv", metavar="PATH", help="write an Enhetsregisteret CSV here (.gz: gzipped) instead")
        parser.add_argument("--batch-size", type=int, default=BATCH_SIZE, help="companies per transaction")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument("--no-analysis", action="store_true", help="do not queue the analysis refresh for the workers")
        parser.add_argument(
            "--no-register", action="store_true",
            help="leave the real register's companies alone (by default those that have filed get accounts)",
        )

    def handle(self, *args, companies, seed, enheter_csv, batch_size, quiet, no_analysis, no_register, **options):
        if companies < 1 or batch_size < 1:
            raise CommandError("--companies and --batch-size must be at least 1")
        if enheter_csv:
            written = enheter_csv_write(path=enheter_csv, companies=companies, seed=seed, quiet=quiet)
            self.stdout.write(f"generate_demo: wrote {written} Enhetsregisteret rows to {enheter_csv}")
            return
        summary = demo_generate(
            companies=companies, seed=seed, batch_size=batch_size, quiet=quiet, refresh_analysis=not no_analysis,
            register=not no_register,
        )
        for source in summary.references:
            self.stdout.write(f"reference data imported from {source}")
        self.stdout.write(summary.line())
