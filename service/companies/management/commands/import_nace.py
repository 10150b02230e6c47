from service.companies.importers.command import ImportCommand
from service.companies.importers.nace import nace_import


class Command(ImportCommand):
    help = "Import SN2007 (NACE) codes from naeringskoder-sn2007.csv (path,name,description)."

    def run_import(self, *, path, quiet, batch_size, **options):
        return nace_import(path=path, quiet=quiet, batch_size=batch_size)
