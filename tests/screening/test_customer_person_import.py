"""Importing customer persons from a CSV file on the approvals page's Customer persons tab: a check
(dry run) says what importing would do and writes nothing; the import makes customer persons under
monitoring (pending, or approved with the box ticked); a bad file lists its problems by line and
column; a file imported again makes nothing new; officers neither see the form nor may post it."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile

from portal.models import Member
from service.screening.models import CustomerPerson, EntityMonitoring
from tests.screening.helpers import never_sent
from tests.screening.setup_helpers import admin, org, statuses  # noqa: F401
from tests.service.screening.helpers import config_make, customer_person_make

TAB = "/screening/approvals/?view=persons"
IMPORT = "/screening/approvals/customer-person-import/"
EXAMPLE = Path(__file__).resolve().parents[2] / "static" / "examples" / "customer-persons.csv"
HEADER = "id;name;birth_date;gender;nationality;national_id;national_id_country;street_address;postal_code;postal_place;address_country\n"
GOOD = HEADER + (
    "K-1;Ingrid Haugland;1979-04-22;female;NO;22047948464;NO;Kongens gate 8;7011;Trondheim;NO\n"
    "K-2;Erik Johansson;05.11.1983;male;SE;831105-2313;SE;;;;\n"
    "K-3;Ahmad Karimi;1990-02-14;male;NO;;;;;;\n"
)


def _sent(client, content: str, *, name: str = "kunder.csv", check: bool = False, htmx: bool = False, **fields):
    data = {"file": SimpleUploadedFile(name, content.encode("utf-8"), content_type="text/csv"), **fields}
    if check:
        data["dry_run"] = "1"
    return client.post(IMPORT, data, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))


def _text(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def _rows(response) -> list[str]:
    page = response.content.decode()
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split())
            for row in re.findall(r'data-testid="person-import-row">(.*?)</tr>', page, flags=re.S)]


def _listed(client) -> list[str]:
    """The tab's customer persons, each with their monitoring's status."""
    page = client.get(TAB).content.decode()
    rows = re.findall(r'data-testid="customer-person">(.*?)</tr>', page, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_the_tab_offers_admins_the_import_with_an_example_file_that_passes_its_own_check(org, admin):
    config_make(org.api)
    page = admin.get(TAB).content.decode()
    assert 'data-testid="person-import-form"' in page and 'enctype="multipart/form-data"' in page
    assert 'hx-post="/screening/approvals/customer-person-import/" hx-encoding="multipart/form-data"' in page
    assert 'hx-target="#person-import-result"' in page
    form = page.split('data-testid="person-import-form"')[1].split("</form>")[0]
    assert 'id="person-import-result"' not in form  # the panel is outside the form: a check leaves the file chosen
    assert "Screen from now on (approve every monitoring)" in page and "Why these persons are screened" in page
    assert 'href="/static/examples/customer-persons.csv"' in page

    response = _sent(admin, EXAMPLE.read_text(encoding="utf-8"), name="customer-persons.csv", check=True)
    assert "customer-persons.csv checked, 5 rows: nothing is imported yet." in _text(response)
    assert "5 new customer persons would be added." in _text(response)
    assert CustomerPerson.objects.count() == 0


def test_a_check_says_what_importing_would_do_and_writes_nothing(org, admin):
    config_make(org.api)
    response = _sent(admin, GOOD, check=True, comment="Private customers of Nordbank")

    assert response.status_code == 200
    text = _text(response)
    assert "kunder.csv checked, 3 rows: nothing is imported yet." in text
    assert "3 new customer persons would be added." in text
    assert "The 3 new monitorings would wait under Pending for a decision. Import the file to do it." in text
    assert "person-import-duplicates" not in response.content.decode()  # a check adds no one
    assert _rows(response) == [
        "2 K-1 Ingrid Haugland 22.04.1979 Would be added",  # line 1: the header
        "3 K-2 Erik Johansson 05.11.1983 Would be added",
        "4 K-3 Ahmad Karimi 14.02.1990 Would be added",
    ]
    assert 'value="Private customers of Nordbank"' in response.content.decode()  # the form as sent, to import next

    assert CustomerPerson.objects.count() == 0 and EntityMonitoring.objects.count() == 0
    assert "No customer persons yet" in admin.get(TAB).content.decode()


def test_with_htmx_a_check_answers_the_result_panel_alone(org, admin):
    config_make(org.api)
    response = _sent(admin, GOOD, check=True, htmx=True)

    page = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in page and 'data-testid="person-import-form"' not in page
    assert 'data-testid="person-import-summary"' in page
    assert len(_rows(response)) == 3
    assert CustomerPerson.objects.count() == 0


def test_an_import_makes_customer_persons_who_wait_for_approval(org, admin):
    config = config_make(org.api)
    response = _sent(admin, GOOD)

    text = _text(response)
    assert "kunder.csv imported, 3 rows." in text
    assert "3 new customer persons added." in text
    assert "The 3 new monitorings wait under Pending for a decision." in text
    # New persons may be customers entered before under another spelling: the panel leads to the check.
    assert ("A customer entered before under another spelling of the name is added as a new person: find customers "
            "possibly entered twice") in text
    assert 'href="/screening/approvals/?view=persons&amp;duplicates=1">find customers' in response.content.decode()
    assert _rows(response)[0] == "2 K-1 Ingrid Haugland 22.04.1979 Added"
    # The tab, read after the import, lists them; each row links to the person's page.
    listed = _listed(admin)
    assert [row.split(" ")[:2] for row in listed] == [["Ahmad", "Karimi"], ["Erik", "Johansson"], ["Ingrid", "Haugland"]]
    assert all("Pending" in row for row in listed)
    assert statuses(org, config) == {"Ingrid Haugland": "pending", "Erik Johansson": "pending", "Ahmad Karimi": "pending"}

    ingrid = CustomerPerson.objects.get(full_name="Ingrid Haugland")
    assert f'href="/screening/customer-persons/{ingrid.uuid}/">Ingrid Haugland</a>' in response.content.decode()
    person = admin.get(f"/screening/customer-persons/{ingrid.uuid}/").content.decode()
    assert "NO 22047948464" in person and "Kongens gate 8, 7011 Trondheim, NO" in person

    pending = admin.get("/screening/approvals/").content.decode()
    assert "Ingrid Haugland" in pending and "Erik Johansson" in pending
    assert "Imported from kunder.csv" in pending  # no comment given: the service names the file


def test_ticked_the_monitorings_are_approved_at_once(org, admin):
    config = config_make(org.api)
    response = _sent(admin, GOOD, approve="on", comment="Private customers of Nordbank")

    assert "The 3 new monitorings are approved: screened from now on." in _text(response)
    assert statuses(org, config) == {"Ingrid Haugland": "active", "Erik Johansson": "active", "Ahmad Karimi": "active"}
    assert all("Screened" in row for row in _listed(admin))
    erik = CustomerPerson.objects.get(full_name="Erik Johansson")
    person = admin.get(f"/screening/customer-persons/{erik.uuid}/").content.decode()
    monitoring = re.search(r'href="(/screening/monitorings/[0-9a-f-]+/)">since', person).group(1)
    assert "Private customers of Nordbank" in admin.get(monitoring).content.decode()


def test_a_file_imported_again_makes_nothing_new(org, admin):
    config_make(org.api)
    _sent(admin, GOOD)
    again = _sent(admin, GOOD)

    assert "0 new customer persons added, 3 already under monitoring." in _text(again)
    assert "No monitoring was made." in _text(again)
    assert all(row.endswith("Already under monitoring: nothing done") for row in _rows(again))
    assert CustomerPerson.objects.count() == 3 and EntityMonitoring.objects.count() == 3
    check = _sent(admin, GOOD, check=True)
    assert "No monitoring would be made. Nothing to import: every row is a customer person under monitoring " \
           "already." in _text(check)


def test_an_existing_customer_person_not_monitored_is_put_under_monitoring(org, admin):
    config = config_make(org.api)
    existing = customer_person_make(org.api, config["uuid"], full_name="Ahmad  KARIMI", birth_date="1990-02-14")

    check = _sent(admin, GOOD, check=True)
    assert "2 new customer persons would be added, 1 existing customer person would be put under monitoring" in _text(check)
    assert _rows(check)[2] == "4 K-3 Ahmad Karimi 14.02.1990 Already a customer: would be put under monitoring"
    assert f'href="/screening/customer-persons/{existing["uuid"]}/"' in check.content.decode()  # known: linked already

    response = _sent(admin, GOOD, approve="on")
    assert "2 new customer persons added, 1 existing customer person put under monitoring" in _text(response)
    assert CustomerPerson.objects.count() == 3


def test_a_national_id_a_customer_person_lacks_is_recorded(org, admin):
    config = config_make(org.api)
    customer_person_make(org.api, config["uuid"], full_name="Ingrid Haugland", birth_date="1979-04-22")
    ingrid = HEADER + "K-1;Ingrid Haugland;22.04.1979;female;NO;22047948464;NO;;;;\n"

    check = _sent(admin, ingrid, check=True)
    assert "0 new customer persons would be added, 1 existing customer person would be put under monitoring, " \
           "1 national id would be recorded for existing customer persons." in _text(check)
    assert "The new monitoring would wait under Pending for a decision." in _text(check)
    assert "1 national id recorded for existing customer persons." in _text(_sent(admin, ingrid))
    person = CustomerPerson.objects.get()
    assert "NO 22047948464" in admin.get(f"/screening/customer-persons/{person.uuid}/").content.decode()


def test_a_row_of_a_monitored_customer_says_when_their_national_id_is_recorded(org, admin):
    config_make(org.api)
    _sent(admin, HEADER + "K-1;Ingrid Haugland;22.04.1979;female;NO;;;;;;\n")  # under monitoring, no number

    response = _sent(admin, HEADER + "K-1;Ingrid Haugland;22.04.1979;female;NO;22047948464;NO;;;;\n")

    assert "0 new customer persons added, 1 already under monitoring, 1 national id recorded for existing " \
           "customer persons." in _text(response)
    assert _rows(response) == ["2 K-1 Ingrid Haugland 22.04.1979 Already under monitoring: national id recorded"]


def test_a_bad_file_lists_every_problem_by_line_and_column_and_imports_nothing(org, admin):
    config_make(org.api)
    bad = GOOD + "K-4;Ola Hansen;2999-01-01;male;NO;;;;;;\nK-5;Per Olsen;1970-01-01;sometimes;NO;;;;;;\n"

    for check in (True, False):
        response = _sent(admin, bad, check=check)
        assert response.status_code == 200
        problems = response.content.decode().split('data-testid="person-import-problems"')[1].split("</div>")[0]
        assert "Nothing was imported. Correct the file and check it again:" in problems
        assert "Line 5, birth_date:" in problems and "Line 6, gender:" in problems
        assert 'data-testid="person-import-summary"' not in response.content.decode()
    assert CustomerPerson.objects.count() == 0 and EntityMonitoring.objects.count() == 0


def test_national_ids_need_their_role(org, admin):
    config_make(org.api)
    organisation = org.admin.organisation
    organisation.api_role_keys = "aml"
    organisation.save()

    response = _sent(admin, GOOD, check=True)
    assert "Nothing was imported. The file has national ids, and recording them needs the API role " \
           "person_national_identification" in _text(response)
    assert CustomerPerson.objects.count() == 0


def test_a_file_over_the_size_limit_is_refused_before_it_is_sent(org, admin, settings, monkeypatch):
    config_make(org.api)
    settings.VAKT_MAX_BODY_BYTES = 1024  # larger files go as an import job (test_customer_person_import_job.py)
    settings.VAKT_IMPORT_JOB_MAX_BYTES = 2048
    never_sent(monkeypatch, "import_customer_persons")
    never_sent(monkeypatch, "import_job_start")

    response = _sent(admin, GOOD * 20, check=True, htmx=True)
    assert "Nothing was imported:" in _text(response)
    assert "kunder.csv was not imported: it is 6,1\xa0kB, files up to 2,0\xa0kB are. Split it into smaller files." in response.content.decode()


def test_without_a_file_it_says_to_choose_one(org, admin):
    config_make(org.api)
    response = admin.post(IMPORT, {"dry_run": "1"})
    assert "Choose a CSV file of customer persons." in _text(response)


def test_a_long_file_shows_its_first_200_rows(org, admin):
    config_make(org.api)
    rows = "".join(f"K-{n};Kunde Nummer {n};1980-01-01;;NO;;;;;;\n" for n in range(1, 206))
    response = _sent(admin, HEADER + rows, check=True, htmx=True)

    assert "205 new customer persons would be added" in _text(response)
    assert len(_rows(response)) == 200
    assert "The first 200 rows are shown; 5 more are not." in _text(response)


def test_an_officer_sees_no_import_form_and_may_not_post_it(org):
    config_make(org.api)
    officer = org.member("oline", Member.Role.OFFICER)

    page = officer.get(TAB).content.decode()
    assert 'data-testid="person-import-form"' not in page and "Import customer persons" not in page
    assert _sent(officer, GOOD).status_code == 403
    assert _sent(officer, GOOD, check=True, htmx=True).status_code == 403
    assert CustomerPerson.objects.count() == 0


def test_a_file_imported_again_with_the_box_ticked_approves_those_waiting(org, admin):
    config_make(org.api)
    _sent(admin, GOOD)  # waiting under Pending

    check = _sent(admin, GOOD, check=True, approve="on")
    assert "No monitoring would be made. 3 monitorings that waited for a decision would be approved as well. " \
           "Import the file to do it." in _text(check)
    assert all(row.endswith("Waits for a decision: would be approved") for row in _rows(check))
    response = _sent(admin, GOOD, approve="on")

    assert "No monitoring was made. 3 monitorings that waited for a decision are approved as well." in _text(response)
    assert all(row.endswith("Waited for a decision: approved") for row in _rows(response))
    assert {m.latest_decision.approved_flag for m in EntityMonitoring.objects.all()} == {True}
