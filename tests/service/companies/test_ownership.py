"""beneficial_owners(): who owns a company through current shareholder chains in the register."""

import uuid
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from service.companies.models import Company
from service.companies.ownership import MAX_DEPTH, beneficial_owners, chain_share
from tests.service.companies.factories import company_make, person_make, role_make

pytestmark = pytest.mark.django_db


def owns(holder, company, percent, **fields):
    """A shareholder role: `holder` (a person or a company) owns `percent` of `company`."""
    kind = {"holder_company": holder} if isinstance(holder, Company) else {"person": holder}
    return role_make(company=company, role_key="shareholder", share_percentage=Decimal(str(percent)), **kind, **fields)


def shares(company, **kwargs) -> dict[str, Decimal]:
    return {owner.full_name: owner.effective_share for owner in beneficial_owners(company_uuid=company.uuid, **kwargs)}


def route(chain) -> list[tuple[str, str, Decimal]]:
    return [(link.holder_name, link.company_name, link.share) for link in chain]


@pytest.fixture
def nordlys():
    return company_make(name="Nordlys AS")


def test_a_direct_owner_of_a_quarter_or_more_is_a_beneficial_owner(nordlys):
    owns(person_make(full_name="Kari Nordmann"), nordlys, 40)
    owns(person_make(full_name="Ola Hansen"), nordlys, 10)

    [kari] = beneficial_owners(company_uuid=nordlys.uuid)

    assert kari.full_name == "Kari Nordmann" and kari.effective_share == Decimal("0.4")
    assert [route(chain) for chain in kari.chains] == [[("Kari Nordmann", "Nordlys AS", Decimal("0.4"))]]
    assert kari.chains[0][0].holder_kind == "person"


def test_an_owner_through_a_holding_company_owns_the_product(nordlys):
    fjell = company_make(name="Fjell Holding AS")
    owns(fjell, nordlys, 50)
    owns(person_make(full_name="Kari Nordmann"), fjell, 62)

    [kari] = beneficial_owners(company_uuid=nordlys.uuid)

    assert kari.effective_share == Decimal("0.31")
    [chain] = kari.chains
    assert route(chain) == [
        ("Kari Nordmann", "Fjell Holding AS", Decimal("0.62")),
        ("Fjell Holding AS", "Nordlys AS", Decimal("0.5")),
    ]
    assert (chain[1].holder_kind, chain[1].holder_uuid, chain[1].company_uuid) == ("company", fjell.uuid, nordlys.uuid)


def test_a_diamond_sums_both_chains(nordlys):
    kari = person_make(full_name="Kari Nordmann")
    east, west = company_make(name="Øst AS"), company_make(name="Vest AS")
    owns(kari, east, 50)
    owns(kari, west, 50)
    owns(east, nordlys, 30)
    owns(west, nordlys, 40)

    [owner] = beneficial_owners(company_uuid=nordlys.uuid)

    assert owner.effective_share == Decimal("0.35")
    assert [chain_share(chain) for chain in owner.chains] == [Decimal("0.2"), Decimal("0.15")]
    assert [chain[0].company_name for chain in owner.chains] == ["Vest AS", "Øst AS"]


def test_a_chain_with_a_link_under_a_quarter_does_not_qualify(nordlys):
    small = company_make(name="Liten AS")
    owns(small, nordlys, 20)
    owns(person_make(full_name="Kari Nordmann"), small, 100)

    assert beneficial_owners(company_uuid=nordlys.uuid) == []


def test_a_weak_chain_still_counts_in_the_effective_share_of_an_owner(nordlys):
    kari = person_make(full_name="Kari Nordmann")
    strong, weak = company_make(name="Sterk AS"), company_make(name="Svak AS")
    owns(kari, strong, 100)
    owns(strong, nordlys, 30)
    owns(kari, weak, 100)
    owns(weak, nordlys, 20)

    [owner] = beneficial_owners(company_uuid=nordlys.uuid)

    assert owner.effective_share == Decimal("0.5")
    assert [chain[0].company_name for chain in owner.chains] == ["Sterk AS"]


def test_many_small_chains_adding_up_do_not_make_an_owner(nordlys):
    kari = person_make(full_name="Kari Nordmann")
    for name in ("En AS", "To AS", "Tre AS"):
        middle = company_make(name=name)
        owns(kari, middle, 100)
        owns(middle, nordlys, 20)  # 60% in all, but no chain has 25% in every link

    assert beneficial_owners(company_uuid=nordlys.uuid) == []


def test_a_cycle_is_cut_and_each_simple_chain_counted_once(nordlys):
    a, b = company_make(name="A Holding AS"), company_make(name="B Holding AS")
    owns(a, b, 50)
    owns(b, a, 50)  # A owns B owns A
    owns(b, nordlys, 100)
    owns(nordlys, a, 10)  # and back into the company itself
    owns(person_make(full_name="Kari Nordmann"), a, 50)

    [kari] = beneficial_owners(company_uuid=nordlys.uuid)

    assert kari.effective_share == Decimal("0.25")
    assert [route(chain) for chain in kari.chains] == [
        [
            ("Kari Nordmann", "A Holding AS", Decimal("0.5")),
            ("A Holding AS", "B Holding AS", Decimal("0.5")),
            ("B Holding AS", "Nordlys AS", Decimal("1")),
        ]
    ]


def test_a_company_owned_by_a_company_owned_by_nobody_has_no_beneficial_owner(nordlys):
    owns(company_make(name="Stiftelsen Eier AS"), nordlys, 100)

    assert beneficial_owners(company_uuid=nordlys.uuid) == []


def test_exactly_a_quarter_qualifies_in_every_link_and_a_hair_below_does_not(nordlys):
    holding = company_make(name="Halv AS")
    owns(holding, nordlys, 50)
    owns(person_make(full_name="Kari Nordmann"), holding, 50)  # 25% in all, links of 50%
    owns(person_make(full_name="Ola Hansen"), nordlys, 25)
    owns(person_make(full_name="Per Berg"), nordlys, "24.9999")

    assert shares(nordlys) == {"Kari Nordmann": Decimal("0.25"), "Ola Hansen": Decimal("0.25")}


def test_ended_and_future_roles_are_not_current(nordlys, stopped_clock):
    today = timezone.localdate()  # the day beneficial_owners() takes for today, whenever the test runs
    owns(person_make(full_name="Sold Last Year"), nordlys, 60, to_date=today - timedelta(days=365))
    owns(person_make(full_name="Closed Today"), nordlys, 60, from_date=date(2015, 1, 1), to_date=today)
    owns(person_make(full_name="Starts Tomorrow"), nordlys, 60, from_date=today + timedelta(days=1))
    owns(person_make(full_name="Until Tomorrow"), nordlys, 30, to_date=today + timedelta(days=1))
    holding = company_make(name="Gammel Holding AS")
    owns(holding, nordlys, 100, to_date=today - timedelta(days=1))
    owns(person_make(full_name="Behind An Ended Link"), holding, 100)

    assert shares(nordlys) == {"Until Tomorrow": Decimal("0.3")}
    assert set(shares(nordlys, as_of=today - timedelta(days=400))) == {
        "Sold Last Year",
        "Closed Today",
        "Until Tomorrow",
        "Behind An Ended Link",
    }


def test_the_threshold_can_be_given(nordlys):
    owns(person_make(full_name="Kari Nordmann"), nordlys, 12)

    assert shares(nordlys) == {}
    assert shares(nordlys, threshold=Decimal("0.10")) == {"Kari Nordmann": Decimal("0.12")}


def test_two_current_holdings_of_one_holder_count_as_one_link(nordlys):
    kari = person_make(full_name="Kari Nordmann")
    owns(kari, nordlys, 15, from_date=date(2019, 1, 1))
    owns(kari, nordlys, 15, from_date=date(2021, 6, 1))
    role_make(company=nordlys, role_key="shareholder", person=person_make(full_name="Share Unknown"))  # no share

    [owner] = beneficial_owners(company_uuid=nordlys.uuid)

    assert owner.full_name == "Kari Nordmann" and owner.effective_share == Decimal("0.3")
    assert len(owner.chains) == 1 and owner.chains[0][0].share == Decimal("0.3")


def test_the_register_is_read_one_level_per_query(nordlys, django_assert_num_queries):
    below = nordlys
    for level in range(3):
        holder = company_make(name=f"Level {level} AS")
        owns(holder, below, 100)
        owns(person_make(full_name=f"Minor {level}"), below, 1)
        below = holder
    owns(person_make(full_name="Kari Nordmann"), below, 100)

    with django_assert_num_queries(1 + 4):  # the company, then four levels of owners
        assert shares(nordlys) == {"Kari Nordmann": Decimal("1")}


def test_chains_longer_than_the_depth_limit_are_not_followed(nordlys, django_assert_max_num_queries):
    below, top = nordlys, []
    for level in range(MAX_DEPTH):
        holder = company_make(name=f"Level {level} AS")
        owns(holder, below, 100)
        below = holder
        top.append(holder)
    owns(person_make(full_name="Too Far"), top[-1], 100)  # MAX_DEPTH + 1 links
    owns(person_make(full_name="Just Within"), top[-2], 100)  # MAX_DEPTH links

    with django_assert_max_num_queries(1 + MAX_DEPTH):
        assert shares(nordlys) == {"Just Within": Decimal("1")}
    [owner] = beneficial_owners(company_uuid=nordlys.uuid)
    assert len(owner.chains[0]) == MAX_DEPTH


def test_an_unknown_company_raises():
    with pytest.raises(Company.DoesNotExist):
        beneficial_owners(company_uuid=uuid.uuid4())
