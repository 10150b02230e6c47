"""The beneficial-owner computation over random ownership graphs, against a brute-force oracle.

The oracle does not walk the graph: it tries every ordered sequence of distinct companies
between a person and the target, keeps those whose links all exist, and multiplies.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from decimal import Decimal
from uuid import UUID

from hypothesis import given, settings
from hypothesis import strategies as st

from service.companies.ownership import (
    OwnershipLink,
    beneficial_owners_in_graph,
    chain_share,
    person_shares_in_graph,
)

THRESHOLD = Decimal("0.25")
TARGET = UUID(int=1000)


def person(number: int) -> UUID:
    return UUID(int=number)


def company(number: int) -> UUID:
    return UUID(int=1000 + number)  # company 0 is the target


def link(holder: UUID, owned: UUID, percent) -> OwnershipLink:
    kind = "person" if holder.int < 1000 else "company"
    return OwnershipLink(holder, f"name {holder.int}", kind, owned, f"name {owned.int}", Decimal(percent) / 100)


def oracle(links: list[OwnershipLink], max_depth: int) -> dict[UUID, tuple[Decimal, set[tuple[UUID, ...]]]]:
    """person -> (sum over all simple chains of the product, the qualifying chains as node
    sequences person, company, ..., target)."""
    share: dict[tuple[UUID, UUID], Decimal] = {}
    for one in links:
        key = (one.holder_uuid, one.company_uuid)
        share[key] = share.get(key, Decimal(0)) + one.share
    persons = {one.holder_uuid for one in links if one.holder_kind == "person"}
    companies = {one.company_uuid for one in links} | {one.holder_uuid for one in links if one.holder_kind == "company"}
    middle = sorted(companies - {TARGET})
    found = {}
    for who in persons:
        total, qualifying = Decimal(0), set()
        for length in range(0, min(len(middle), max_depth - 1) + 1):
            for between in itertools.permutations(middle, length):
                nodes = (who, *between, TARGET)
                steps = list(zip(nodes, nodes[1:]))
                if all(step in share for step in steps):
                    product = Decimal(1)
                    for step in steps:
                        product *= share[step]
                    total += product
                    if all(share[step] >= THRESHOLD for step in steps):
                        qualifying.add(nodes)
        if total or qualifying:
            found[who] = (total, qualifying)
    return found


def nodes_of(chain) -> tuple[UUID, ...]:
    return (chain[0].holder_uuid, *(one.company_uuid for one in chain))


PERCENTS = st.one_of(st.integers(1, 100), st.sampled_from(["25", "24.9999", "25.0001", "33.3333", "50"]))


@st.composite
def graphs(draw):
    persons = draw(st.integers(1, 4))
    companies = draw(st.integers(1, 5))
    holders = [person(n) for n in range(persons)] + [company(n) for n in range(companies)]
    edges = draw(
        st.lists(
            st.tuples(st.sampled_from(holders), st.integers(0, companies - 1), PERCENTS), min_size=0, max_size=14
        )
    )  # cycles, self-ownership and the same holder twice are all allowed
    return [link(holder, company(owned), percent) for holder, owned, percent in edges]


@settings(max_examples=400, deadline=None)
@given(links=graphs(), max_depth=st.integers(1, 6))
def test_shares_and_qualifying_chains_match_brute_force(links, max_depth):
    expected = oracle(links, max_depth)

    got = person_shares_in_graph(links, TARGET, threshold=THRESHOLD, max_depth=max_depth)

    assert {owner.person_uuid: owner.effective_share for owner in got} == {
        who: total for who, (total, _) in expected.items()
    }
    assert {owner.person_uuid: {nodes_of(chain) for chain in owner.chains} for owner in got} == {
        who: chains for who, (_, chains) in expected.items()
    }
    owners = beneficial_owners_in_graph(links, TARGET, threshold=THRESHOLD, max_depth=max_depth)
    assert {owner.person_uuid for owner in owners} == {who for who, (_, chains) in expected.items() if chains}
    for owner in owners:
        assert all(all(step.share >= THRESHOLD for step in chain) for chain in owner.chains)
        assert [chain_share(chain) for chain in owner.chains] == sorted(
            (chain_share(chain) for chain in owner.chains), reverse=True
        )


@settings(max_examples=200, deadline=None)
@given(links=graphs())
def test_a_consistent_register_never_gives_anyone_more_than_everything(links):
    # Scale each company's owners down to 100% in all: the chains of one person are then
    # disjoint routes of a backward random walk, so their sum stays at most 1.
    totals: dict[UUID, Decimal] = {}
    for one in links:
        totals[one.company_uuid] = totals.get(one.company_uuid, Decimal(0)) + one.share
    consistent = [replace(one, share=one.share / max(totals[one.company_uuid], Decimal(1))) for one in links]

    shares = person_shares_in_graph(consistent, TARGET)

    assert sum((owner.effective_share for owner in shares), Decimal(0)) <= 1 + Decimal("1e-20")  # 1/3 rounds


def test_the_oracle_sees_a_diamond_and_cuts_a_cycle():
    p, a, b = person(1), company(1), company(2)
    links = [link(p, a, 50), link(p, b, 50), link(a, TARGET, 30), link(b, TARGET, 40), link(TARGET, a, 100)]

    assert oracle(links, 10) == {p: (Decimal("0.35"), {(p, a, TARGET), (p, b, TARGET)})}
