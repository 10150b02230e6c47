"""Celery tasks: refresh a list from its URL, sync a config's watchlist monitorings, screen
monitored entities, re-screen a list version's delta or a full re-screen's chunks, delete
screening records past their retention period.

A list file on disk is imported by `manage.py import_screening_list`, and a full re-screen is
planned by `manage.py rescreen_all`; both enqueue the tasks below for the work that follows.
Tasks take keys and uuids, are idempotent (an unchanged file makes no new version), retry
with backoff on network or database errors, and log and return when what they name is gone.
"""

from __future__ import annotations

import logging
import tempfile
from datetime import timedelta
from pathlib import Path
from urllib.parse import urljoin

import requests
from celery import shared_task
from celery.signals import worker_init
from django.conf import settings
from django.db import OperationalError

from portal.resume import resume_cutoff, tasks_resend
from service.screening.engine import keep_out_of_garbage_collection
from service.screening.list_import import ListImportError, screening_list_import
from service.screening.matching import warm_up
from service.screening.models import ScreeningListCategory
from service.task_policy import DATABASE_WORK

logger = logging.getLogger(__name__)

DOWNLOAD_TIMEOUT_SECONDS = 120
# OFAC's sdn.csv comes with companion files that the parser reads from the same folder.
COMPANIONS = {"ofac_csv": ("alt.csv", "add.csv", "sdn_comments.csv")}
RESUME_MONITORINGS_LIMIT = 20_000  # per check: a larger backlog is taken over a few checks
# A scheduled full re-screen waits for an unfinished one this young; an older one is taken as lost.
FULL_RUN_OVERLAP = timedelta(days=1)


@worker_init.connect
def matching_warm_up(**_) -> None:
    """Before the pool forks: every worker process starts with rigour's name database and
    the compiled matching kernels loaded, instead of the first screening paying for them."""
    if not settings.VAKT_WORKER_WARM_UP:
        return
    warm_up()
    # Before the fork, also so that the children's collections do not touch (and copy) its pages.
    keep_out_of_garbage_collection()
    logger.info("Matching engine warmed up.")


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(requests.ConnectionError, requests.Timeout, requests.HTTPError),
    retry_backoff=60,
    retry_backoff_max=3600,
    max_retries=5,
)
def screening_list_refresh_task(category_key: str) -> str | None:
    category = ScreeningListCategory.objects.filter(key=category_key).first()
    if category is None or not category.refresh_url:
        logger.warning("Screening list category %s is gone or has no refresh URL.", category_key)
        return None
    with tempfile.TemporaryDirectory(prefix="vakt-list-") as folder:
        main_file = Path(folder) / (Path(category.refresh_url).name or "list")
        _download(category.refresh_url, main_file)
        for companion in COMPANIONS.get(category.source_format, ()):
            try:
                _download(urljoin(category.refresh_url, companion), Path(folder) / companion)
            except requests.HTTPError:
                logger.info("No %s beside %s; importing without it.", companion, category.refresh_url)
        try:
            result = screening_list_import(category=category, path=main_file)
        except ListImportError as exc:
            logger.error("Refresh of %s refused the downloaded file: %s", category_key, exc)
            return None
    logger.info(result.summary_line())
    return result.summary_line()


@shared_task(ignore_result=True)
def screening_lists_refresh_all() -> int:
    """Scheduled by beat: queue a refresh of every category with a URL."""
    keys = list(ScreeningListCategory.objects.exclude(refresh_url="").values_list("key", flat=True))
    for key in keys:
        screening_list_refresh_task.delay(key)
    return len(keys)


def _download(url: str, target: Path) -> None:
    with requests.get(url, stream=True, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
        response.raise_for_status()
        with open(target, "wb") as out:
            for chunk in response.iter_content(1 << 16):
                out.write(chunk)


@shared_task(**DATABASE_WORK)
def screening_config_sync_task(config_uuid: str, company_uuids: list[str], register_update: str | None = None) -> str | None:
    """Bring a config's watchlist-derived monitorings of these companies up to date
    (service.screening.subscription); idempotent, so a redelivered task changes nothing.
    `register_update`: the ISO date of the register update that asked for it, if one did."""
    from service.screening.subscription import config_companies_sync

    result = config_companies_sync(config_uuid=config_uuid, company_uuids=company_uuids, register_update=register_update)
    if result is None:
        logger.warning("Screening config %s is gone; nothing synced.", config_uuid)
        return None
    logger.info("Screening config %s: %s", config_uuid, result.summary_line())
    return result.summary_line()


@shared_task(**DATABASE_WORK)
def screening_run_task(monitoring_uuids: list[str]) -> str | None:
    """Screen these monitorings' entities and raise cases for new hits
    (service.screening.screening_run); a redelivered task makes no second case."""
    from service.screening.screening_run import monitorings_screen

    result = monitorings_screen(monitoring_uuids=monitoring_uuids)
    if result is None:
        logger.warning("Entity monitorings %s are gone; nothing screened.", ", ".join(monitoring_uuids))
        return None
    logger.info("Screening run: %s", result.summary_line())
    return result.summary_line()


# --- re-screening (service.screening.rescreen): a list version's delta, or everything, in chunks ---


@shared_task(**DATABASE_WORK)
def screening_list_version_rescreen_task(version_uuid: str) -> str | None:
    """Plan the re-screen of a new list version's added and changed entries and enqueue its
    chunks; a redelivered task enqueues only the chunks not done yet."""
    from service.screening.rescreen import list_version_rescreen_plan

    run = list_version_rescreen_plan(version_uuid=version_uuid)
    if run is None:
        logger.warning("Screening list version %s is gone; nothing re-screened.", version_uuid)
        return None
    summary = f"run {run.uuid}: {run.delta_entry_count} changed entries, {run.chunk_count} chunks"
    logger.info("List version %s re-screen: %s", version_uuid, summary)
    return summary


@shared_task(**DATABASE_WORK)
def screening_config_rescreen_task(config_uuid: str) -> str | None:
    """Re-screen one config's screened entities against every current list, in chunks (after a
    list category is selected: its entries were never searched for this config). A redelivered
    task plans a second run, which finds the same hits and makes no second case."""
    from service.screening.rescreen import full_rescreen_plan

    run = full_rescreen_plan(config_uuid=config_uuid)
    if run is None:
        logger.warning("Screening config %s is gone; nothing re-screened.", config_uuid)
        return None
    logger.info("Screening config %s re-screen: run %s, %s chunks", config_uuid, run.uuid, run.chunk_count)
    return f"run {run.uuid}: {run.chunk_count} chunks"


@shared_task(**DATABASE_WORK)
def screening_full_rescreen_scheduled() -> str | None:
    """Scheduled by beat (weekly, VAKT_FULL_RESCREEN_SECONDS): every screened entity against every
    current list, as `manage.py rescreen_all` does. It finds what a list version's delta run leaves
    out by design (docs/screening.md, "When that is not the same": details changed outside the
    register's imports, a hit a common name's shortlist left out, an engine change). Skipped while
    a full run of the last day is unfinished (its chunks are resumed as any run's are)."""
    from django.utils import timezone

    from service.screening.models import ScreeningRun
    from service.screening.rescreen import full_rescreen_plan

    recent = timezone.now() - FULL_RUN_OVERLAP
    if ScreeningRun.objects.filter(kind=ScreeningRun.Kind.FULL, finished_timestamp__isnull=True, created_timestamp__gt=recent).exists():
        logger.info("Scheduled full re-screen skipped: an earlier full run is not finished.")
        return None
    run = full_rescreen_plan()
    logger.info("Scheduled full re-screen: run %s, %s chunks", run.uuid, run.chunk_count)
    return f"run {run.uuid}: {run.chunk_count} chunks"


@shared_task(**DATABASE_WORK)
def screening_run_chunk_task(chunk_uuid: str) -> str | None:
    """Screen one chunk of a re-screening run; a redelivered chunk makes no second case."""
    from service.screening.rescreen import chunk_screen

    result = chunk_screen(chunk_uuid=chunk_uuid)
    if result is None:
        logger.warning("Screening run chunk %s is gone; nothing screened.", chunk_uuid)
        return None
    logger.info("Screening run chunk %s: %s", chunk_uuid, result.summary_line())
    return result.summary_line()


@shared_task(ignore_result=True)
def screening_run_chunks_resume() -> int:
    """Scheduled by beat: enqueue again the chunks of runs planned VAKT_RESUME_AFTER_SECONDS ago
    and not done, whose messages a broker outage may have lost; a chunk done meanwhile is skipped."""
    from service.screening.rescreen import chunks_open_uuids

    return tasks_resend(screening_run_chunk_task, chunks_open_uuids(planned_before=resume_cutoff()), "open screening run chunks")


# --- resumes: work committed while the broker was away, found from its state in the database ---


@shared_task(ignore_result=True)
def screening_monitorings_resume() -> int:
    """Scheduled by beat: enqueue again the screenings that approvals asked for
    VAKT_RESUME_AFTER_SECONDS ago and that have not run (a monitoring's `screening_owed_timestamp`),
    in batches. A monitoring screened twice makes no second case."""
    from service.screening.monitoring_selectors import monitorings_screening_owed_uuids
    from service.screening.monitoring_services import screening_batches

    uuids = monitorings_screening_owed_uuids(owed_before=resume_cutoff(), limit=RESUME_MONITORINGS_LIMIT)
    for batch in screening_batches(uuids):
        screening_run_task.delay(batch)
    if uuids:
        logger.warning("Resumed the screening of %d monitorings.", len(uuids))
    return len(uuids)


@shared_task(ignore_result=True)
def screening_list_versions_resume() -> int:
    """Scheduled by beat: plan the re-screen of current list versions imported
    VAKT_RESUME_AFTER_SECONDS ago with no run; planning is once per version."""
    from service.screening.rescreen import list_versions_unplanned_uuids

    return tasks_resend(
        screening_list_version_rescreen_task, list_versions_unplanned_uuids(imported_before=resume_cutoff()),
        "list versions' re-screens",
    )


@shared_task(ignore_result=True)
def screening_config_rescreens_resume() -> int:
    """Scheduled by beat: re-screen the configs with a category selected VAKT_RESUME_AFTER_SECONDS
    ago whose re-screen was never planned."""
    from service.screening.rescreen import configs_rescreen_owed_uuids

    return tasks_resend(
        screening_config_rescreen_task, configs_rescreen_owed_uuids(selected_before=resume_cutoff()),
        "screening configs' re-screens",
    )


@shared_task(ignore_result=True)
def screening_batches_resume() -> int:
    """Scheduled by beat: enqueue again batch jobs no worker started in VAKT_RESUME_AFTER_SECONDS;
    a job done meanwhile is skipped, a started one resumes after its last chunk."""
    from service.screening.batch_selectors import batches_pending_uuids

    return tasks_resend(screening_batch_task, batches_pending_uuids(untouched_since=resume_cutoff()), "screening batch jobs")


@shared_task(bind=True, **DATABASE_WORK)
def customer_person_import_job_task(self, job_uuid: str) -> str | None:
    """Import a customer person import job's file; a job already ended is left as it is."""
    from service.screening.person_import_job import import_job_failed_mark, import_job_process

    try:
        job = import_job_process(job_uuid=job_uuid)
    except OperationalError:
        if self.request.retries >= DATABASE_WORK["max_retries"]:  # the last try: say so on the job
            import_job_failed_mark(job_uuid=job_uuid, code="unavailable",
                                   detail="The database was unavailable; nothing was imported. Upload the file again.")
        raise
    except Exception:
        logger.exception("Customer person import %s failed.", job_uuid)
        import_job_failed_mark(job_uuid=job_uuid, code="error",
                               detail="The import stopped on an unexpected error; nothing was imported.")
        raise
    if job is None:
        logger.warning("Customer person import %s is gone; nothing imported.", job_uuid)
        return None
    summary = f"{job.status}: {job.rows_count} rows, {job.created_count} created, {job.monitored_count} monitored."
    logger.info("Customer person import %s %s", job_uuid, summary)
    return summary


@shared_task(ignore_result=True)
def customer_person_import_jobs_resume() -> int:
    """Scheduled by beat: enqueue again import jobs no worker started in VAKT_RESUME_AFTER_SECONDS."""
    from service.screening.person_import_job_selectors import import_jobs_pending_uuids

    return tasks_resend(
        customer_person_import_job_task, import_jobs_pending_uuids(untouched_since=resume_cutoff()),
        "customer person import jobs",
    )


@shared_task(ignore_result=True)
def screening_configs_resync_all() -> int:
    """Scheduled by beat (daily): every config's watchlist monitorings synced again; how many configs.
    Nothing records a sync whose message was lost (a broker outage, a signal receiver that raised),
    so this makes it up within a day; a sync that finds everything in order writes nothing."""
    from service.screening.models import ScreeningConfig
    from service.screening.subscription import config_resync_on_commit

    configs = list(ScreeningConfig.objects.select_related("suggestion_setting").order_by("uuid"))
    for config in configs:
        config_resync_on_commit(config=config)  # outside a transaction: enqueued at once
    logger.info("Watchlist monitorings of %d screening configs synced again.", len(configs))
    return len(configs)


# Tasks kept in modules of their own, imported here so that workers register them.
from service.screening.batch_tasks import screening_batch_task, screening_batches_retention  # noqa: E402,F401
from service.screening.notification_tasks import screening_digest_send_task, screening_digests_send_all  # noqa: E402,F401


@shared_task(**DATABASE_WORK)
def screening_records_retention() -> int:
    """Scheduled by beat, daily: delete the screening records past their retention period; idempotent."""
    from service.screening.records_retention import screening_records_retention_apply

    deleted = screening_records_retention_apply()
    if deleted:
        logger.info("Deleted the screening records of %d former customer(s) past the retention period.", deleted)
    return deleted
