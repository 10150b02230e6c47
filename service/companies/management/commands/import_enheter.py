from service.companies.importers.command import ImportCommand
from service.companies.importers.enheter import FORMATS, enheter_import


class Command(ImportCommand):
    help = (
        "Import companies from an Enhetsregisteret bulk file (CSV or JSON, gzipped or not) in one transaction: "
        "upsert on organisation number, with employment and risk status history."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--format", dest="file_format", choices=FORMATS, default="auto", help="default: by content")
        parser.add_argument(
            "--no-analysis", action="store_true", help="do not queue the analysis refresh of the imported companies"
        )

    def run_import(self, *, path, quiet, batch_size, file_format, no_analysis, **options):
        return enheter_import(
            path=path, file_format=file_format, quiet=quiet, batch_size=batch_size, refresh_analysis=not no_analysis
        )
