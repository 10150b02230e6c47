"""load_screening_demo: the demo organisation's screening config, watchlist, monitorings and cases."""

import logging

from celery import current_app
from django.core.management.base import BaseCommand

from service.screening.demo import screening_demo_load


class Command(BaseCommand):
    help = (
        "Give the demo organisation a screening config (UN and OFAC selected, PEP always screened) with an attached "
        "watchlist of demo companies whose owners or board members are listed persons (spelt as a register would) "
        "and one whose own name is on the OFAC list; approves about half the monitorings and screens them at once. "
        "Idempotent; skipped when the UN, OFAC and PEP lists are not imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("--organisation", default="Demo Bank ASA", help="organisation name (created when missing)")
        parser.add_argument("--quiet", action="store_true", help="no progress lines")

    def handle(self, *args, organisation, quiet, **options):
        # The work the demo starts in the background (the watchlist sync, screening runs) is done
        # here, in this process, so the cases exist when the server starts; nothing is queued.
        current_app.conf.task_always_eager = True
        # A line per task (and kombu's note on the eager producer's hostless broker): the summary says it all.
        quieter = {"celery.app.trace": logging.WARNING, "service.screening.tasks": logging.WARNING, "kombu.connection": logging.ERROR}
        for name, level in quieter.items():
            logging.getLogger(name).setLevel(level)
        progress = (lambda _: None) if quiet else (lambda step: self.stderr.write(f"  {step} ..."))
        result = screening_demo_load(organisation=organisation, progress=progress)
        self.stdout.write(result.summary_line())
