"""client.paginate walks a composite collection page by page (spec §4.7 rule 6)."""

import pytest

from portal.service import ServiceBadRequest
from service.auth.models import AppCustomer
from service.auth.services import app_membership_create


def _people(org, how_many: int) -> None:
    customer = AppCustomer.objects.get(uuid=org.app_customer_uuid)
    for n in range(how_many):
        app_membership_create(app_customer=customer, email=f"person{n:03}@nordbank.example", full_name=f"Person {n}")


def _counting(client) -> list[str]:
    """The URLs of the API requests the client sends (a requests response hook, not a stand-in)."""
    seen: list[str] = []
    client.session.hooks["response"].append(
        lambda response, *args, **kwargs: seen.append(response.request.path_url)
        if "/oauth/" not in response.request.path_url
        else None
    )
    return seen


def _memberships(org) -> str:
    return f"v1/app-customer/{org.app_customer_uuid}/app-membership"


def test_it_yields_every_element_in_three_requests(org, other_org, live_server):
    _people(org, 250)
    _people(other_org, 20)
    client = org.client(live_server.url)
    requests_sent = _counting(client)

    elements = list(client.paginate("analysis", _memberships(org), limit=100))

    assert len(elements) == 250
    assert len({element["uuid"] for element in elements}) == 250
    assert {element["app_customer_uuid"] for element in elements} == {str(org.app_customer_uuid)}
    assert [element["email"] for element in elements] == sorted(element["email"] for element in elements)
    assert len(requests_sent) == 3
    assert [url.split("?")[1] for url in requests_sent] == [
        "limit=100&offset=0",
        "limit=100&offset=100",
        "limit=100&offset=200",
    ]


def test_it_stops_on_has_more_when_the_last_page_is_full(org, live_server):
    _people(org, 200)
    client = org.client(live_server.url)
    requests_sent = _counting(client)

    elements = list(client.paginate("analysis", _memberships(org), limit=100))

    assert len(elements) == 200
    assert len(requests_sent) == 2


def test_an_empty_collection_is_one_request(org, live_server):
    client = org.client(live_server.url)
    requests_sent = _counting(client)

    assert list(client.paginate("analysis", _memberships(org), limit=100)) == []
    assert len(requests_sent) == 1


def test_it_is_lazy(org, live_server):
    _people(org, 250)
    client = org.client(live_server.url)
    requests_sent = _counting(client)

    pages = client.paginate("analysis", _memberships(org), limit=100)
    first = next(pages)

    assert first["email"] == "person000@nordbank.example"
    assert len(requests_sent) == 1


def test_a_bad_limit_is_a_bad_request(org, live_server):
    client = org.client(live_server.url)

    with pytest.raises(ServiceBadRequest) as caught:
        list(client.paginate("analysis", _memberships(org), limit=5000))

    assert caught.value.errors[0]["loc"] == ["query", "limit"]
