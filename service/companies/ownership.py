"""Who stands behind a company: beneficial owners, and the persons screening suggests.

The rule (docs/ownership.md has it in full, with a worked example):

- An ownership **chain** runs from a person through zero or more companies to the
  company; each link is a current `shareholder` role with its share. Only simple paths
  count: a chain never visits a company twice, so cycles (A owns B owns A) are cut.
- A person is a **beneficial owner** when some chain has at least `threshold` (25%) at
  every link ("at least 25% ownership in each section"); exactly 25% qualifies.
- The **effective share** is the product of the shares along a chain, summed over every
  chain from the person, qualifying or not: the person's economic interest.
- Chains are at most `MAX_DEPTH` links long; the register is loaded upward from the
  company one level per query, so a call costs at most 1 + MAX_DEPTH queries
  (+1 for the roles in `persons_to_screen`).

`person_shares_in_graph` is the pure computation over in-memory links (property-tested
against a brute-force enumeration in tests/service/companies/test_ownership_graph.py);
`beneficial_owners` and `persons_to_screen` feed it from the database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Literal
from uuid import UUID

from django.utils import timezone

from service.companies.models import Company, CompanyRole

THRESHOLD = Decimal("0.25")
MAX_DEPTH = 10  # links per chain; real group structures are far shallower
SHAREHOLDER = "shareholder"
BENEFICIAL_OWNERS_SETTING = "enin_calculated_beneficial_owners"
EXTENDED_SETTING = "enin_calculated_extended_beneficial_owners"
SETTING_KEYS = (BENEFICIAL_OWNERS_SETTING, EXTENDED_SETTING)
# Who stands in when nobody qualifies: the board and the CEO (daglig leder, the senior
# managing official of AMLD art. 3(6)(a)(ii)); deputies only sit when a member is away.
ALTERNATIVE_ROLES = ("board_chair", "board_member", "ceo")
# The extended setting adds signatories and procuration holders; it keeps the CEO, so it
# never suggests fewer persons than the basic setting.
EXTENDED_ROLES = (*ALTERNATIVE_ROLES, "signature_right", "procuration")
ROLE_NOUNS = {
    "board_chair": "chair of the board",
    "ceo": "CEO",
    "board_member": "board member",
    "deputy_board_member": "deputy board member",
    "signature_right": "signatory",
    "procuration": "holder of procuration",
    "shareholder": "shareholder",
}
ROLE_ORDER = {key: rank for rank, key in enumerate(ROLE_NOUNS)}
# Shares have at most four decimals in percent (six as a fraction): with this many digits
# products of MAX_DEPTH shares and their sums are exact, whatever the order of summing.
_EXACT_DIGITS = 100
_LEVEL_BATCH = 2000  # companies per level query (SQLite's bound-parameter limit)

HolderKind = Literal["person", "company"]


@dataclass(frozen=True)
class OwnershipLink:
    """The holder owns `share` (a fraction 0..1) of the company."""

    holder_uuid: UUID
    holder_name: str
    holder_kind: HolderKind
    company_uuid: UUID
    company_name: str
    share: Decimal


OwnershipChain = tuple[OwnershipLink, ...]  # from the person to the company


@dataclass(frozen=True)
class BeneficialOwner:
    person_uuid: UUID
    full_name: str
    effective_share: Decimal  # product along each chain, summed over every chain
    chains: tuple[OwnershipChain, ...]  # the qualifying chains, largest first


@dataclass(frozen=True)
class ScreeningCandidate:
    person_uuid: UUID
    full_name: str
    entity_monitoring_type_key: Literal["beneficial_owners", "alternative_beneficial_owners"]
    role_keys: tuple[str, ...]  # the person's current roles in the company itself
    effective_share: Decimal | None  # None when no chain leads from the person to the company
    chains: tuple[OwnershipChain, ...]
    reason: str


def chain_share(chain: OwnershipChain) -> Decimal:
    with localcontext() as context:
        context.prec = _EXACT_DIGITS
        product = Decimal(1)
        for link in chain:
            product *= link.share
        return product


# --- the pure computation ---------------------------------------------------------------------


def person_shares_in_graph(
    links: Iterable[OwnershipLink], company: UUID, *, threshold: Decimal = THRESHOLD, max_depth: int = MAX_DEPTH
) -> list[BeneficialOwner]:
    """Every person with a chain to `company`: the effective share and the qualifying
    chains (empty for a person who does not qualify). Largest share first.

    Several links between the same holder and company (two current roles) count as one
    link with their shares added."""
    owners_of = _owners_by_company(links)
    names: dict[UUID, str] = {}
    shares: dict[UUID, Decimal] = defaultdict(Decimal)
    qualifying: dict[UUID, list[OwnershipChain]] = defaultdict(list)

    def walk(owned: UUID, upward: OwnershipChain, on_path: frozenset[UUID]) -> None:
        for link in owners_of.get(owned, ()):
            path = (*upward, link)
            if link.holder_kind == "person":
                chain = path[::-1]
                names[link.holder_uuid] = link.holder_name
                shares[link.holder_uuid] += chain_share(chain)
                if all(step.share >= threshold for step in chain):
                    qualifying[link.holder_uuid].append(chain)
            elif link.holder_uuid not in on_path and len(path) < max_depth:
                walk(link.holder_uuid, path, on_path | {link.holder_uuid})

    with localcontext() as context:
        context.prec = _EXACT_DIGITS
        walk(company, (), frozenset({company}))
    owners = [
        BeneficialOwner(
            person_uuid=person,
            full_name=names[person],
            effective_share=share,
            chains=tuple(sorted(qualifying[person], key=_chain_order)),
        )
        for person, share in shares.items()
    ]
    return sorted(owners, key=lambda owner: (-owner.effective_share, owner.full_name, owner.person_uuid))


def beneficial_owners_in_graph(
    links: Iterable[OwnershipLink], company: UUID, *, threshold: Decimal = THRESHOLD, max_depth: int = MAX_DEPTH
) -> list[BeneficialOwner]:
    """The persons with at least one qualifying chain to `company`."""
    shares = person_shares_in_graph(links, company, threshold=threshold, max_depth=max_depth)
    return [owner for owner in shares if owner.chains]


def _owners_by_company(links: Iterable[OwnershipLink]) -> dict[UUID, list[OwnershipLink]]:
    merged: dict[tuple, OwnershipLink] = {}
    for link in links:
        key = (link.company_uuid, link.holder_kind, link.holder_uuid)
        earlier = merged.get(key)
        merged[key] = link if earlier is None else replace(earlier, share=earlier.share + link.share)
    owners_of: dict[UUID, list[OwnershipLink]] = defaultdict(list)
    for link in merged.values():
        owners_of[link.company_uuid].append(link)
    return owners_of


def _chain_order(chain: OwnershipChain):
    return (-chain_share(chain), len(chain), [str(link.holder_uuid) for link in chain])


# --- from the database --------------------------------------------------------------------------


def beneficial_owners(
    *, company_uuid: UUID, threshold: Decimal = THRESHOLD, as_of: date | None = None
) -> list[BeneficialOwner]:
    """The company's beneficial owners as of `as_of` (default today), largest share first.

    Raises Company.DoesNotExist for an unknown company. At most 1 + MAX_DEPTH queries."""
    company = Company.objects.only("uuid", "name").get(uuid=company_uuid)
    links = ownership_links_load(company=company, as_of=as_of or timezone.localdate())
    return beneficial_owners_in_graph(links, company.uuid, threshold=threshold)


def ownership_links_load(*, company: Company, as_of: date, max_depth: int = MAX_DEPTH) -> list[OwnershipLink]:
    """The current shareholder links above `company`, breadth-first: one query per level
    (per `_LEVEL_BATCH` companies of a level), at most `max_depth` levels. A role is current
    from its `from_date` (inclusive) until its `to_date` (exclusive, as the role API's
    `active_flag`); a shareholder role without a share is left out."""
    names = {company.uuid: company.name}
    frontier = [company.uuid]
    links: list[OwnershipLink] = []
    for _level in range(max_depth):
        discovered: list[UUID] = []
        for start in range(0, len(frontier), _LEVEL_BATCH):
            for owned, person, person_name, holder, holder_name, percent in _shareholder_rows(
                frontier[start : start + _LEVEL_BATCH], as_of
            ):
                if person is not None:
                    link = OwnershipLink(person, person_name, "person", owned, names[owned], percent / 100)
                else:
                    link = OwnershipLink(holder, holder_name, "company", owned, names[owned], percent / 100)
                    if holder not in names:
                        names[holder] = holder_name
                        discovered.append(holder)
                links.append(link)
        if not discovered:
            break
        frontier = discovered
    return links


def _shareholder_rows(companies: list[UUID], as_of: date):
    return (
        CompanyRole.objects.filter(
            CompanyRole.current_q(as_of), company_id__in=companies, company_role_type__key=SHAREHOLDER, share_percentage__gt=0
        )
        .order_by("company_id", "uuid")
        .values_list(
            "company_id",
            "holder_person_id",
            "holder_person__full_name",
            "holder_company_id",
            "holder_company__name",
            "share_percentage",
        )
    )


# --- who is screened ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PersonRoles:
    full_name: str
    role_keys: frozenset[str]


def persons_to_screen(*, company_uuid: UUID, setting_key: str, as_of: date | None = None) -> list[ScreeningCandidate]:
    """The persons a screening config's suggestion setting screens for the company, each once.

    - enin_calculated_beneficial_owners: the beneficial owners; when nobody qualifies, the
      current board (chair, members) and the CEO as alternative beneficial owners.
    - enin_calculated_extended_beneficial_owners: the beneficial owners, plus the current
      board, CEO, signatories and procuration holders (alternative beneficial owners).

    Raises ValueError for another setting key, Company.DoesNotExist for an unknown company.
    At most 2 + MAX_DEPTH queries."""
    if setting_key not in SETTING_KEYS:
        raise ValueError(f"setting_key must be one of {', '.join(SETTING_KEYS)}, got {setting_key!r}")
    as_of = as_of or timezone.localdate()
    company = Company.objects.only("uuid", "name").get(uuid=company_uuid)
    shares = person_shares_in_graph(ownership_links_load(company=company, as_of=as_of), company.uuid)
    return screening_candidates(
        company_name=company.name, shares=shares, roles=_person_roles(company, as_of), setting_key=setting_key
    )


def _person_roles(company: Company, as_of: date) -> dict[UUID, PersonRoles]:
    found: dict[UUID, tuple[str, set[str]]] = {}
    rows = CompanyRole.objects.filter(CompanyRole.current_q(as_of), company=company, holder_person__isnull=False).values_list(
        "holder_person_id", "holder_person__full_name", "company_role_type__key"
    )
    for person, full_name, key in rows:
        found.setdefault(person, (full_name, set()))[1].add(key)
    return {person: PersonRoles(name, frozenset(keys)) for person, (name, keys) in found.items()}


def screening_candidates(
    *,
    company_name: str,
    shares: list[BeneficialOwner],
    roles: Mapping[UUID, PersonRoles],
    setting_key: str,
    threshold: Decimal = THRESHOLD,
) -> list[ScreeningCandidate]:
    """Pure selection from the persons' shares (`person_shares_in_graph`) and their roles
    in the company: beneficial owners first (largest share first), then the others by
    their highest role."""
    by_person = {owner.person_uuid: owner for owner in shares}
    owners = [owner for owner in shares if owner.chains]
    candidates = []
    for owner in owners:
        keys = _sorted_keys(roles[owner.person_uuid].role_keys) if owner.person_uuid in roles else ()
        also = [key for key in keys if key != SHAREHOLDER]
        reason = _owner_reason(owner, company_name, threshold)
        if also and setting_key == EXTENDED_SETTING:
            reason += f"; also {_nouns(also)}"
        candidates.append(
            ScreeningCandidate(
                person_uuid=owner.person_uuid,
                full_name=owner.full_name,
                entity_monitoring_type_key="beneficial_owners",
                role_keys=keys,
                effective_share=owner.effective_share,
                chains=owner.chains,
                reason=reason,
            )
        )
    if setting_key == EXTENDED_SETTING:
        standing_in = EXTENDED_ROLES
    else:
        standing_in = () if owners else ALTERNATIVE_ROLES
    chosen = {owner.person_uuid for owner in owners}
    others = []
    for person, held in roles.items():
        relevant = [key for key in _sorted_keys(held.role_keys) if key in standing_in]
        if person in chosen or not relevant:
            continue
        share = by_person[person].effective_share if person in by_person else None
        reason = f"{_capitalized(_nouns(relevant))} of {company_name}; "
        if setting_key == EXTENDED_SETTING:
            reason += "screened under the extended setting (board, CEO, signatories and procuration holders)"
        else:
            reason += f"no person holds {_threshold(threshold)} or more in every link of an ownership chain"
        if share is not None:
            reason += f" (owns {_percent(share, rounded=True)} of {company_name} in all)"
        others.append(
            ScreeningCandidate(
                person_uuid=person,
                full_name=held.full_name,
                entity_monitoring_type_key="alternative_beneficial_owners",
                role_keys=_sorted_keys(held.role_keys),
                effective_share=share,
                chains=(),
                reason=reason,
            )
        )
    others.sort(key=lambda c: (min(ROLE_ORDER.get(key, 99) for key in c.role_keys), c.full_name, c.person_uuid))
    return candidates + others


def _owner_reason(owner: BeneficialOwner, company_name: str, threshold: Decimal) -> str:
    total = _percent(owner.effective_share, rounded=True)
    with localcontext() as context:
        context.prec = _EXACT_DIGITS
        rest = owner.effective_share - sum((chain_share(chain) for chain in owner.chains), Decimal(0))
    if len(owner.chains) == 1 and rest == 0:
        return f"Owns {total} of {company_name} {_route(owner.chains[0])}"
    parts = [f"{_percent(chain_share(chain), rounded=True)} {_route(chain)}" for chain in owner.chains]
    if rest > 0:
        parts.append(f"{_percent(rest, rounded=True)} through chains with a link under {_threshold(threshold)}")
    return f"Owns {total} of {company_name}: " + "; ".join(parts)


def _route(chain: OwnershipChain) -> str:
    if len(chain) == 1:
        return "directly"
    through = " and then ".join(link.company_name for link in chain[:-1])
    return f"through {through} ({' × '.join(_percent(link.share) for link in chain)})"


def _percent(fraction: Decimal, *, rounded: bool = False) -> str:
    """31.0% (rounded to one decimal), or the exact share as stored: 62.0%, 24.9999%."""
    value = fraction * 100
    if rounded:
        return f"{value.quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"
    text = f"{value.quantize(Decimal('0.0001')):f}".rstrip("0")
    return f"{text}0%" if text.endswith(".") else f"{text}%"


def _threshold(fraction: Decimal) -> str:
    return f"{(fraction * 100).normalize():f}%"  # 25%


def _sorted_keys(keys: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(keys, key=lambda key: (ROLE_ORDER.get(key, 99), key)))


def _nouns(keys: list[str]) -> str:
    nouns = [ROLE_NOUNS.get(key, key.replace("_", " ")) for key in keys]
    return nouns[0] if len(nouns) == 1 else f"{', '.join(nouns[:-1])} and {nouns[-1]}"


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]
