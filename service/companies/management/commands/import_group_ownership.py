from service.companies.importers.command import ImportCommand
from service.companies.importers.group_ownership import group_ownership_import


class Command(ImportCommand):
    help = (
        "Import corporate group ownership from konsern-roller.csv (HFOR rows become shareholder roles held by "
        "the parent company). Import the group's units with import_enheter first."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--no-analysis", action="store_true", help="do not queue the analysis refresh for the workers")

    def run_import(self, *, path, quiet, batch_size, no_analysis, **options):
        return group_ownership_import(path=path, quiet=quiet, batch_size=batch_size, refresh_analysis=not no_analysis)
