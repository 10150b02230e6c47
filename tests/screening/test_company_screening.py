"""The company page's screening card (htmx, from the cached screening state): where the company's
screening stands, with links to its cases; a company nobody screens says so."""

from __future__ import annotations

from service.companies.models import Company
from tests.screening.helpers import QUEUE, cases_make, member_make


def _card(client, company_uuid) -> str:
    response = client.get(f"/screening/related-companies/{company_uuid}/")
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_companys_open_cases_and_leads_to_them(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)  # Nordlys AS: its owner Dragunov is a UN sanction hit
    client = officer.client()

    page = client.get(f"/companies/{screened.company.uuid}/").content.decode()
    assert page.index('data-testid="company-screening-slot"') < page.index('id="credit-risk"')  # before the score
    card = _card(client, screened.company.uuid)
    assert 'border-danger" data-testid="company-screening"' in card
    assert 'data-testid="open-hits">Open sanction case for this company or the persons behind it' in card
    assert '<span class="badge hit-sanction">1 sanction</span>' in card
    assert f'href="{QUEUE}?company={screened.company.uuid}"' in card
    assert 'data-testid="active-monitorings">1<' in card


def test_a_company_nobody_screens_says_so(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    cases_make(officer)
    other = Company.objects.create(name="Havbris AS", org_nr="987654325")
    assert "Not screened: the company is on no watchlist that screening follows." in _card(officer.client(), other.uuid)


def test_without_screening_set_up_it_says_so(db):
    officer = member_make("Nordbank ASA", "ingrid")
    other = Company.objects.create(name="Havbris AS", org_nr="987654325")
    assert "Screening is not set up for your organisation." in _card(officer.client(), other.uuid)
