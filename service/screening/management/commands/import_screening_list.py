"""Import a sanction or PEP list file as a new version of its category."""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from service.screening.catalog import DEFAULT_CATEGORY_FOR_FORMAT
from service.screening.list_import import ListImportError, screening_list_import
from service.screening.lists.formats.entry import ParseError
from service.screening.lists.formats.registry import FORMATS, detect_format
from service.screening.models import ScreeningListCategory


class Command(BaseCommand):
    help = (
        "Import a list file (UN XML, OFAC SDN CSV with alt/add beside it, EU CSV, OpenSanctions FtM JSON, "
        "Senzing JSON) as a new version of a screening list category. Nothing of a bad file replaces the current list."
    )

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--format", choices=sorted(FORMATS), help="detected from the content when not given")
        parser.add_argument("--category", help="category key; by default the format's usual list")
        parser.add_argument("--create", choices=["pep", "sanction"], help="create --category with this list type")
        parser.add_argument("--name", help="name of a category created with --create")
        parser.add_argument("--force", action="store_true", help="import even when the file is unchanged")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args, path, format, category, create, name, force, quiet, **options):
        try:
            format = format or detect_format(path)
        except (ParseError, OSError) as exc:
            raise CommandError(f"Cannot tell the format of {path}: {exc}") from None
        key = category or DEFAULT_CATEGORY_FOR_FORMAT.get(format)
        if not key:
            raise CommandError(f"Name a --category for a {format} file.")
        target = ScreeningListCategory.objects.filter(key=key).first()
        if target is None and create:
            target = ScreeningListCategory.objects.create(
                key=key, name=name or key, list_type=create, source_format=format
            )
        if target is None:
            known = ", ".join(ScreeningListCategory.objects.values_list("key", flat=True))
            raise CommandError(f"Unknown category {key!r} (known: {known}); add --create pep|sanction to make it.")

        bar = tqdm(desc=f"{key}", unit=" entries", disable=quiet or None, file=self.stderr._out)
        try:
            result = screening_list_import(category=target, path=path, format=format, force=force, progress=bar.update)
        except ListImportError as exc:
            raise CommandError(str(exc)) from None
        finally:
            bar.close()
        for problem in result.rejected[:50]:
            self.stderr.write(f"  rejected {problem['location']}: {problem['reason']}")
        if len(result.rejected) > 50:
            self.stderr.write(f"  ... and {len(result.rejected) - 50} more rejected (see the version's report)")
        self.stdout.write(result.summary_line())
