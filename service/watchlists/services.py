"""Writes to watchlists. Every change of a watchlist's companies sends
`watchlist_companies_changed` after commit, naming exactly the companies that changed.

Adding is an upsert against the UNIQUE(watchlist, company) constraint: INSERT ... ON
CONFLICT DO NOTHING RETURNING company_id, so two requests adding overlapping lists at
once both succeed, each company lands once, and each request counts (and reports to
screening) only the rows it really inserted. Removing (all, or those a replace drops)
uses DELETE ... RETURNING for the same reason. Both statements are the same on
PostgreSQL and SQLite (3.35+).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from service.audit.services import Actor, audit_record
from service.errors import NotFound, RoleMissing
from service.watchlists import selectors
from service.watchlists.models import Watchlist, WatchlistCompany
from service.signals import committed_change_send
from service.watchlists.signals import watchlist_companies_changed

_INSERT_BATCH = 1_000  # rows per INSERT: 4,000 parameters


@dataclass(frozen=True)
class AddResult:
    added_count: int
    ignored_count: int
    company_count: int


@dataclass(frozen=True)
class ReplaceResult:
    added_count: int
    removed_count: int
    kept_count: int  # named in the body and already on the watchlist
    company_count: int


def _audit(watchlist: Watchlist, actor: Actor | None, action: str, before: dict | None, after: dict | None) -> None:
    audit_record(
        app_customer_uuid=watchlist.app_customer_id,
        actor=actor,
        action=action,
        object_type="watchlist",
        object_uuid=watchlist.uuid,
        object_label=watchlist.watchlist_name,
        before=before,
        after=after,
    )


def watchlist_create(*, app_customer_uuid: uuid.UUID, watchlist_name: str, actor: Actor | None = None) -> Watchlist:
    with transaction.atomic():
        watchlist = Watchlist.objects.create(app_customer_id=app_customer_uuid, watchlist_name=watchlist_name)
        _audit(watchlist, actor, "watchlist.create", None, {"watchlist_name": watchlist_name})
    watchlist.company_count = 0
    return watchlist


def watchlist_rename(*, watchlist: Watchlist, watchlist_name: str, actor: Actor | None = None) -> Watchlist:
    before = watchlist.watchlist_name
    with transaction.atomic():
        watchlist.watchlist_name = watchlist_name
        watchlist.save(update_fields=["watchlist_name", "update_timestamp"])
        if before != watchlist_name:
            _audit(watchlist, actor, "watchlist.rename", {"watchlist_name": before}, {"watchlist_name": watchlist_name})
    return watchlist


def watchlist_removal_allow(*, watchlist: Watchlist, granted_roles: frozenset[str]) -> None:
    """Removing companies from a watchlist a screening config follows stops their screening
    (spec §3), as detaching it does; the screening endpoints keep that behind `aml`, so these
    removals need it too (403 naming the role). Deleting the watchlist is such a removal."""
    if "aml" not in granted_roles and watchlist.screening_config_links.exists():
        raise RoleMissing(
            ["aml"],
            why=f"Watchlist {watchlist.uuid} is followed by screening: removing its companies stops their screening. ",
        )


def watchlist_delete(*, watchlist: Watchlist, actor: Actor | None = None) -> None:
    """Deletes the watchlist; screening hears that all its companies were removed."""
    with transaction.atomic():
        _audit(watchlist, actor, "watchlist.delete", {"watchlist_name": watchlist.watchlist_name}, None)
        # The row lock makes a concurrent add wait for this delete and then fail (its
        # foreign key is checked at commit), so no company is added unreported.
        Watchlist.objects.select_for_update().filter(pk=watchlist.pk).first()
        removed = _delete_memberships_returning(watchlist)
        Watchlist.objects.filter(pk=watchlist.pk).delete()
        _changed_on_commit(watchlist, removed=removed)


def watchlist_add_companies(*, watchlist: Watchlist, entries: object, actor: Actor | None = None) -> AddResult:
    """Adds the register companies an add request's body names; all or nothing (a 400 listing
    every bad entry). Companies already on the watchlist, or named twice, are ignored."""
    company_uuids = selectors.company_entries_resolve(entries=entries)
    try:
        with transaction.atomic():
            added = _insert_ignoring_present(watchlist, company_uuids)
            if added:
                _touch(watchlist)
                _audit(watchlist, actor, "watchlist.companies_add", None, _companies_state(added))
            company_count = WatchlistCompany.objects.filter(watchlist=watchlist).count()
            _changed_on_commit(watchlist, added=added)
    except IntegrityError:
        # Only the watchlist's own foreign key can fail (the companies were just read):
        # it was deleted while this request ran.
        raise NotFound(f"No watchlist {watchlist.uuid}.") from None
    return AddResult(len(added), len(entries) - len(added), company_count)  # type: ignore[arg-type]


def watchlist_replace_companies(
    *, watchlist: Watchlist, entries: object, granted_roles: frozenset[str], actor: Actor | None = None
) -> ReplaceResult:
    """Makes the watchlist hold exactly the register companies the body names, in one
    transaction: the body is checked whole first (the add's 400), then the companies not
    named are removed (which needs what `watchlist_removal_allow` asks, only when there are
    any) and the new ones added. One signal names every company added and removed; a
    replace that changes nothing sends none. An empty array empties the watchlist."""
    company_uuids = selectors.company_entries_resolve(entries=entries)
    with transaction.atomic():
        # The row lock orders replaces and deletes of this watchlist one after another.
        if not Watchlist.objects.select_for_update().filter(pk=watchlist.pk).exists():
            raise NotFound(f"No watchlist {watchlist.uuid}.")
        present = set(WatchlistCompany.objects.filter(watchlist=watchlist).values_list("company_id", flat=True))
        wanted = set(company_uuids)
        if present - wanted:
            watchlist_removal_allow(watchlist=watchlist, granted_roles=granted_roles)
        removed = _delete_memberships_returning(watchlist, company_uuids=sorted(present - wanted, key=str))
        added = _insert_ignoring_present(watchlist, [c for c in company_uuids if c not in present])
        if added or removed:
            _touch(watchlist)
        if removed:
            _audit(watchlist, actor, "watchlist.companies_remove", _companies_state(removed), None)
        if added:
            _audit(watchlist, actor, "watchlist.companies_add", None, _companies_state(added))
        company_count = WatchlistCompany.objects.filter(watchlist=watchlist).count()
        _changed_on_commit(watchlist, added=added, removed=removed)
    return ReplaceResult(len(added), len(removed), len(wanted) - len(added), company_count)


def _companies_state(company_uuids: Sequence[uuid.UUID]) -> dict:
    # The first 100 uuids and the count: a 10,000-company import stays a readable record.
    return {"company_count": len(company_uuids), "company_uuids": [str(u) for u in list(company_uuids)[:100]]}


def watchlist_remove_companies(*, watchlist: Watchlist, actor: Actor | None = None) -> int:
    """Removes every company from the watchlist (irreversible); the number removed."""
    with transaction.atomic():
        removed = _delete_memberships_returning(watchlist)
        if removed:
            _touch(watchlist)
            _audit(watchlist, actor, "watchlist.companies_remove", _companies_state(removed), None)
        _changed_on_commit(watchlist, removed=removed)
    return len(removed)


def watchlist_remove_company(*, watchlist: Watchlist, company_uuid: uuid.UUID, actor: Actor | None = None) -> None:
    """Removes one company; 404 when it is not on the watchlist."""
    with transaction.atomic():
        deleted, _ = WatchlistCompany.objects.filter(watchlist=watchlist, company_id=company_uuid).delete()
        if not deleted:
            raise NotFound(f"Company {company_uuid} is not on watchlist {watchlist.uuid}.")
        _touch(watchlist)
        _audit(watchlist, actor, "watchlist.companies_remove", _companies_state([company_uuid]), None)
        _changed_on_commit(watchlist, removed=[company_uuid])


# --- the statements ---------------------------------------------------------------------------------


def _insert_ignoring_present(watchlist: Watchlist, company_uuids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING: the companies this statement really added.
    PostgreSQL takes the uuids as two arrays in one statement (UNNEST, as Django's own
    bulk_create does); SQLite takes VALUES rows in batches under its parameter limit."""
    meta = WatchlistCompany._meta
    quote = connection.ops.quote_name
    fields = [meta.get_field(name) for name in ("uuid", "watchlist", "company", "added_timestamp")]
    pk_field, watchlist_field, company_field, added_field = fields
    head = f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(field.column) for field in fields)}) "
    tail = (
        f" ON CONFLICT ({quote(watchlist_field.column)}, {quote(company_field.column)}) DO NOTHING "
        f"RETURNING {quote(company_field.column)}"
    )
    watchlist_param = watchlist_field.get_db_prep_save(watchlist.pk, connection)
    added_param = added_field.get_db_prep_save(timezone.now(), connection)
    added: list[uuid.UUID] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if company_uuids:
                cursor.execute(
                    head + "SELECT u, %s, c, %s FROM UNNEST(%s::uuid[], %s::uuid[]) AS rows (u, c)" + tail,
                    [watchlist_param, added_param, [uuid.uuid4() for _ in company_uuids], list(company_uuids)],
                )
                added = [_as_uuid(value) for (value,) in cursor.fetchall()]
            return added
        for start in range(0, len(company_uuids), _INSERT_BATCH):
            batch = company_uuids[start : start + _INSERT_BATCH]
            params: list = []
            for company_uuid in batch:
                params += [
                    pk_field.get_db_prep_save(uuid.uuid4(), connection),
                    watchlist_param,
                    company_field.get_db_prep_save(company_uuid, connection),
                    added_param,
                ]
            cursor.execute(head + "VALUES " + ", ".join(["(%s, %s, %s, %s)"] * len(batch)) + tail, params)
            added += [_as_uuid(value) for (value,) in cursor.fetchall()]
    return added


def _delete_memberships_returning(
    watchlist: Watchlist, *, company_uuids: Sequence[uuid.UUID] | None = None
) -> list[uuid.UUID]:
    """DELETE ... RETURNING: the companies this statement really removed; all of the watchlist's,
    or those of `company_uuids` (PostgreSQL: one array; SQLite: batches under its parameter limit)."""
    meta = WatchlistCompany._meta
    watchlist_field, company_field = meta.get_field("watchlist"), meta.get_field("company")
    quote = connection.ops.quote_name
    sql = f"DELETE FROM {quote(meta.db_table)} WHERE {quote(watchlist_field.column)} = %s"
    returning = f" RETURNING {quote(company_field.column)}"
    watchlist_param = watchlist_field.get_db_prep_save(watchlist.pk, connection)
    removed: list[uuid.UUID] = []
    with connection.cursor() as cursor:
        if company_uuids is None:
            cursor.execute(sql + returning, [watchlist_param])
            return [_as_uuid(value) for (value,) in cursor.fetchall()]
        if connection.vendor == "postgresql":
            if company_uuids:
                cursor.execute(
                    sql + f" AND {quote(company_field.column)} = ANY(%s::uuid[])" + returning,
                    [watchlist_param, list(company_uuids)],
                )
                removed = [_as_uuid(value) for (value,) in cursor.fetchall()]
            return removed
        for start in range(0, len(company_uuids), _INSERT_BATCH):
            batch = company_uuids[start : start + _INSERT_BATCH]
            params = [company_field.get_db_prep_save(company_uuid, connection) for company_uuid in batch]
            cursor.execute(
                sql + f" AND {quote(company_field.column)} IN ({', '.join(['%s'] * len(batch))})" + returning,
                [watchlist_param, *params],
            )
            removed += [_as_uuid(value) for (value,) in cursor.fetchall()]
    return removed


def _as_uuid(value) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(value)  # SQLite answers hex text


def _touch(watchlist: Watchlist) -> None:
    Watchlist.objects.filter(pk=watchlist.pk).update(update_timestamp=timezone.now())


def _changed_on_commit(
    watchlist: Watchlist, *, added: Sequence[uuid.UUID] = (), removed: Sequence[uuid.UUID] = ()
) -> None:
    if not added and not removed:
        return
    kwargs = {
        "watchlist_uuid": watchlist.uuid,
        "app_customer_uuid": watchlist.app_customer_id,
        "added_company_uuids": list(added),
        "removed_company_uuids": list(removed),
    }
    about = f"watchlist {watchlist.uuid}: {len(added)} companies added, {len(removed)} removed"
    transaction.on_commit(
        lambda: committed_change_send(watchlist_companies_changed, sender=Watchlist, about=about, **kwargs), robust=True
    )
