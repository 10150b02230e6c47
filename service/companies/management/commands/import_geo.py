from service.companies.importers.command import ImportCommand
from service.companies.importers.geo import geo_import


class Command(ImportCommand):
    help = "Import Norwegian counties and municipalities from fylker-2024.csv (path,name)."

    def run_import(self, *, path, quiet, batch_size, **options):
        return geo_import(path=path, quiet=quiet, batch_size=batch_size)
