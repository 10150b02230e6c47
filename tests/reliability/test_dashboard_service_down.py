"""The service unreachable from the dashboard: pages say so (503, not a 404 "no such company"
nor a 500) and work again once the service is back, without anyone doing anything."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.portal.conftest import make_member, member  # noqa: F401  (the dashboard member)
from tests.reliability.cluster import TcpProxy
from tests.service.companies.factories import company_make

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def service_behind_proxy(live_server, settings):
    """The dashboard talks to the service over HTTP through a relay the test can cut."""
    proxy = TcpProxy(urlsplit(live_server.url).port)
    settings.VAKT_SERVICE_URL = f"http://127.0.0.1:{proxy.port}"
    settings.VAKT_SERVICE_TIMEOUT_SECONDS = 2
    yield proxy
    proxy.close()


def test_it_says_the_service_is_unreachable_and_recovers(member, service_behind_proxy):  # noqa: F811
    company = company_make(name="Nordlys Handel AS")
    client = member.client()
    assert client.get(f"/companies/{company.uuid}/").status_code == 200

    service_behind_proxy.cut()
    down = client.get(f"/companies/{company.uuid}/")
    assert down.status_code == 503 and down["Retry-After"] == "30"
    assert "cannot be reached" in down.content.decode() and "No such company" not in down.content.decode()
    listing = client.get("/watchlists/")  # a page that explains it in place
    assert "could not be reached" in listing.content.decode()
    panel = client.get(f"/companies/{company.uuid}/", HTTP_HX_REQUEST="true")
    assert panel.status_code == 503 and "could not be reached" in panel.content.decode()

    service_behind_proxy.restore()
    back = client.get(f"/companies/{company.uuid}/")
    assert back.status_code == 200 and "Nordlys Handel AS" in back.content.decode()
