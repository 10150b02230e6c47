"""Check one name on the batch screening page: a person or company typed in, screened as a
one-row job whose page shows the hits; bad input lands on its field with nothing stored; only
officers and admins check."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from django.core.files.storage import default_storage

from portal.models import Member
from service.audit.models import AuditEvent
from service.screening.batch_services import SOURCE
from service.screening.batch_tasks import screening_batch_task
from service.screening.models import CustomerPerson, ScreeningBatch
from tests.screening.setup_helpers import admin, org  # noqa: F401
from tests.screening.test_batches import _storage, config  # noqa: F401  (files in tmp_path; a UN-screening config)
from tests.service.screening.cases.conftest import broker_away  # noqa: F401  (the fixture)

PAGE = "/screening/batches/"
CHECK = "/screening/batches/check/"
DRAGUNOV = {"kind": "person", "name": "Dragunov Ivan Sergeevich", "birth_date": "14.03.1966", "country": "RU",
            "gender": "male", "reference": "K-77"}


def _source_row(batch: ScreeningBatch) -> dict:
    """The one row of the file the check sent to the service."""
    with default_storage.open(batch.storage_name(SOURCE)) as stream:
        [row] = csv.DictReader(io.StringIO(stream.read().decode("utf-8")))
    return row


def test_it_checks_a_person_and_shows_the_hit(admin, config):
    response = admin.post(CHECK, DRAGUNOV)

    [batch] = ScreeningBatch.objects.all()
    assert response.status_code == 302 and response["Location"] == f"/screening/batches/{batch.uuid}/"
    assert (batch.file_name, batch.rows_total) == ("Dragunov Ivan Sergeevich (name check)", 1)
    assert _source_row(batch) == {"type": "person", "id": "K-77", "name": "Dragunov Ivan Sergeevich",
                                  "birth_date": "1966-03-14", "nationality": "RU", "gender": "male", "country": ""}

    page = admin.get(response["Location"]).content.decode()
    assert "1 possible hit</strong> for Dragunov Ivan Sergeevich." in page and "Line" not in page
    assert "KPi.901" in page and "born 14.03.1966" in page and "K-77" in page
    assert "by ingrid" in page

    # Who checked which name is on record, as for a file.
    [event] = AuditEvent.objects.filter(action_key="screening_batch.create")
    assert (event.actor_email, event.object_label) == ("ingrid@example.com", "Dragunov Ivan Sergeevich (name check)")
    audit = admin.get("/members/audit/", {"kind": "batches"}).content.decode()
    assert "Screened a file or a name" in audit
    assert "Dragunov Ivan Sergeevich (name check)" in audit
    result = admin.get(f"/screening/batches/{batch.uuid}/result.csv")
    assert result["Content-Disposition"] == 'attachment; filename="dragunov-ivan-sergeevich-name-check-result.csv"'


@pytest.mark.parametrize(("typed", "sent"), [("14.03.1966", "1966-03-14"), ("3.1966", "1966-03"), ("1966", "1966"),
                                             ("1966-03-14", "1966-03-14")])
def test_a_birth_date_is_typed_as_the_dashboard_writes_days(admin, config, typed, sent):
    admin.post(CHECK, DRAGUNOV | {"birth_date": typed})

    [batch] = ScreeningBatch.objects.all()
    assert _source_row(batch)["birth_date"] == sent


def test_a_name_without_a_hit_says_so(admin, config):
    response = admin.post(CHECK, {"kind": "person", "name": "Kari Nordmann", "birth_date": "1980", "country": "NO"})

    page = admin.get(response["Location"]).content.decode()
    assert "<strong>No possible hit</strong> for Kari Nordmann." in page
    assert 'data-testid="batch-clean-rows"' not in page  # not folded away as a file's rows are


def test_a_company_is_checked_with_its_country(admin, config):
    response = admin.post(CHECK, {"kind": "company", "name": "Koryo Fjord Trading AS", "country": "KP"})

    [batch] = ScreeningBatch.objects.all()
    assert _source_row(batch) == {"type": "company", "id": "", "name": "Koryo Fjord Trading AS", "birth_date": "",
                                       "nationality": "", "gender": "", "country": "KP"}
    assert "KPe.901" in admin.get(response["Location"]).content.decode()


@pytest.mark.parametrize(("sent", "field", "says"), [
    ({"birth_date": "2999-01-01"}, "birth_date", "2999-01-01 is in the future."),
    ({"birth_date": "31.02.1966"}, "birth_date", "'31.02.1966' is not a date."),
    ({"birth_date": "14/03/1966"}, "birth_date", "Enter the birth date as dd.mm.yyyy, mm.yyyy or yyyy, e.g. 14.03.1966."),
    ({"country": "Narnia"}, "country", "'Narnia' is not a known country."),
    ({"kind": "company", "country": ""}, "birth_date", "A company has no birth_date"),
    ({"name": "  "}, "name", "This field is required."),
    ({"kind": "ship"}, "kind", "Select a valid choice."),
])
def test_bad_input_is_shown_at_its_field_and_nothing_is_screened(admin, config, sent, field, says):
    response = admin.post(CHECK, DRAGUNOV | sent)
    assert response.status_code == 200  # the page again, as for any form with errors
    page = response.content.decode()
    error = html.unescape(page.split(f'data-testid="field-error-{field}">')[1].split("</div>")[0])
    assert says in error
    assert 'value="Dragunov Ivan Sergeevich"' in page or field == "name"  # what was typed is kept
    assert ScreeningBatch.objects.count() == 0


def test_a_viewer_cannot_check_a_name(org, config):
    viewer = org.member("vilde", Member.Role.VIEWER)

    assert 'data-testid="name-check"' not in viewer.get(PAGE).content.decode()
    assert viewer.post(CHECK, DRAGUNOV).status_code == 403
    assert ScreeningBatch.objects.count() == 0


def test_the_jobs_page_reloads_itself_once_the_check_is_done(admin, config, broker_away):  # noqa: F811
    with broker_away():  # the worker is busy: the page shows the job waiting
        response = admin.post(CHECK, DRAGUNOV)
    [batch] = ScreeningBatch.objects.all()
    page = admin.get(response["Location"]).content.decode()
    assert f'hx-get="/screening/batches/{batch.uuid}/row/?reload=1"' in page and "Waiting" in page

    waiting = admin.get(f"/screening/batches/{batch.uuid}/row/?reload=1")
    assert "HX-Refresh" not in waiting and 'hx-trigger="every 2s"' in waiting.content.decode()

    screening_batch_task.delay(str(batch.uuid))
    assert admin.get(f"/screening/batches/{batch.uuid}/row/?reload=1")["HX-Refresh"] == "true"
    assert "HX-Refresh" not in admin.get(f"/screening/batches/{batch.uuid}/row/")  # the list's rows just update


def test_an_admin_goes_from_a_checked_person_to_monitoring_them(admin, config):
    """"Screen continuously…" opens the approvals page's customer-person form filled in with the
    name, the birth date and where the check was made; nothing is saved until it is sent."""
    response = admin.post(CHECK, {"kind": "person", "name": "Kari Nordmann", "birth_date": "17.05.1980",
                                  "gender": "female", "country": "NO"})
    page = admin.get(response["Location"]).content.decode()
    [link] = re.findall(r'<a href="([^"]+)" data-testid="batch-monitor">Screen Kari Nordmann continuously…</a>', page)

    form = admin.get(html.unescape(link)).content.decode().split('data-testid="person-form"')[1].split("</form>")[0]
    assert 'value="Kari Nordmann"' in form and 'value="17.05.1980"' in form
    assert re.search(r'name="nationalities"[^>]*value="NO"', form)  # the nationality checked, screened with too
    assert "Checked on the Batch screening page on " in form and "(Kari Nordmann (name check))" in form
    assert "customer_reference" not in html.unescape(link)  # checked without a reference: none to fill in
    assert re.search(r'name="customer_reference"[^>]*value=""', form)
    assert not CustomerPerson.objects.exists()


def test_a_checked_persons_reference_becomes_their_customer_reference(admin, config):
    """The row's id (the uploader's own number for them) fills in the customer reference; the form, once sent,
    adds the person with it."""
    response = admin.post(CHECK, {"kind": "person", "name": "Kari Nordmann", "birth_date": "17.05.1980",
                                  "gender": "female", "country": "NO", "reference": " K-10231 "})
    page = admin.get(response["Location"]).content.decode()
    [link] = re.findall(r'<a href="([^"]+)" data-testid="batch-monitor">', page)

    form = admin.get(html.unescape(link)).content.decode().split('data-testid="person-form"')[1].split("</form>")[0]
    assert re.search(r'name="customer_reference"[^>]*value="K-10231"', form)
    assert not CustomerPerson.objects.exists()


def test_only_admins_are_offered_to_monitor_and_never_a_company(org, admin, config):
    officer = org.member("olav", Member.Role.OFFICER)
    person = officer.post(CHECK, DRAGUNOV)
    company = admin.post(CHECK, {"kind": "company", "name": "Koryo Fjord Trading AS"})

    assert 'data-testid="batch-monitor"' not in officer.get(person["Location"]).content.decode()
    assert 'data-testid="batch-monitor"' in admin.get(person["Location"]).content.decode()
    assert 'data-testid="batch-monitor"' not in admin.get(company["Location"]).content.decode()


def test_a_partial_birth_date_is_left_for_the_admin_to_type(admin, config):
    page = admin.get("/screening/approvals/", {"view": "persons", "full_name": "Ola Hansen", "birth_date": "1979"})

    form = page.content.decode().split('data-testid="person-form"')[1].split("</form>")[0]
    assert 'value="Ola Hansen"' in form and 'name="birth_date" id="id_birth_date" value=""' in form


def test_a_reference_longer_than_a_customer_reference_may_be_is_left_out_not_cut(admin, config):
    too_long = "K" * 101
    for given, shown in ((too_long, ""), (too_long[:100], too_long[:100])):
        page = admin.get("/screening/approvals/", {"view": "persons", "full_name": "Ola Hansen", "customer_reference": given})
        form = page.content.decode().split('data-testid="person-form"')[1].split("</form>")[0]
        assert f'name="customer_reference" id="id_customer_reference" value="{shown}"' in form
