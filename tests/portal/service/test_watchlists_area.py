"""portal.service.watchlists against a fake service answering the shapes of /work/wt/CONTRACT.md."""

from datetime import datetime, timezone
from uuid import UUID, uuid4

import pytest

from portal.service import ServiceBadRequest, ServiceNotFound
from portal.service.watchlists import AddResult, CompanyNumber, ReplaceResult, bad_entries
from tests.portal.service.fakes import FakeService, fake_client

ACU = str(uuid4())
WATCHLIST = str(uuid4())


def _watchlist(name="Customers", count=2, uuid=WATCHLIST) -> dict:
    return {
        "uuid": uuid, "app_customer_uuid": ACU, "watchlist_name": name, "company_count": count,
        "create_timestamp": "2025-03-01T09:30:00Z", "update_timestamp": "2025-03-02T10:00:00+01:00",
        "app_url": f"/watchlists/{uuid}/",
    }


def _row(org_nr: str, *, risk_class="low", flags=("negative_total_equity",)) -> dict:
    company = str(uuid4())
    return {
        "uuid": str(uuid4()), "watchlist_uuid": WATCHLIST, "added_timestamp": "2025-03-01T09:31:00Z",
        "company": {"uuid": company, "name": f"Firma {org_nr} AS", "org_nr": org_nr, "org_nr_schema": "NO",
                    "app_url": f"/companies/{company}/"},
        "company_credit_risk": {"risk_score": 31.5, "risk_class": risk_class} if risk_class else None,
        "company_flag_type_keys": list(flags),
    }


@pytest.fixture
def service() -> FakeService:
    return FakeService()


@pytest.fixture
def watchlists(service):
    return fake_client(service, app_customer_uuid=ACU).watchlists


def test_it_lists_the_organisations_watchlists(service, watchlists):
    service.answer("GET", f"/analysis/v1/app-customer/{ACU}/watchlist", [_watchlist("A", 0, str(uuid4())), _watchlist("B", 2)])

    found = watchlists.list()

    assert [(w.name, w.company_count) for w in found] == [("A", 0), ("B", 2)]
    assert found[1].uuid == UUID(WATCHLIST) and found[1].app_customer_uuid == UUID(ACU)
    assert found[1].created_at == datetime(2025, 3, 1, 9, 30, tzinfo=timezone.utc)
    assert found[1].updated_at == datetime(2025, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_it_creates_renames_and_deletes(service, watchlists):
    service.answer("POST", f"/analysis/v1/app-customer/{ACU}/watchlist", _watchlist("Suppliers", 0), status=201)
    service.answer("PATCH", f"/analysis/v1/watchlist/{WATCHLIST}", _watchlist("Key suppliers", 0))
    service.answer("DELETE", f"/analysis/v1/watchlist/{WATCHLIST}", None, status=204)

    assert watchlists.create("Suppliers").name == "Suppliers"
    assert watchlists.rename(WATCHLIST, "Key suppliers").name == "Key suppliers"
    assert watchlists.delete(WATCHLIST) is None

    assert [(s.method, s.body) for s in service.sent] == [
        ("POST", {"watchlist_name": "Suppliers"}),
        ("PATCH", {"watchlist_name": "Key suppliers"}),
        ("DELETE", None),
    ]


def test_it_reads_each_company_with_its_risk_and_flags(service, watchlists):
    service.answer("GET", f"/analysis/v1/watchlist/{WATCHLIST}/company", [_row("923609016"), _row("914778271", risk_class=None, flags=())])

    first, second = watchlists.companies(WATCHLIST)

    assert first.company.name == "Firma 923609016 AS" and first.company.identifier == "NO923609016"
    assert (first.risk_class, first.risk_score, first.flag_keys) == ("low", 31.5, ("negative_total_equity",))
    assert first.watchlist_uuid == UUID(WATCHLIST) and first.added_at.year == 2025
    assert (second.risk_class, second.risk_score, second.flag_keys) == (None, None, ())


def test_it_adds_companies_by_number(service, watchlists):
    service.answer("POST", f"/analysis/v1/watchlist/{WATCHLIST}/company", {"added_count": 1, "ignored_count": 1, "company_count": 3})

    result = watchlists.add(WATCHLIST, [CompanyNumber("923609016"), CompanyNumber("5560360793", "SE")])

    assert result == AddResult(added_count=1, ignored_count=1, company_count=3)
    assert service.sent[-1].body == [
        {"org_nr": "923609016", "org_nr_schema": "NO"},
        {"org_nr": "5560360793", "org_nr_schema": "SE"},
    ]


def test_a_refused_add_names_each_bad_entry_by_index(service, watchlists):
    service.answer(
        "POST", f"/analysis/v1/watchlist/{WATCHLIST}/company",
        {"detail": "2 entries are invalid.", "code": "invalid_body", "errors": [
            {"loc": ["body", 0, "org_nr"], "msg": "'12' is not a valid NO organisation number"},
            {"loc": ["body", 2, "org_nr_schema"], "msg": "unknown schema 'XX'"},
        ]},
        status=400,
    )

    with pytest.raises(ServiceBadRequest) as caught:
        watchlists.add(WATCHLIST, [CompanyNumber("12"), CompanyNumber("923609016"), CompanyNumber("1", "XX")])

    assert bad_entries(caught.value) == {0: ["'12' is not a valid NO organisation number"], 2: ["unknown schema 'XX'"]}


def test_it_removes_one_company_or_all(service, watchlists):
    company = uuid4()
    service.answer("DELETE", f"/analysis/v1/watchlist/{WATCHLIST}/company/{company}", None, status=204)
    service.answer("DELETE", f"/analysis/v1/watchlist/{WATCHLIST}/company", {"removed_count": 4})

    watchlists.remove(WATCHLIST, company)
    assert watchlists.remove_all(WATCHLIST) == 4


def test_replace_sends_the_whole_list_in_one_put(service, watchlists):
    service.answer("PUT", f"/analysis/v1/watchlist/{WATCHLIST}/company",
                   {"added_count": 1, "removed_count": 2, "kept_count": 1, "company_count": 2})

    result = watchlists.replace(WATCHLIST, [CompanyNumber("923 609 016"), CompanyNumber("982463718")])

    assert result == ReplaceResult(added_count=1, removed_count=2, kept_count=1, company_count=2)
    assert [(s.method, s.path) for s in service.sent] == [("PUT", f"/analysis/v1/watchlist/{WATCHLIST}/company")]
    assert service.sent[0].body == [{"org_nr": "923 609 016", "org_nr_schema": "NO"}, {"org_nr": "982463718", "org_nr_schema": "NO"}]


def test_replace_with_a_bad_list_raises_with_the_bad_entries(service, watchlists):
    service.answer("PUT", f"/analysis/v1/watchlist/{WATCHLIST}/company",
                   {"detail": "bad", "code": "invalid_request", "errors": [{"loc": ["body", 0, "org_nr"], "msg": "bad"}]}, status=400)

    with pytest.raises(ServiceBadRequest) as caught:
        watchlists.replace(WATCHLIST, [CompanyNumber("12")])

    assert bad_entries(caught.value) == {0: ["bad"]}
    assert [s.method for s in service.sent] == ["PUT"]


def test_another_organisations_watchlist_is_not_found(service, watchlists):
    with pytest.raises(ServiceNotFound):
        watchlists.get(uuid4())


def test_a_watchlist_path_cannot_reach_another_path(service, watchlists):
    with pytest.raises(ServiceNotFound):
        watchlists.get("../app-customer/x")

    assert service.sent[-1].path == "/analysis/v1/watchlist/..%2Fapp-customer%2Fx"
