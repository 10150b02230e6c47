"""The company page's screening card (htmx, from the cached screening state): where the company's
screening stands, with links to its cases; a company nobody screens says so."""

from __future__ import annotations

from screening import freshness
from service.companies.models import Company
from tests.screening.helpers import QUEUE, api_of, cases_make, member_make
from tests.screening.steps import review


def _card(client, company_uuid) -> str:
    response = client.get(f"/screening/related-companies/{company_uuid}/", HTTP_HX_REQUEST="true")
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


def test_a_confirmed_hit_stays_on_the_card_after_its_case_is_closed(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    response = review(api_of(officer), screened.config_uuid, str(screened.sanction_case.uuid), "confirmed_hit", "match")
    assert response.status_code == 201, response.json()
    freshness.forget(organisation_uuid=officer.organisation.app_customer_uuid)

    card = _card(officer.client(), screened.company.uuid)

    assert 'border-danger" data-testid="company-screening"' in card
    assert ('data-testid="confirmed-hits">Confirmed sanction hit: reviewed cases found that the company or a person '
            'behind it is the listed one.') in card
    assert f'href="{QUEUE}?company={screened.company.uuid}&amp;status=complete">The closed cases</a> say who.' in card
    assert '<span class="badge hit-sanction">1 sanction</span>' in card.split('data-testid="confirmed-cases">')[1]
    assert 'data-testid="open-cases">0<' in card and 'data-testid="open-hits"' not in card


def test_the_card_opened_on_its_own_leads_to_its_company_page(lists):
    officer = member_make("Nordbank ASA", "ingrid")
    screened = cases_make(officer)
    response = officer.client().get(f"/screening/related-companies/{screened.company.uuid}/")
    assert (response.status_code, response["Location"]) == (302, f"/companies/{screened.company.uuid}/")
