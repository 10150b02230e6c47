"""The register changed what screening compares of an entity: screen it again.

A screening compares a register person's name, birth date, nationality and gender, and a
company's own name. When an import changes those (`entity_details_changed`,
service/companies/signals.py), every active monitoring of the entity (in any config: the
§3 rule, `screened_q`) is screened again against every current list, as when it became
active, and owes that screening until it has run (`screening_owed_timestamp`: beat's resume
sends it again if a broker outage lost it). Without this the person would meet the unchanged list entries with the new details
only at the next full re-screen: a list update's delta run searches an entity in its
carried entries only where it already has a case (docs/screening.md, *Re-screening*).

Cases follow the usual rules (`hits_record`): a new hit raises a case, an existing one is
not raised twice. A case raised on the old details stays for the reviewers.
"""

from __future__ import annotations

import logging
import uuid

from service.screening.monitoring_models import EntityMonitoring
from service.screening.monitoring_selectors import screened_q
from service.screening.monitoring_services import monitorings_rescreen
from service.screening.models import ScreeningConfig

logger = logging.getLogger(__name__)

LOOKUP_BATCH = 5000  # entity uuids per query


def on_entity_details_changed(sender, *, person_uuids: list[uuid.UUID], company_uuids: list[uuid.UUID], **kwargs) -> None:
    """Receiver of `entity_details_changed` (sent after commit)."""
    monitorings = monitorings_of_entities(person_uuids=person_uuids, company_uuids=company_uuids)
    if monitorings:
        logger.info("Register details changed: screening %d active monitorings again.", len(monitorings))
        monitorings_rescreen(monitoring_uuids=monitorings)


def monitorings_of_entities(*, person_uuids: list[uuid.UUID], company_uuids: list[uuid.UUID]) -> list[uuid.UUID]:
    """The screened monitorings of these register persons and companies, in every config: one query
    per config and batch (the index on config + entity)."""
    wanted = [(EntityMonitoring.EntityKey.PERSON, person_uuids), (EntityMonitoring.EntityKey.COMPANY, company_uuids)]
    found: list[uuid.UUID] = []
    for config_uuid in ScreeningConfig.objects.values_list("uuid", flat=True):
        for entity_key, uuids in wanted:
            for start in range(0, len(uuids), LOOKUP_BATCH):
                found += EntityMonitoring.objects.filter(
                    screened_q(), screening_config_id=config_uuid, entity_key=entity_key,
                    entity_uuid__in=uuids[start : start + LOOKUP_BATCH],
                ).values_list("uuid", flat=True)
    return found
