"""A config follows its watchlists: who is monitored for each watchlisted company.

For every company on a watchlist attached to a config the desired monitorings are:

- the company itself (type `company`), screened by its own name;
- the persons `persons_to_screen(company, setting)` names under the config's suggestion
  setting (beneficial owners, or the board standing in; the extended setting adds board,
  signatories and procuration), each with the ownership chain as its comment.

`config_companies_sync` makes the config's *watchlist-derived* monitorings (origin
`suggestion` or `auto_approve`) match that: it creates the missing ones (active with an
`auto_approve` decision when the config's `auto_approve_monitoring_flag` is on, otherwise
pending suggestions), removes those no longer wanted with a reason, and keeps the
comment current. Monitorings that a caller created itself (origin `api`/`user`) are never
touched. It is idempotent: a second run with nothing changed writes nothing. Runs in the
Celery task `screening_config_sync_task`, enqueued on commit by the watchlist signal,
by attaching/detaching a watchlist, by a config change of setting or auto-approve, and by
the register's `company_persons_changed` (an import changed roles or ownership: the
companies on an attached watchlist are re-evaluated, and a person who no longer qualifies
is removed with a reason naming the register update).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction

from service.companies.models import Company, Person
from service.companies.ownership import BENEFICIAL_OWNERS_SETTING, persons_to_screen
from service.screening import monitoring_services as services
from service.screening.models import (
    EntityMonitoring,
    EntityMonitoringDecision,
    EntityMonitoringType,
    ScreeningConfig,
    ScreeningConfigWatchlist,
)
from service.watchlists.models import WatchlistCompany

logger = logging.getLogger(__name__)

DERIVED_ORIGINS = (EntityMonitoring.Origin.SUGGESTION, EntityMonitoring.Origin.AUTO_APPROVE)
SYNC_BATCH = 200  # companies per task
AUTO_APPROVE_COMMENT = "Approved automatically: the screening config's auto_approve_monitoring_flag is on."


@dataclass
class SyncResult:
    created: int = 0
    auto_approved: int = 0
    removed: int = 0
    updated: int = 0
    companies: int = 0

    def summary_line(self) -> str:
        return (
            f"{self.companies} companies: {self.created} monitorings created, {self.auto_approved} auto-approved, "
            f"{self.removed} removed, {self.updated} updated"
        )


@dataclass(frozen=True)
class Wanted:
    entity: Person | Company
    type_key: str
    comment: str


def watched_companies(*, config: ScreeningConfig, company_uuids: Iterable[uuid.UUID] | None = None) -> dict[uuid.UUID, list[str]]:
    """Company uuid -> names of the config's attached watchlists that hold it."""
    rows = WatchlistCompany.objects.filter(watchlist__screening_config_links__screening_config=config)
    if company_uuids is not None:
        rows = rows.filter(company_id__in=list(company_uuids))
    found: dict[uuid.UUID, list[str]] = {}
    for company_uuid, name in rows.values_list("company_id", "watchlist__watchlist_name").order_by("watchlist__watchlist_name"):
        found.setdefault(company_uuid, []).append(name)
    return found


def config_companies_sync(
    *, config_uuid: uuid.UUID, company_uuids: Iterable[uuid.UUID], register_update: str | None = None
) -> SyncResult | None:
    """Bring the config's watchlist-derived monitorings of these companies up to date.
    `register_update` (ISO date) says the run follows a register update of that day, so a
    person no longer suggested is removed with a reason naming it. None when the config is gone."""
    company_uuids = list(dict.fromkeys(uuid.UUID(str(c)) for c in company_uuids))
    result = SyncResult(companies=len(company_uuids))
    with transaction.atomic():
        # One sync per config at a time: the lock orders concurrent runs, the partial
        # UNIQUE constraint is the last word on duplicates. The config row alone is locked and
        # its setting read after the lock: joined, a sync that waited for a change of setting
        # would find no config and sync nothing.
        config = ScreeningConfig.objects.select_for_update().filter(uuid=config_uuid).first()
        if config is None:
            return None
        watched = watched_companies(config=config, company_uuids=company_uuids)
        types = {t.key: t for t in EntityMonitoringType.objects.all()}
        companies = Company.objects.in_bulk(list(watched))
        current = _current_monitorings(config, company_uuids)
        plan = _Plan()
        for company_uuid in company_uuids:
            company = companies.get(company_uuid)
            wanted = _wanted(config, company, watched.get(company_uuid, [])) if company else {}
            _diff(config, company, wanted, current.get(company_uuid, []), types, plan, register_update)
        _carry_out(config, plan, types, result)
    return result


@dataclass
class _Plan:
    create: list[EntityMonitoring] = field(default_factory=list)
    remove: dict[str, list[EntityMonitoring]] = field(default_factory=dict)  # reason -> monitorings
    update: list[tuple[EntityMonitoring, Wanted]] = field(default_factory=list)
    approve: list[EntityMonitoring] = field(default_factory=list)


def _current_monitorings(config: ScreeningConfig, company_uuids: list[uuid.UUID]) -> dict[uuid.UUID, list[EntityMonitoring]]:
    """Every monitoring not removed of the config for these companies, in one query."""
    rows = (
        EntityMonitoring.objects.filter(screening_config=config, related_company_id__in=company_uuids, removed_flag=False)
        .select_related("latest_decision", "entity_monitoring_type")
        .order_by("create_timestamp")
    )
    found: dict[uuid.UUID, list[EntityMonitoring]] = {}
    for monitoring in rows:
        found.setdefault(monitoring.related_company_id, []).append(monitoring)
    return found


def _wanted(config: ScreeningConfig, company: Company, watchlist_names: list[str]) -> dict[tuple[str, uuid.UUID], Wanted]:
    if not watchlist_names:
        return {}
    lists = ", ".join(watchlist_names)
    wanted = {
        ("company", company.uuid): Wanted(
            company, "company", f"{company.name} is on the watchlist {lists}; the company's own name is screened."
        )
    }
    for candidate in persons_to_screen(company_uuid=company.uuid, setting_key=config.suggestion_setting.key):
        # The person was just read by persons_to_screen; a reference is all a foreign key needs.
        person = Person(uuid=candidate.person_uuid, full_name=candidate.full_name)
        wanted[("person", person.uuid)] = Wanted(person, candidate.entity_monitoring_type_key, candidate.reason)
    return wanted


def _diff(
    config, company: Company | None, wanted: dict, current: list[EntityMonitoring], types: dict, plan: _Plan,
    register_update: str | None = None,
) -> None:
    taken = set()
    for monitoring in current:
        key = (monitoring.entity_key, monitoring.entity_uuid)
        taken.add(key)
        if monitoring.monitoring_origin_key not in DERIVED_ORIGINS:
            continue  # a caller's own monitoring: never touched, and no second one beside it
        want = wanted.get(key)
        if want is None:
            reason = _removal_reason(config, company, monitoring, wanted, register_update)
            plan.remove.setdefault(reason, []).append(monitoring)
            continue
        if monitoring.monitoring_comment != want.comment or monitoring.entity_monitoring_type.key != want.type_key:
            plan.update.append((monitoring, want))
        if config.auto_approve_monitoring_flag and monitoring.latest_decision is None:
            plan.approve.append(monitoring)
    auto = config.auto_approve_monitoring_flag
    for key, want in wanted.items():
        if key not in taken:
            plan.create.append(
                services.monitoring_row(
                    config=config,
                    entity=want.entity,
                    related_company=company,
                    monitoring_type=types[want.type_key],
                    origin_key=EntityMonitoring.Origin.AUTO_APPROVE if auto else EntityMonitoring.Origin.SUGGESTION,
                    comment=want.comment,
                )
            )


def _carry_out(config: ScreeningConfig, plan: _Plan, types: dict, result: SyncResult) -> None:
    for reason, monitorings in plan.remove.items():
        result.removed += services.monitorings_remove_many(monitorings=monitorings, reason=reason)
    for monitoring, want in plan.update:
        EntityMonitoring.objects.filter(pk=monitoring.pk).update(
            monitoring_comment=want.comment, entity_monitoring_type=types[want.type_key]
        )
        result.updated += 1
    for monitoring in plan.approve:
        services.decision_record(monitoring=monitoring, spec=_auto_decision())
        result.auto_approved += 1
    auto = config.auto_approve_monitoring_flag
    created = services.monitorings_insert_many(monitorings=plan.create, decision=_auto_decision() if auto else None)
    result.created += len(created)
    result.auto_approved += len(created) if auto else 0


def _auto_decision() -> services.DecisionSpec:
    return services.DecisionSpec(
        approved_flag=True, origin_key=EntityMonitoringDecision.Origin.AUTO_APPROVE, comment=AUTO_APPROVE_COMMENT
    )


def _removal_reason(
    config: ScreeningConfig, company: Company | None, monitoring: EntityMonitoring, wanted: dict, register_update: str | None
) -> str:
    if not wanted:
        return "The company is no longer on a watchlist attached to this screening config."
    if register_update is None:
        return (
            "No longer suggested for the company under the setting "
            f"{config.suggestion_setting.key} (ownership, roles or the setting changed)."
        )
    after = f"after the register update of {register_update}"
    if monitoring.entity_monitoring_type.key == "beneficial_owners":
        return (
            f"No longer a beneficial owner of {company.name} {after}: no ownership chain from the person "
            "has 25% or more at every link."
        )
    basic = config.suggestion_setting.key == BENEFICIAL_OWNERS_SETTING
    if basic and any(w.type_key == "beneficial_owners" for w in wanted.values()):
        return (
            f"No longer standing in for the beneficial owners of {company.name} {after}: the company now has "
            "beneficial owners, so the board and the CEO are no longer screened for it."
        )
    roles = "chair of the board, board member or CEO" if basic else "on the board, CEO, signatory or holder of procuration"
    return f"No longer {roles} of {company.name} {after}."


# --- enqueueing -----------------------------------------------------------------------------


def companies_sync_on_commit(
    *, config_uuid: uuid.UUID, company_uuids: Iterable[uuid.UUID], register_update: str | None = None
) -> None:
    """Enqueue the sync after the current transaction commits, in batches."""
    from service.screening.tasks import screening_config_sync_task

    ids = [str(c) for c in dict.fromkeys(company_uuids)]
    extra = {"register_update": register_update} if register_update else {}
    for start in range(0, len(ids), SYNC_BATCH):
        batch = ids[start : start + SYNC_BATCH]
        # robust: a broker that is away does not fail the request; a lost sync is made up by
        # beat's daily screening_configs_resync_all (docs/production.md).
        transaction.on_commit(
            lambda batch=batch: screening_config_sync_task.delay(str(config_uuid), batch, **extra), robust=True
        )


def config_resync_on_commit(*, config: ScreeningConfig) -> None:
    """Every company the config watches or still has suggestions for: after a change of its
    suggestion setting or auto-approve flag."""
    derived = EntityMonitoring.objects.filter(
        screening_config=config, removed_flag=False, monitoring_origin_key__in=DERIVED_ORIGINS
    ).values_list("related_company_id", flat=True)
    companies = set(watched_companies(config=config)) | {c for c in derived if c}
    companies_sync_on_commit(config_uuid=config.uuid, company_uuids=sorted(companies, key=str))


def on_watchlist_companies_changed(
    sender, *, watchlist_uuid, app_customer_uuid, added_company_uuids, removed_company_uuids, **kwargs
) -> None:
    """Receiver of `watchlist_companies_changed` (sent after commit). Added companies concern
    the configs the watchlist is attached to; removed ones every config of the organisation,
    since a deleted watchlist's links are gone by now. Each config syncs its companies of
    the change together (a replace adds and removes at once)."""
    linked: set[uuid.UUID] = set()
    if added_company_uuids:
        linked = set(ScreeningConfigWatchlist.objects.filter(watchlist_id=watchlist_uuid).values_list("screening_config_id", flat=True))
    configs = linked
    if removed_company_uuids:
        configs = set(ScreeningConfig.objects.filter(app_customer_id=app_customer_uuid).values_list("uuid", flat=True))
    for config_uuid in sorted(configs, key=str):
        added = added_company_uuids if config_uuid in linked else []
        companies_sync_on_commit(config_uuid=config_uuid, company_uuids=[*added, *removed_company_uuids])


WATCHED_LOOKUP_BATCH = 5000  # companies per query when an import announces many


def on_company_persons_changed(sender, *, company_uuids, register_update, **kwargs) -> None:
    """Receiver of `company_persons_changed` (sent after commit): every config that has one
    of these companies on an attached watchlist re-evaluates it. A company on no attached
    watchlist costs one lookup and nothing more. `company_uuids` None: every watched company."""
    configs_of: dict[uuid.UUID, list[uuid.UUID]] = {}  # attached watchlist -> its configs
    for watchlist_uuid, config_uuid in ScreeningConfigWatchlist.objects.values_list("watchlist_id", "screening_config_id"):
        configs_of.setdefault(watchlist_uuid, []).append(config_uuid)
    if not configs_of:
        return
    on_watchlists = WatchlistCompany.objects.filter(watchlist_id__in=list(configs_of)).values_list("watchlist_id", "company_id")
    chunks = [None] if company_uuids is None else [
        company_uuids[start : start + WATCHED_LOOKUP_BATCH] for start in range(0, len(company_uuids), WATCHED_LOOKUP_BATCH)
    ]
    by_config: dict[uuid.UUID, set[uuid.UUID]] = {}
    for chunk in chunks:
        rows = on_watchlists if chunk is None else on_watchlists.filter(company_id__in=chunk)
        for watchlist_uuid, company_uuid in rows:
            for config_uuid in configs_of[watchlist_uuid]:
                by_config.setdefault(config_uuid, set()).add(company_uuid)
    when = register_update.isoformat() if hasattr(register_update, "isoformat") else register_update
    for config_uuid, companies in by_config.items():
        logger.info("Register update %s: re-evaluating %d watched companies of screening config %s.", when, len(companies), config_uuid)
        companies_sync_on_commit(config_uuid=config_uuid, company_uuids=sorted(companies, key=str), register_update=when)
