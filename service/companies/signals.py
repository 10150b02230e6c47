"""What the register announces after an import commits, for screening to follow.

`company_persons_changed`: the register changed who stands behind companies (their roles or
their ownership).

Keyword arguments (sender is the Company model):

- `company_uuids`: list[UUID] of the companies whose persons may have changed, or None when
  an import changed too many to list (then treat every company as changed);
- `register_update`: the date of the change (the day of the import), for reasons shown to
  officers ("... after the register update of 2026-11-26").

Ownership is computed through chains (service.companies.ownership), so the list holds the
companies whose roles were written *and* every company downstream of them: the companies
they own, directly or through other companies, by current shareholder roles (at most
MAX_DEPTH levels). A change of Holding AS's owners changes the beneficial owners of the
companies Holding AS owns.

Each write path announces once, after its last commit, through `company_persons_changed_announce`:
the group ownership import and the JSON-lines import (role records) once per import with
the set of companies, never per row. Screening listens (service.screening.subscription).

`entity_details_changed`: the register changed what screening compares of persons or
companies that stay where they are: a person's name, birth date, nationality or gender
(the JSON-lines import's role records, the person found by national id) or a company's
name (`import_enheter`). Keyword arguments `person_uuids` and `company_uuids` (lists of
UUID). Sent once per import after its last commit, through `entity_details_changed_announce`;
screening re-screens the active monitorings of those entities
(service.screening.details_changed).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import date

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from service.companies.importers.analysis_hook import AffectedCompanies
from service.companies.models import Company, CompanyRole
from service.companies.ownership import MAX_DEPTH, SHAREHOLDER
from service.signals import committed_change_send

company_persons_changed = Signal()
entity_details_changed = Signal()

_LEVEL_BATCH = 2000


def companies_downstream(*, company_uuids: Iterable[uuid.UUID], as_of: date | None = None) -> set[uuid.UUID]:
    """These companies and every company they own now, directly or through companies
    (current shareholder roles with a share), at most MAX_DEPTH levels down: one query per
    level per 2,000 companies."""
    as_of = as_of or timezone.localdate()
    found = set(company_uuids)
    frontier = list(found)
    for _level in range(MAX_DEPTH):
        discovered: set[uuid.UUID] = set()
        for start in range(0, len(frontier), _LEVEL_BATCH):
            owned = CompanyRole.objects.filter(
                CompanyRole.current_q(as_of),
                company_role_type__key=SHAREHOLDER,
                share_percentage__gt=0,
                holder_company_id__in=frontier[start : start + _LEVEL_BATCH],
            ).values_list("company_id", flat=True)
            discovered.update(c for c in owned if c not in found)
        if not discovered:
            break
        found |= discovered
        frontier = list(discovered)
    return found


def company_persons_changed_announce(
    *, changed: AffectedCompanies | Iterable[uuid.UUID], day: date | None = None
) -> None:
    """Send `company_persons_changed` once the current transaction commits (at once outside
    one); nothing when nothing changed. `day` is the day of the change (default today)."""
    if isinstance(changed, AffectedCompanies):
        everything, uuids = changed.everything, set(changed.uuids)
    else:
        everything, uuids = False, set(changed)
    if not everything and not uuids:
        return
    today = day or timezone.localdate()

    def send() -> None:
        company_uuids = None if everything else sorted(companies_downstream(company_uuids=uuids, as_of=today), key=str)
        about = f"register update {today}: {'all' if company_uuids is None else len(company_uuids)} companies"
        committed_change_send(
            company_persons_changed, sender=Company, about=about, company_uuids=company_uuids, register_update=today
        )

    transaction.on_commit(send, robust=True)


def entity_details_changed_announce(*, person_uuids: Iterable[uuid.UUID] = (), company_uuids: Iterable[uuid.UUID] = ()) -> None:
    """Send `entity_details_changed` once the current transaction commits (at once outside one);
    nothing when nothing changed."""
    persons, companies = sorted(set(person_uuids), key=str), sorted(set(company_uuids), key=str)
    if not persons and not companies:
        return
    about = f"details of {len(persons)} persons and {len(companies)} companies changed"
    transaction.on_commit(
        lambda: committed_change_send(
            entity_details_changed, sender=Company, about=about, person_uuids=persons, company_uuids=companies
        ),
        robust=True,
    )
