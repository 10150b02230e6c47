from service.companies.importers.command import ImportCommand
from service.companies.importers.jsonl import jsonl_import


class Command(ImportCommand):
    help = (
        "Import Vakt JSON lines (accounts, role, payment_remark, collection_case, employment; "
        "one record per line, see docs/importers.md)."
    )
    default_batch_size = 1000

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--no-analysis", action="store_true", help="do not queue the analysis refresh for the workers")

    def run_import(self, *, path, quiet, batch_size, no_analysis, **options):
        return jsonl_import(path=path, quiet=quiet, batch_size=batch_size, refresh_analysis=not no_analysis)
