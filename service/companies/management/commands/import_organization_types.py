from service.companies.importers.command import ImportCommand
from service.companies.importers.organization_types import organization_types_import


class Command(ImportCommand):
    help = "Import organisation forms from organisasjonsformer.csv (code,name)."

    def run_import(self, *, path, quiet, batch_size, **options):
        return organization_types_import(path=path, quiet=quiet, batch_size=batch_size)
