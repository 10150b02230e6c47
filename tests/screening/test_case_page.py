"""/screening/cases/<uuid>/: both sides of the match, the other cases of the entity, the report download."""

from __future__ import annotations

import io
import re
import uuid

import pytest
from pypdf import PdfReader

from django.utils import timezone

from portal.models import Member
from service.companies.models import Company
from tests.screening.helpers import QUEUE, api_of, case_url, cases_make, member_make
from service.screening.models import EntityMonitoring, ScreeningCase
from tests.service.screening.cases.steps import config_with
from tests.service.screening.helpers import monitoring_make


@pytest.fixture
def officer():
    return member_make("Nordbank ASA", "ingrid")


def _cell(html: str, testid: str) -> str:
    return re.search(rf'data-testid="{testid}">(.*?)</td>', html, re.DOTALL).group(1)


def test_it_shows_the_person_and_the_list_entry_side_by_side_with_the_matching_parts_marked(officer, lists):
    screened = cases_make(officer)

    page = officer.client().get(case_url(screened.sanction_case.uuid)).content.decode()

    query_name = _cell(page, "query-name")
    assert re.search(r'<mark class="np-match"[^>]*>Ivan<span class="visually-hidden"> \(Same as “ivan” in the other name\)</span></mark>', query_name)
    assert re.search(r'<mark class="np-match"[^>]*>Dragunov<span class="visually-hidden"> \(Same as “dragunov” in the other name\)</span></mark>', query_name)
    assert re.search(r'<mark class="np-match"[^>]*>DRAGUNOV<span class="visually-hidden">[^<]*</span></mark>', _cell(page, "listed-name"))
    assert "14.03.1966" in _cell(page, "query-birth-date") and "14.03.1966" in _cell(page, "listed-birth-dates")
    assert "agrees" in _cell(page, "listed-birth-dates")
    assert "RU" in _cell(page, "listed-nationalities")
    assert "DPRK" in _cell(page, "listed-programme") and "KPi.901" in _cell(page, "listed-source")
    assert "Passport 745120836 (RU)" in _cell(page, "listed-identifiers")  # to compare with the customer's documents
    assert "Vladivostok, Russian Federation" in _cell(page, "listed-addresses")
    assert 'data-testid="listed-positions"' not in page  # a sanction entry: no public function to give
    assert "Nordlys AS" in page and 'data-testid="no-reviews"' in page
    assert 'data-testid="review-form"' in page and "press <kbd>r</kbd>" in page


def test_it_shows_each_company_the_person_is_monitored_for_and_why(officer, lists):
    screened = cases_make(officer)
    owner = screened.sanction_case.entity_inquiry.person
    api = api_of(officer)
    fjord = Company.objects.create(name="Fjord Holding AS", org_nr="987654325")
    pending = monitoring_make(api, screened.config_uuid, person=owner.uuid, type_key="beneficial_owners",
                              related_company=fjord.uuid, monitoring_comment="Chair of the board, owner through a trust")
    gone = Company.objects.create(name="Gammel Kunde AS", org_nr="923456783")
    removed = monitoring_make(api, screened.config_uuid, person=owner.uuid, type_key="beneficial_owners", related_company=gone.uuid)
    EntityMonitoring.objects.filter(uuid=removed["entity_monitoring"]["uuid"]).update(
        removed_flag=True, removed_timestamp=timezone.now(), removal_reason="No longer a customer"
    )

    page = officer.client().get(case_url(screened.sanction_case.uuid)).content.decode()

    rows = re.findall(r'data-testid="monitored-for">(.*?)</div>\s*</div>', page, re.DOTALL)
    assert [("Nordlys AS" in r, "Fjord Holding AS" in r) for r in rows] == [(True, False), (False, True)]
    assert "Beneficial owner" in rows[0] and "Pending" not in rows[0]
    assert "Chair of the board, owner through a trust" in rows[1] and "Pending" in rows[1]
    assert f'/screening/monitorings/{pending["entity_monitoring"]["uuid"]}/' in rows[1]
    assert "Gammel Kunde AS" not in page


def test_a_company_case_offers_no_pep_confirmation(officer, lists):
    # PEP is a person's status; a hit on a company's own name is a sanction hit or none.
    screened = cases_make(officer)
    company = Company.objects.create(name="Koryo Fjord Trading AS", org_nr="987654325")
    monitoring_make(api_of(officer), screened.config_uuid, company=company.uuid, type_key="company", decision={"approved_flag": True})
    company_case = ScreeningCase.objects.get(entity_inquiry__company=company)

    company_page = officer.client().get(case_url(company_case.uuid)).content.decode()
    person_page = officer.client().get(case_url(screened.sanction_case.uuid)).content.decode()

    assert 'data-testid="review-form"' in company_page and 'name="pep_confirmed"' not in company_page
    # Beside the organisation number, what the list gives of it: no registration number here, not the entry's kind.
    assert _cell(company_page, "listed-registrations").strip() == "–"
    assert "NO <span class=\"small text-secondary\">(by its organisation number)</span>" in company_page
    assert 'name="pep_confirmed"' in person_page


def test_a_pep_case_gives_the_public_function_the_list_names(officer, lists):
    screened = cases_make(officer)

    page = officer.client().get(case_url(screened.pep_case.uuid)).content.decode()

    assert "Member of the Storting" in _cell(page, "listed-positions")  # what "PEP confirmed" is about
    assert 'data-testid="listed-programme"' not in page  # a PEP list gives no sanctions programme


def test_it_lists_the_other_cases_of_the_same_entity(officer, lists):
    screened = cases_make(officer)
    first = screened.sanction_case
    # A second hit on the same person (another entry of the list); made directly, as a later list version would.
    second = ScreeningCase.objects.create(
        screening_config=first.screening_config, entity_inquiry=first.entity_inquiry, list_category=first.list_category,
        list_source_id="KPi.902", list_entry=first.list_entry, list_content_hash="other", sanction_flag=True,
        score=0.8, explanation=first.explanation, case_status_key="complete",
    )

    page = officer.client().get(case_url(first.uuid)).content.decode()
    alone = officer.client().get(case_url(screened.pep_case.uuid)).content.decode()

    others = re.search(r'data-testid="other-cases">(.*?)</div></div></div>', page, re.DOTALL).group(1)
    assert case_url(second.uuid) in others and "Closed" in others and case_url(first.uuid) not in others
    assert "None: this is the only possible hit on Ingrid Margrethe Solbakken." in alone


def test_another_organisations_case_is_404(officer, lists):
    screened = cases_make(officer)
    other = member_make("Fjordkreditt AS", "olav2")
    config_with(api_of(other), "un_security_council")

    assert other.client().get(case_url(screened.pep_case.uuid)).status_code == 404
    assert officer.client().get(case_url(uuid.uuid4())).status_code == 404
    # nor its report PDF, nor taking it on
    assert other.client().get(f"{case_url(screened.pep_case.uuid)}report.pdf").status_code == 404
    assert other.client().post(f"{case_url(screened.pep_case.uuid)}assign/", {"to": "me"}).status_code == 404
    assert ScreeningCase.objects.get(uuid=screened.pep_case.uuid).assignee_app_membership_id is None


def test_the_case_report_downloads_as_a_pdf_with_a_sensible_name(officer, lists):
    screened = cases_make(officer)

    response = officer.client().get(f"{case_url(screened.sanction_case.uuid)}report.pdf")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert re.fullmatch(r'attachment; filename="screening-case-ivan-sergeyevich-dragunov-\d{4}-\d{2}-\d{2}\.pdf"',
                        response["Content-Disposition"])
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "Ivan Sergeyevich Dragunov" in text and "KPi.901" in text


def test_a_viewer_reads_the_case_without_a_review_form(officer, lists):
    screened = cases_make(officer)
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)

    page = viewer.client().get(case_url(screened.sanction_case.uuid)).content.decode()

    assert 'data-testid="review-form"' not in page and "compliance officers and admins review them" in page
    assert "Download case report" in page and "Assign to me" not in page


def test_it_is_in_the_navigation_for_every_role(officer, lists):
    viewer = member_make("", "vera", Member.Role.VIEWER, like=officer)

    seen_by_viewer = viewer.client().get("/").content.decode()
    seen_by_officer = officer.client().get("/").content.decode()

    assert f'href="{QUEUE}">Cases</a>' in seen_by_viewer and f'href="{QUEUE}">Cases</a>' in seen_by_officer
    assert "Read screening cases and their reports<" in seen_by_viewer
    assert "Read screening cases and their reports, review and assign them" in seen_by_officer
    assert "Check a name or a file of names against the PEP and sanction lists" in seen_by_officer
    assert "Read the results of name checks and screened files" in seen_by_viewer and "Check a name" not in seen_by_viewer


def test_it_shows_who_else_is_a_possible_hit_on_the_same_list_entry(officer, lists):
    from tests.service.screening.cases.conftest import UN_PERSON
    from tests.service.screening.cases.steps import customer_person_screened

    screened = cases_make(officer)  # Dragunov, owner of Nordlys AS, on the UN list; a PEP customer
    customer_person_screened(api_of(officer), screened.config_uuid, UN_PERSON, "1966-03-14")  # the same man, a customer
    customer = ScreeningCase.objects.exclude(uuid=screened.sanction_case.uuid).get(list_source_id="KPi.901")
    client = officer.client()

    page = client.get(case_url(screened.sanction_case.uuid)).content.decode()
    rows = re.findall(r'data-testid="same-listed-case">(.*?)</div>', page, re.DOTALL)
    assert len(rows) == 1 and case_url(customer.uuid) in rows[0] and "screened on its own" in rows[0]
    back = re.findall(r'data-testid="same-listed-case">(.*?)</div>', client.get(case_url(customer.uuid)).content.decode(), re.DOTALL)
    assert len(back) == 1 and "Nordlys AS" in back[0]
    pep_page = client.get(case_url(screened.pep_case.uuid)).content.decode()
    assert "Nobody else you screen is a possible hit on Ingrid Margrethe Solbakken." in pep_page
    assert 'data-testid="same-listed-queue"' not in pep_page

    # All of them in the queue, where they can be selected and closed together.
    link = f'{QUEUE}?listed_as={screened.sanction_case.uuid}'
    assert f'href="{link}" data-testid="same-listed-queue"' in page
    queue = client.get(link).content.decode()
    listed = re.findall(r'data-testid="queue-row".*?</tr>', queue, re.DOTALL)
    assert len(listed) == 2 and all("Ivan Sergeyevich Dragunov" in row for row in listed)  # not the PEP case
    assert "Hit by the list entry: IVAN SERGEYEVICH DRAGUNOV" in queue
    assert f'name="listed_as" value="{screened.sanction_case.uuid}"' in queue  # kept when another filter is applied
    assert len(re.findall(r'data-testid="queue-row"', client.get(QUEUE).content.decode())) == 3


def test_a_customers_case_links_to_the_customers_page(officer, lists):
    from tests.service.screening.cases.conftest import UN_PERSON
    from tests.service.screening.cases.steps import customer_person_screened

    screened = cases_make(officer)
    customer_person_screened(api_of(officer), screened.config_uuid, UN_PERSON, "1966-03-14")
    customer = ScreeningCase.objects.exclude(uuid=screened.sanction_case.uuid).get(list_source_id="KPi.901")
    client = officer.client()

    page = client.get(case_url(customer.uuid)).content.decode()
    link = re.search(r'<a href="([^"]+)" data-testid="customer-person-link"[^>]*>([^<]+)</a>', page)
    assert link and link.group(2) == UN_PERSON
    assert re.fullmatch(r"/screening/customer-persons/[0-9a-f-]{36}/", link.group(1))
    customer_page = client.get(link.group(1))  # the page with the customer's national ids and addresses
    assert customer_page.status_code == 200 and customer_page.context["detail"].person.full_name == UN_PERSON
    assert 'data-testid="customer-person-link"' not in client.get(case_url(screened.sanction_case.uuid)).content.decode()


def test_a_former_customers_case_still_links_to_the_customers_page(officer, lists):
    from tests.service.screening.cases.conftest import UN_PERSON
    from tests.service.screening.cases.steps import customer_person_screened

    screened = cases_make(officer)
    monitoring = customer_person_screened(api_of(officer), screened.config_uuid, UN_PERSON, "1966-03-14")["entity_monitoring"]
    EntityMonitoring.objects.filter(uuid=monitoring["uuid"]).update(removed_flag=True, removed_timestamp=timezone.now())
    customer = ScreeningCase.objects.exclude(uuid=screened.sanction_case.uuid).get(list_source_id="KPi.901")

    page = officer.client().get(case_url(customer.uuid)).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page.split("Monitored for")[1].split("</div></div></div>")[0]).split())
    assert text == (f"No related company: screened on its own, and no longer monitored. {UN_PERSON}'s page "
                    "says until when the person and the cases are kept.")
    person = monitoring["monitoring_customer_person_uuid"]
    assert f'<a href="/screening/customer-persons/{person}/" data-testid="customer-person-link">' in page
