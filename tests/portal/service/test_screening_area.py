"""portal.service.screening against the real service, in-process: typed answers, typed errors."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from portal.service import ServiceBadRequest, ServiceForbidden, ServiceNotFound, service_client_for
from portal.service.screening import PersonAddress
from service.auth.services import api_user_create, app_customer_create
from service.screening.subscription import config_companies_sync
from tests.conftest import ALL_ROLES
from tests.service.companies.factories import geo_make
from tests.service.screening.watchlists.helpers import nordlys_owned_by_kari


def _client(name: str, roles=ALL_ROLES, send=ALL_ROLES):
    organisation = app_customer_create(name=name)
    credentials = api_user_create(app_customer=organisation, name=f"{name} API", role_keys=roles)
    return service_client_for(
        client_id=credentials.token_auth_id,
        client_secret=credentials.token_auth_secret,
        role_keys=send,
        app_customer_uuid=organisation.uuid,
    )


@pytest.fixture
def client(db):
    return _client("Nordbank ASA")


def test_configs_are_created_read_and_updated(client):
    screening = client.screening
    assert screening.current_config() is None
    settings = screening.suggestion_settings()
    extended = next(s for s in settings if s.extended)
    config = screening.create_config(auto_approve_monitoring=True)
    assert (config.suggestion_setting_key, config.auto_approve_monitoring) == ("enin_calculated_beneficial_owners", True)
    updated = screening.update_config(config.uuid, suggestion_setting_uuid=extended.uuid, auto_approve_monitoring=False)
    assert (updated.suggestion_setting_uuid, updated.auto_approve_monitoring) == (extended.uuid, False)
    assert screening.current_config() == screening.config(config.uuid)


def test_list_categories_and_their_selection(client):
    screening = client.screening
    config = screening.create_config()
    categories = {c.key: c for c in screening.list_categories()}
    assert categories["pep"].is_pep and not categories["un_security_council"].is_pep
    assert categories["un_security_council"].entry_count == 0  # nothing imported in this test
    screening.select_category(config.uuid, categories["un_security_council"].uuid)
    with pytest.raises(ServiceBadRequest) as refused:
        screening.select_category(config.uuid, categories["un_security_council"].uuid)
    assert refused.value.errors[0]["loc"] == ["body", "screening_list_category_uuid"]
    [selection] = screening.selected_categories(config.uuid)
    screening.unselect_category(config.uuid, selection.uuid)
    assert screening.selected_categories(config.uuid) == []


def test_watchlists_suggestions_and_decisions(client):
    screening = client.screening
    config = screening.create_config()
    nordlys, _ = nordlys_owned_by_kari()
    watchlist = client.watchlists.create("Kunder")
    from portal.service.watchlists import CompanyNumber

    client.watchlists.add(watchlist.uuid, [CompanyNumber(nordlys.org_nr)])
    link = screening.attach_watchlist(config.uuid, watchlist.uuid)
    assert screening.attached_watchlists(config.uuid) == [link]
    config_companies_sync(config_uuid=config.uuid, company_uuids=[nordlys.uuid])

    preview = screening.suggestion_preview(config.uuid)
    assert preview.company_count == 1 and preview.for_setting(config.suggestion_setting_uuid).person_count == 1

    page = screening.monitorings(config.uuid, status_key="pending")
    assert {m.entity_name for m in page.rows} == {"Kari Nordmann", "Nordlys AS"} and not page.has_more
    kari = next(m for m in page.rows if m.entity_key == "person")
    assert kari.related_company.name == "Nordlys AS" and kari.type_key == "beneficial_owners"

    [suggested] = screening.suggested_persons(config.uuid, [nordlys.uuid])[nordlys.uuid]
    assert suggested.effective_share == Decimal("0.31")
    assert [(link.holder_name, link.share) for link in suggested.chains[0]] == [
        ("Kari Nordmann", Decimal("0.62")),
        ("Fjell Holding AS", Decimal("0.5")),
    ]

    decided = screening.decide(config.uuid, kari.uuid, approved=True, comment="ok")
    assert decided.status_key == "active" and decided.decisions[0].comment == "ok"
    removed = screening.remove_monitoring(config.uuid, kari.uuid, reason="Sold")
    assert (removed.status_key, removed.removal_reason) == ("removed", "Sold")
    screening.detach_watchlist(config.uuid, link.uuid)
    assert screening.attached_watchlists(config.uuid) == []


def test_customer_persons_with_national_ids_only_with_the_role(db):
    client = _client("Nordbank ASA")
    screening = client.screening
    config = screening.create_config()
    geo_make(country="NO")
    person = screening.create_customer_person(config.uuid, full_name="Kari Nordmann", gender_uuid=screening.genders()[0].uuid)
    screening.add_national_id(person.uuid, schema="NO", number="15108695088")
    screening.add_location(person.uuid, PersonAddress("Storgata 1", "0155", "Oslo", "NO"))
    other = next(t for t in screening.monitoring_types() if t.key == "other")
    monitoring = screening.monitor_customer_person(config.uuid, person.uuid, monitoring_type_uuid=other.uuid, approve=True)
    assert (monitoring.status_key, monitoring.customer_person_uuid) == ("active", person.uuid)
    detail = screening.customer_person(person.uuid)
    assert [(i.schema, i.number) for i in detail.national_ids] == [("NO", "15108695088")]
    assert detail.locations[0].one_line == "Storgata 1, 0155 Oslo, NO"

    client.role_keys = ["aml"]
    assert screening.customer_person(person.uuid).national_ids is None
    with pytest.raises(ServiceForbidden):
        screening.add_national_id(person.uuid, schema="NO", number="15108695088")


def test_a_customer_persons_national_id_and_address_are_removed_by_their_uuid(db):
    client = _client("Nordbank ASA")
    screening = client.screening
    config = screening.create_config()
    geo_make(country="NO")
    person = screening.create_customer_person(config.uuid, full_name="Kari Nordmann")
    other = screening.create_customer_person(config.uuid, full_name="Per Hansen")
    for someone, number in ((person, "15108695088"), (other, "01010100131")):  # a number is one person's
        screening.add_national_id(someone.uuid, schema="NO", number=number)
        screening.add_location(someone.uuid, PersonAddress("Storgata 1", "0155", "Oslo", "NO"))
    hers, theirs = screening.customer_person(person.uuid), screening.customer_person(other.uuid)
    [national_id], [place], [others_id], [others_place] = hers.national_ids, hers.locations, theirs.national_ids, theirs.locations
    assert national_id.masked == "NO 151086*****" and place.address == PersonAddress("Storgata 1", "0155", "Oslo", "NO")

    with pytest.raises(ServiceNotFound) as not_hers:
        screening.remove_national_id(person.uuid, others_id.uuid)
    assert not_hers.value.errors[0]["loc"] == ["path", "national_identification_uuid"]
    with pytest.raises(ServiceNotFound) as not_hers:
        screening.remove_location(person.uuid, others_place.uuid)
    assert not_hers.value.errors[0]["loc"] == ["path", "customer_person_location_uuid"]
    client.role_keys = ["aml"]
    with pytest.raises(ServiceForbidden):
        screening.remove_national_id(person.uuid, national_id.uuid)

    client.role_keys = ALL_ROLES
    assert screening.remove_national_id(person.uuid, national_id.uuid) is None
    assert screening.remove_location(person.uuid, place.uuid) is None
    detail = screening.customer_person(person.uuid)
    assert (detail.national_ids, detail.locations) == ((), ())
    assert len(screening.customer_person(other.uuid).locations) == 1


def test_a_customer_person_is_corrected_sending_only_the_fields_given(client):
    screening = client.screening
    config = screening.create_config()
    female = next(g for g in screening.genders() if g.key == "female")
    person = screening.create_customer_person(config.uuid, full_name="Kari Nordmann", birth_date=date(1986, 10, 15), gender_uuid=female.uuid)

    renamed = screening.update_customer_person(person.uuid, full_name="Kari Hansen")
    assert (renamed.full_name, renamed.birth_date, renamed.gender_key) == ("Kari Hansen", date(1986, 10, 15), "female")
    cleared = screening.update_customer_person(person.uuid, birth_date=None, gender_uuid=None)
    assert (cleared.full_name, cleared.birth_date, cleared.gender_key) == ("Kari Hansen", None, None)

    with pytest.raises(ServiceBadRequest) as nothing:
        screening.update_customer_person(person.uuid)
    assert nothing.value.errors[0]["loc"] == ["body"]
    with pytest.raises(ServiceBadRequest) as future:
        screening.update_customer_person(person.uuid, full_name=" ", birth_date=date(2999, 1, 1))
    assert [e["loc"] for e in future.value.errors] == [["body", "full_name"], ["body", "birth_date"]]
    theirs = _client("Fjordkreditt AS").screening
    with pytest.raises(ServiceNotFound):
        theirs.update_customer_person(person.uuid, full_name="Kari Hansen")


def test_another_organisations_config_is_not_found(client):
    theirs = _client("Fjordkreditt AS").screening.create_config()
    with pytest.raises(ServiceNotFound):
        client.screening.config(theirs.uuid)
    with pytest.raises(ServiceNotFound):
        client.screening.monitorings(theirs.uuid)
