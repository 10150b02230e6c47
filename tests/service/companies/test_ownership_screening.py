"""persons_to_screen(): whom each suggestion setting screens for a company, and why."""

from datetime import date
from decimal import Decimal

import pytest

from service.companies.ownership import persons_to_screen
from tests.service.companies.factories import company_make, person_make, role_make
from tests.service.companies.test_ownership import owns

pytestmark = pytest.mark.django_db

BASIC = "enin_calculated_beneficial_owners"
EXTENDED = "enin_calculated_extended_beneficial_owners"


def screened(company, setting_key=BASIC):
    return {c.full_name: c for c in persons_to_screen(company_uuid=company.uuid, setting_key=setting_key)}


@pytest.fixture
def nordlys():
    """Nordlys AS with a board, a CEO, a deputy, a signatory and a procuration holder."""
    company = company_make(name="Nordlys AS")
    chair = person_make(full_name="Ingrid Chair")
    role_make(company=company, role_key="board_chair", person=chair)
    role_make(company=company, role_key="signature_right", person=chair)
    role_make(company=company, role_key="board_member", person=person_make(full_name="Bjørn Member"))
    role_make(company=company, role_key="ceo", person=person_make(full_name="Siri Ceo"))
    role_make(company=company, role_key="deputy_board_member", person=person_make(full_name="Dag Deputy"))
    signatory = person_make(full_name="Sven Signatory")
    role_make(company=company, role_key="signature_right", person=signatory)
    role_make(company=company, role_key="procuration", person=signatory)
    role_make(company=company, role_key="procuration", person=person_make(full_name="Pia Prokura"))
    former = person_make(full_name="Left The Board")
    role_make(company=company, role_key="board_member", person=former, to_date=date(2020, 1, 1))
    role_make(company=company, role_key="auditor", holder_company=company_make(name="Revisor AS"))
    return company


def test_the_basic_setting_screens_only_the_beneficial_owners_when_there_are_some(nordlys):
    fjell = company_make(name="Fjell Holding AS")
    owns(fjell, nordlys, 50)
    owns(person_make(full_name="Kari Nordmann"), fjell, 62)

    [kari] = persons_to_screen(company_uuid=nordlys.uuid, setting_key=BASIC)

    assert kari.full_name == "Kari Nordmann" and kari.entity_monitoring_type_key == "beneficial_owners"
    assert kari.effective_share == Decimal("0.31") and len(kari.chains) == 1
    assert kari.role_keys == ()  # no role in Nordlys AS itself
    assert kari.reason == "Owns 31.0% of Nordlys AS through Fjell Holding AS (62.0% × 50.0%)"


def test_without_a_beneficial_owner_the_board_and_the_ceo_stand_in(nordlys):
    minority = person_make(full_name="Mina Minority")
    owns(minority, nordlys, 10)
    role_make(company=nordlys, role_key="board_member", person=minority)

    candidates = persons_to_screen(company_uuid=nordlys.uuid, setting_key=BASIC)

    assert [c.full_name for c in candidates] == ["Ingrid Chair", "Siri Ceo", "Bjørn Member", "Mina Minority"]
    assert {c.entity_monitoring_type_key for c in candidates} == {"alternative_beneficial_owners"}
    chair, ceo, member, mina = candidates
    assert chair.role_keys == ("board_chair", "signature_right") and chair.effective_share is None
    assert chair.reason == (
        "Chair of the board of Nordlys AS; no person holds 25% or more in every link of an ownership chain"
    )
    assert ceo.reason.startswith("CEO of Nordlys AS; ")
    assert mina.role_keys == ("board_member", "shareholder") and mina.effective_share == Decimal("0.1")
    assert mina.reason.endswith("(owns 10.0% of Nordlys AS in all)")


def test_nobody_is_suggested_for_a_company_without_owners_or_board():
    company = company_make(name="Tom AS")
    role_make(company=company, role_key="signature_right", person=person_make(full_name="Sven Signatory"))

    assert persons_to_screen(company_uuid=company.uuid, setting_key=BASIC) == []


def test_the_extended_setting_adds_board_ceo_signatories_and_procuration_each_once(nordlys):
    owns(person_make(full_name="Kari Nordmann"), nordlys, 40)
    assert set(screened(nordlys)) == {"Kari Nordmann"}  # the basic setting: the owner only
    owns(nordlys.roles.get(company_role_type__key="board_chair").holder_person, nordlys, 30)

    candidates = persons_to_screen(company_uuid=nordlys.uuid, setting_key=EXTENDED)

    assert [(c.full_name, c.entity_monitoring_type_key, c.role_keys) for c in candidates] == [
        ("Kari Nordmann", "beneficial_owners", ("shareholder",)),
        ("Ingrid Chair", "beneficial_owners", ("board_chair", "signature_right", "shareholder")),
        ("Siri Ceo", "alternative_beneficial_owners", ("ceo",)),
        ("Bjørn Member", "alternative_beneficial_owners", ("board_member",)),
        ("Sven Signatory", "alternative_beneficial_owners", ("signature_right", "procuration")),
        ("Pia Prokura", "alternative_beneficial_owners", ("procuration",)),
    ]
    by_name = {c.full_name: c for c in candidates}
    assert by_name["Kari Nordmann"].reason == "Owns 40.0% of Nordlys AS directly"
    assert by_name["Ingrid Chair"].reason == "Owns 30.0% of Nordlys AS directly; also chair of the board and signatory"
    assert by_name["Sven Signatory"].reason == (
        "Signatory and holder of procuration of Nordlys AS; "
        "screened under the extended setting (board, CEO, signatories and procuration holders)"
    )
    assert by_name["Sven Signatory"].chains == () and by_name["Sven Signatory"].effective_share is None


def test_the_reason_names_every_qualifying_chain_and_the_rest(nordlys):
    kari = person_make(full_name="Kari Nordmann")
    east, west, weak = company_make(name="Øst AS"), company_make(name="Vest AS"), company_make(name="Svak AS")
    top = company_make(name="Topp AS")
    owns(kari, top, "33.3333")
    owns(top, east, 100)
    owns(kari, west, 50)
    owns(east, nordlys, 30)
    owns(west, nordlys, 40)
    owns(kari, weak, 100)
    owns(weak, nordlys, 10)

    [owner] = persons_to_screen(company_uuid=nordlys.uuid, setting_key=BASIC)

    assert owner.reason == (
        "Owns 40.0% of Nordlys AS: 20.0% through Vest AS (50.0% × 40.0%); "
        "10.0% through Topp AS and then Øst AS (33.3333% × 100.0% × 30.0%); "
        "10.0% through chains with a link under 25%"
    )


def test_it_reads_a_bounded_number_of_queries(nordlys, django_assert_num_queries):
    fjell = company_make(name="Fjell Holding AS")
    owns(fjell, nordlys, 50)
    owns(person_make(full_name="Kari Nordmann"), fjell, 62)

    with django_assert_num_queries(1 + 2 + 1):  # company, two levels of owners, the roles
        persons_to_screen(company_uuid=nordlys.uuid, setting_key=EXTENDED)


def test_an_unknown_setting_is_refused(nordlys):
    with pytest.raises(ValueError, match="setting_key must be one of"):
        persons_to_screen(company_uuid=nordlys.uuid, setting_key="everyone")


def test_the_worked_example_of_docs_ownership_md():
    nordlys, fjell, svak = (company_make(name=name) for name in ("Nordlys AS", "Fjell Holding AS", "Svak AS"))
    a, b = company_make(name="A Holding AS"), company_make(name="B Holding AS")
    kari, ola, per, siri = (person_make(full_name=name) for name in ("Kari", "Ola", "Per", "Siri"))
    for holder, owned, percent in [
        (kari, fjell, 62), (fjell, nordlys, 50), (ola, fjell, 30), (kari, svak, 100), (svak, nordlys, 20),
        (per, nordlys, 24), (siri, a, 100), (a, b, 50), (b, a, 50), (b, nordlys, 30),
    ]:
        owns(holder, owned, percent)
    role_make(company=nordlys, role_key="board_chair", person=person_make(full_name="Ingrid Chair"))

    candidates = persons_to_screen(company_uuid=nordlys.uuid, setting_key=BASIC)

    assert [(c.full_name, c.effective_share) for c in candidates] == [
        ("Kari", Decimal("0.51")),
        ("Ola", Decimal("0.15")),
        ("Siri", Decimal("0.15")),
    ]
    assert candidates[0].reason == (
        "Owns 51.0% of Nordlys AS: 31.0% through Fjell Holding AS (62.0% × 50.0%); "
        "20.0% through chains with a link under 25%"
    )
