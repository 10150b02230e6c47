"""Which screened entities a list version's delta can find anything for, without searching them all.

A search finds a candidate only through a query's full name part that has spellings in the
index, or that begins a listed part (a glued run): `MatchIndex.parts_bringing_names`, the
engine's own rule. Each screened name is stored once with its normalised parts
(`names_record`, called by every run as it screens, name_part_models.py). A delta run then
looks up the distinct stored parts in the delta index (tens of thousands, not one lookup per
person), and searches only the entities whose current name has a part that brings names:
the same hits as searching every entity in the delta index, as the others find nothing.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable

from django.db.models import Q, QuerySet

from service.screening.matching import MatchIndex
from service.screening.matching.index import query_kind_code
from service.screening.matching.normalize import NameToken, normalize_name
from service.screening.matching.types import PersonQuery
from service.screening.models import EntityMonitoring, ScreeningName, ScreeningNamePart

KNOWN_NAMES_CACHE_SIZE = 500_000  # names this process has recorded, not asked about again
NAME_FIELDS = {  # per entity kind: its name field, and the kind code its name is normalised as
    EntityMonitoring.EntityKey.PERSON: ("person__full_name", query_kind_code("Person")),
    EntityMonitoring.EntityKey.CUSTOMER_PERSON: ("customer_person__full_name", query_kind_code("Person")),
    EntityMonitoring.EntityKey.COMPANY: ("company__name", query_kind_code("Organization")),
}

_lock = threading.Lock()
_known: set[tuple[str, str]] = set()


def token_key(kind_code: str, token: NameToken) -> str:
    """A part's identity as stored: the kind code and every field of the token."""
    return json.dumps([kind_code, token.text, token.form, token.role, token.weight, token.phonetic,
                       token.skeleton, token.abjad, sorted(token.symbols)], ensure_ascii=False)


def token_of(key: str) -> tuple[str, NameToken]:
    kind_code, text, form, role, weight, phonetic, skeleton, abjad, symbols = json.loads(key)
    return kind_code, NameToken(text, form, role, weight, phonetic, skeleton, abjad, frozenset(symbols))


def names_record(queries: Iterable[PersonQuery], *, remembered: bool = True) -> int:
    """Store the names of these queries with their normalised parts, those not stored yet;
    the number stored now. Safe against concurrent runs storing the same names. Names this
    process stored or found stored are not asked about again unless `remembered` is False."""
    wanted: dict[tuple[str, str], PersonQuery] = {}
    for query in queries:
        key = (query_kind_code(query.schema), query.name)
        if query.name and not (remembered and key in _known):
            wanted[key] = query
    if not wanted:
        return 0
    stored = set()
    for kind_code in {kind for kind, _ in wanted}:
        names = [name for kind, name in wanted if kind == kind_code]
        stored |= {(kind_code, n) for n in ScreeningName.objects.filter(kind_code=kind_code, name__in=names)
                   .values_list("name", flat=True)}
    new = {key: query for key, query in wanted.items() if key not in stored}
    if new:
        _store(new)
    with _lock:
        if len(_known) > KNOWN_NAMES_CACHE_SIZE:
            _known.clear()
        _known.update(wanted)
    return len(new)


def _store(new: dict[tuple[str, str], PersonQuery]) -> None:
    part_keys = {
        key: sorted({token_key(kind_code, token) for token in normalize_name(query.name, query.schema).tokens})
        for key, query in new.items() for kind_code in (key[0],)
    }
    ScreeningName.objects.bulk_create([ScreeningName(kind_code=k, name=n) for k, n in new], ignore_conflicts=True)
    every_part = sorted({part for parts in part_keys.values() for part in parts})
    ScreeningNamePart.objects.bulk_create([ScreeningNamePart(key=part) for part in every_part], ignore_conflicts=True)
    part_ids = dict(ScreeningNamePart.objects.filter(key__in=every_part).values_list("key", "id"))
    name_ids = {}
    for kind_code in {kind for kind, _ in new}:
        names = [name for kind, name in new if kind == kind_code]
        for name_id, name in ScreeningName.objects.filter(kind_code=kind_code, name__in=names).values_list("id", "name"):
            name_ids[(kind_code, name)] = name_id
    through = ScreeningName.parts.through
    ScreeningName.parts.through.objects.bulk_create(
        [through(screeningname_id=name_ids[key], screeningnamepart_id=part_ids[part])
         for key, parts in part_keys.items() for part in parts],
        ignore_conflicts=True,
    )


def monitorings_missing_names(monitorings: QuerySet[EntityMonitoring]) -> QuerySet[EntityMonitoring]:
    """Those of `monitorings` whose entity's current name is not stored (never screened
    under it, or stored before this existed)."""
    missing = Q()
    for entity_key, (field, kind_code) in NAME_FIELDS.items():
        stored = ScreeningName.objects.filter(kind_code=kind_code).values("name")
        missing |= Q(entity_key=entity_key) & ~Q(**{f"{field}__in": stored})
    return monitorings.filter(missing)


def names_finding(index: MatchIndex) -> QuerySet[ScreeningName]:
    """The stored names that may find a candidate in `index`: those with a part that brings
    names there (`MatchIndex.parts_bringing_names`); no other name's search has a hit."""
    stored = list(ScreeningNamePart.objects.values_list("id", "key"))
    found = index.parts_bringing_names([token_of(key) for _, key in stored])
    part_ids = [part_id for (part_id, _), bringing in zip(stored, found) if bringing]
    return ScreeningName.objects.filter(parts__in=part_ids)


def monitorings_finding(monitorings: QuerySet[EntityMonitoring], index: MatchIndex) -> QuerySet[EntityMonitoring]:
    """Those of `monitorings` (whose names are stored) whose name may find a candidate in
    `index`: a superset of those whose search in it has any hit."""
    finding = names_finding(index)
    selected = Q(pk__in=[])
    for entity_key, (field, kind_code) in NAME_FIELDS.items():
        names = finding.filter(kind_code=kind_code).values("name")
        selected |= Q(entity_key=entity_key, **{f"{field}__in": names})
    return monitorings.filter(selected)
