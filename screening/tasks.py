"""Keeping the dashboard's screening lists fresh, in a Celery worker.

Beat runs `screening_state_refresh_all` every VAKT_SCREENING_REFRESH_SECONDS; it enqueues one
`screening_state_refresh` per organisation whose API user holds `aml`, which reads the case
counts and related-company states through the service layer into the cache
(screening.freshness). Ids in; idempotent (a refresh overwrites the last one); acks_late;
transient errors (service unreachable or busy, database locked) retried with backoff; a
refusal (credentials, role) is logged, not retried: the next beat tries again.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from portal.models import Organisation
from portal.service import ServiceError, ServiceRateLimited, ServiceUnavailable
from screening import freshness

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def screening_state_refresh_all() -> int:
    """One refresh per organisation that may screen; answers how many were enqueued."""
    organisation_uuids = [
        str(o.uuid) for o in Organisation.objects.order_by("name") if freshness.SCREENING_ROLE in o.role_keys
    ]
    for organisation_uuid in organisation_uuids:
        # A refresh still queued when the next beat comes is worth nothing: let it expire.
        screening_state_refresh.apply_async((organisation_uuid,), expires=settings.VAKT_SCREENING_REFRESH_SECONDS)
    return len(organisation_uuids)


@shared_task(
    acks_late=True,
    ignore_result=True,
    autoretry_for=(ServiceUnavailable, ServiceRateLimited, OperationalError),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=False,
    max_retries=5,
)
def screening_state_refresh(organisation_uuid: str) -> str | None:
    organisation = Organisation.objects.filter(uuid=organisation_uuid).first()
    if organisation is None:
        logger.info("Organisation %s is gone; no screening state to refresh.", organisation_uuid)
        return None
    try:
        counts, related = freshness.refresh_all(organisation=organisation)
    except (ServiceUnavailable, ServiceRateLimited):
        raise  # retried with backoff
    except ServiceError as exc:
        logger.warning(
            "Screening state of %s (%s) not refreshed: the service answered %s %s.",
            organisation.name, organisation_uuid, exc.status, exc.code,
        )
        return None
    open_cases = counts.counts.open if counts.counts else 0
    logger.info(
        "Screening state of %s refreshed: %d open cases, %d related companies.",
        organisation.name, open_cases, len(related.companies),
    )
    return "refreshed"
