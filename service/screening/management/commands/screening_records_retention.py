"""Delete the screening records past their retention period now, or (--dry-run) say what would go."""

from collections import Counter

from django.core.management.base import BaseCommand
from django.utils import timezone

from service.screening.models import EntityInquiry, ScreeningCase, ScreeningConfig
from service.screening.records_retention import expired_entities, retention_cutoffs, screening_records_delete_all
from vakt_format.norwegian import day


KINDS = {"customer_person": "customer persons", "person": "persons", "company": "companies"}


class Command(BaseCommand):
    help = (
        "Delete the screening records of every person and company whose relationship ended longer ago than "
        "its screening setup's retention period, as beat's daily task does. Both say, per period in use, the "
        "day a relationship must have ended before and how many are past it; --dry-run deletes nothing and says, "
        "per setup under its period, what would go: run it before the first deletion on data that has years behind it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="delete nothing; count what would be deleted")

    def handle(self, *args, dry_run, **options):
        now = timezone.now()
        periods = retention_cutoffs(now)
        if not periods:
            self.stdout.write("No screening setup deletes records by age (there is none, or its period is 0): nothing to do.")
            return
        expired = expired_entities(now=now)
        self.stdout.write(f"Relationships that ended longer ago than their setup's retention period: {len(expired)}.")
        if held := len(expired_entities(now=now, held=True)):
            self.stdout.write(f"Kept past the period by a legal hold, and not counted here: {held}.")
        by_config: dict = {}
        for entity in expired:
            by_config.setdefault(entity.config_id, []).append(entity)
        for period in periods:
            count = sum(len(by_config.get(config, ())) for config in period.configs)
            setups = f"{len(period.configs)} setup{'s' if len(period.configs) != 1 else ''}"
            self.stdout.write(f"  {period.years} years (ended before {day(period.cutoff)}), {setups}: {count}.")
            if dry_run:
                self._setups_write(period, by_config)
        if not dry_run:
            deleted = screening_records_delete_all(expired=expired)
            left = f" {len(expired) - deleted} not: monitored again meanwhile, or refused (logged)." if deleted < len(expired) else ""
            self.stdout.write(f"Deleted the screening records of {deleted}.{left}")
            return
        self.stdout.write("Nothing deleted (--dry-run).")

    def _setups_write(self, period, by_config: dict) -> None:
        """Under a period's line, a line per setup that keeps records that long: its organisation,
        what it would lose, whether the period is its own or the deployment's."""
        setups = ScreeningConfig.objects.filter(pk__in=period.configs).values_list(
            "pk", "app_customer_id", "app_customer__name", "records_retention_years")
        for config, organisation, name, own in sorted(setups, key=lambda row: (row[2], str(row[1]), str(row[0]))):
            entities = by_config.get(config, [])
            if entities:
                kinds = Counter(KINDS[e.entity_key] for e in entities)
                cases = ScreeningCase.objects.filter(entity_inquiry__in=_inquiries(entities))
                open_cases = cases.exclude(case_status_key=ScreeningCase.Status.COMPLETE).count()
                lost = (", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
                        + f"; cases {cases.count()}, of them open {open_cases}")
            else:
                lost = "nothing past the period"
            whose = "its own period" if own is not None else "the deployment's period"
            self.stdout.write(f"    {name} ({organisation}), kept {period.years} years: {lost} (setup {config}, {whose})")


def _inquiries(entities) -> list:
    keys = {(e.config_id, e.entity_key, e.entity_uuid) for e in entities}
    rows = EntityInquiry.objects.filter(inquiry_entity_uuid__in={e.entity_uuid for e in entities}).values_list(
        "pk", "screening_config_id", "inquiry_entity_key", "inquiry_entity_uuid"
    )
    return [pk for pk, config, key, entity in rows if (config, key, entity) in keys]
