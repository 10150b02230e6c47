"""Re-screen every screened entity of every config against every current list (in chunks, by the workers)."""

import time

from django.core.management.base import BaseCommand, CommandError

from service.screening.models import ScreeningRun
from service.screening.rescreen import CHUNK_SIZE, full_rescreen_plan


class Command(BaseCommand):
    help = (
        "Plan a full re-screen (every screened entity of every config, every current list), e.g. after an "
        "engine change; its chunks go to the Celery workers. --wait follows it until the last chunk is done."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chunk-size", type=int, default=CHUNK_SIZE, help=f"monitorings per task (default {CHUNK_SIZE})")
        parser.add_argument("--wait", action="store_true", help="wait until every chunk is done, printing progress")

    def handle(self, *args, chunk_size, wait, **options):
        if chunk_size < 1:
            raise CommandError("--chunk-size must be at least 1")
        run = full_rescreen_plan(chunk_size=chunk_size)
        self.stdout.write(f"Run {run.uuid}: {run.chunk_count} chunk(s) queued.")
        if not wait:
            return
        while True:
            run = ScreeningRun.objects.get(pk=run.pk)
            done = run.chunks.exclude(done_timestamp=None).count()
            if run.finished_timestamp:
                break
            self.stdout.write(f"  {done}/{run.chunk_count} chunk(s) done")
            time.sleep(2)
        totals = {field: sum(run.chunks.values_list(field, flat=True)) for field in ("screened", "hits", "cases_created", "cases_updated")}
        self.stdout.write(
            f"Done: screened {totals['screened']}, hits {totals['hits']}, new cases {totals['cases_created']}, "
            f"cases moved to a changed entry {totals['cases_updated']}."
        )
