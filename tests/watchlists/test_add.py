"""Filling a watchlist by paste, CSV or search: bad lines are shown and nothing is added until fixed or dropped."""

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from portal.models import Member
from portal.service.client import ServiceClient
from service.auth.services import api_user_create
from service.watchlists.models import WatchlistCompany
from tests.conftest import ALL_ROLES, ApiCaller
from tests.portal.conftest import make_member
from tests.service.screening.helpers import config_make
from tests.service.screening.watchlists.helpers import attach
from tests.watchlists.helpers import create, paste


def _spaced(org_nr):
    return f"{org_nr[:3]} {org_nr[3:6]} {org_nr[6:]}"


def _on_the_list(watchlist) -> set:
    return set(WatchlistCompany.objects.filter(watchlist_id=watchlist).values_list("company_id", flat=True))


def _writes_recorded(monkeypatch) -> list[tuple[str, str]]:
    """(method, path) of every write the dashboard sends to the service from now on."""
    writes = []
    send = ServiceClient.request

    def recorded(self, method, api, path, **kwargs):
        if method.upper() != "GET":
            writes.append((method.upper(), path))
        return send(self, method, api, path, **kwargs)

    monkeypatch.setattr(ServiceClient, "request", recorded)
    return writes


def make_caller_of(member) -> ApiCaller:
    """An API user of the member's organisation holding every role (to set screening up)."""
    return ApiCaller(Client(), api_user_create(app_customer=member.app_customer, name="Setup", role_keys=ALL_ROLES))


def _rows(client, watchlist):
    return client.get(f"/watchlists/{watchlist}/").content.decode().count('data-testid="watchlist-company"')


def test_it_adds_pasted_numbers_with_or_without_spaces_and_prefix(member, companies):
    client = member.client()
    watchlist = create(client)
    a, b, c = companies

    response = paste(client, watchlist, f"{a.org_nr}\nNO {_spaced(b.org_nr)}\n\nNO{c.org_nr}\n{a.org_nr}\n", follow=True)

    page = response.content.decode()
    assert "Added 3 companies (1 already on the list); 3 on the watchlist now." in page
    assert _rows(client, watchlist) == 3


def test_it_shows_each_bad_line_with_its_number_and_reason_and_adds_nothing(member, companies):
    client = member.client()
    watchlist = create(client)
    text = f"{companies[0].org_nr}\n\n923 609 017\n{companies[1].org_nr}\n999999999\n"

    response = paste(client, watchlist, text)

    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was added:" in page and "2 of 4 lines are not right" in page
    assert '<tr data-testid="bad-line"><td>3</td><td class="font-monospace text-nowrap">923 609 017</td><td>' in page
    # what to fix, in words: not python-stdnum's "(The number's checksum or check digit is invalid.)"
    assert "is not a valid NO organisation number: its check digit does not match (a digit mistyped or two swapped?)" in page
    assert '<tr data-testid="bad-line"><td>5</td>' in page and "NO999999999 is not in the register" in page
    assert f">{text}</textarea>" in page  # kept for fixing
    assert "Drop the bad lines and add the rest" in page
    assert _rows(client, watchlist) == 0


def test_it_adds_the_rest_when_the_bad_lines_are_dropped(member, companies):
    client = member.client()
    watchlist = create(client)

    response = paste(client, watchlist, f"{companies[0].org_nr}\nnonsense\n{companies[1].org_nr}", drop_bad="1", follow=True)

    assert "Added 2 companies; 2 on the watchlist now. Dropped 1 bad line (2)." in response.content.decode()
    assert _rows(client, watchlist) == 2


def test_it_adds_from_a_csv_file_with_a_header(member, companies):
    client = member.client()
    watchlist = create(client)
    csv = f"org_nr,org_nr_schema\n{companies[0].org_nr},NO\n{_spaced(companies[1].org_nr)},NO\n".encode()

    response = client.post(
        f"/watchlists/{watchlist}/add/",
        {"csv_file": SimpleUploadedFile("kunder.csv", csv, "text/csv"), "mode": "add"},
        follow=True,
    )

    assert "Added 2 companies; 2 on the watchlist now." in response.content.decode()


def test_it_shows_a_csv_files_bad_lines_by_their_line_in_the_file(member, companies):
    client = member.client()
    watchlist = create(client)
    csv = f"org_nr\n{companies[0].org_nr}\n12345\n".encode()

    response = client.post(f"/watchlists/{watchlist}/add/", {"csv_file": SimpleUploadedFile("kunder.csv", csv), "mode": "add"})

    page = response.content.decode()
    assert response.status_code == 200
    assert "in kunder.csv (its text is below)" in page
    assert '<tr data-testid="bad-line"><td>3</td><td class="font-monospace text-nowrap">12345</td>' in page
    assert _rows(client, watchlist) == 0


def test_it_refuses_a_binary_upload_with_a_message(member, companies):
    client = member.client()
    watchlist = create(client)
    response = client.post(f"/watchlists/{watchlist}/add/", {"csv_file": SimpleUploadedFile("x.xlsx", b"PK\x03\x04\x00\x00")})
    assert "The file is not a text or CSV file." in response.content.decode()


def test_it_refuses_a_file_too_large_to_read_with_a_message(member, companies, monkeypatch):
    monkeypatch.setattr("watchlists.numbers.MAX_UPLOAD_BYTES", 1000)
    client = member.client()
    watchlist = create(client)
    big = (f"{companies[0].org_nr}\n" * 200).encode()  # 2,000 bytes, one company

    response = client.post(f"/watchlists/{watchlist}/add/", {"csv_file": SimpleUploadedFile("kunder.csv", big)})

    assert "The file is too large" in response.content.decode()
    assert _rows(client, watchlist) == 0


def test_it_asks_for_numbers_when_none_are_given(member):
    client = member.client()
    watchlist = create(client)
    assert "Paste or upload at least one organisation number." in paste(client, watchlist, "\n \n").content.decode()


def test_it_adds_a_company_found_by_search(member, companies):
    client = member.client()
    watchlist = create(client)

    results = client.get(f"/watchlists/{watchlist}/search/", {"q": "fjellvann"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Fjellvann Bygg AS" in results and f'value="NO{companies[1].org_nr}"' in results

    response = paste(client, watchlist, f"NO{companies[1].org_nr}", follow=True)
    assert "Added 1 company; 1 on the watchlist now." in response.content.decode()


def test_it_replaces_the_content_in_one_call(member, companies, monkeypatch):
    client = member.client()
    watchlist = create(client)
    paste(client, watchlist, f"{companies[0].org_nr}\n{companies[1].org_nr}")
    writes = _writes_recorded(monkeypatch)

    response = paste(client, watchlist, f"{companies[1].org_nr}\n{companies[2].org_nr}", mode="replace", follow=True)

    page = response.content.decode()
    assert "Watchlist replaced: 2 companies now (1 new, 1 removed)." in page
    assert "Havbris Teknologi AS" not in page.split('data-testid="watchlist-companies"')[1].split("</table>")[0]
    assert writes == [("PUT", f"v1/watchlist/{watchlist}/company")]


def test_a_replace_the_service_refuses_leaves_the_list_as_it_was(companies, monkeypatch):
    """An admin passes the dashboard's rule; the service still refuses the removals (the organisation's
    calls lack `aml` and screening follows the list), and nothing was added either."""
    admin = make_member("Vestkyst Sparebank", "ada", roles=["credit_check"], role=Member.Role.ADMIN)
    client = admin.client()
    watchlist = create(client)
    paste(client, watchlist, f"{companies[0].org_nr}\n{companies[1].org_nr}")
    screening = make_caller_of(admin)
    assert attach(screening, config_make(screening)["uuid"], watchlist).status_code == 201
    writes = _writes_recorded(monkeypatch)

    response = paste(client, watchlist, f"{companies[1].org_nr}\n{companies[2].org_nr}", mode="replace")

    page = response.content.decode()
    assert "The list was not replaced. Not allowed for your role:" in page and "followed by screening" in page
    assert writes == [("PUT", f"v1/watchlist/{watchlist}/company")]
    assert _on_the_list(watchlist) == {companies[0].uuid, companies[1].uuid}


def test_a_replace_whose_answer_was_lost_does_not_claim_the_list_is_unchanged(member, companies, monkeypatch):
    from portal.service import ServiceNoAnswer

    client = member.client()
    watchlist = create(client)

    def no_answer(*args, **kwargs):
        raise ServiceNoAnswer(504, "no_answer", "The gateway answered 504.")

    monkeypatch.setattr("portal.service.watchlists.WatchlistsArea.replace", no_answer)

    page = paste(client, watchlist, companies[1].org_nr, mode="replace").content.decode()

    assert "it is not known whether the change was saved" in page and "The list was not replaced" not in page


def test_a_refused_replace_keeps_the_list_as_it_was(member, companies):
    client = member.client()
    watchlist = create(client)
    paste(client, watchlist, companies[0].org_nr)

    response = paste(client, watchlist, f"{companies[1].org_nr}\n12345", mode="replace")

    page = response.content.decode()
    assert 'data-testid="bad-line"' in page and "Nothing was changed:" in page
    assert _on_the_list(watchlist) == {companies[0].uuid}
