"""/screening/setup/: set screening up, choose who is suggested, the lists and the watchlists."""

from __future__ import annotations

import html
import re
import uuid

from dateutil.relativedelta import relativedelta
from django.core.cache import cache
from django.utils import timezone

from portal.models import Member
from screening import freshness
from service.screening.models import CustomerPerson
from service.screening.tasks import screening_records_retention
from tests.screening.setup_helpers import admin, org, other_org, screening_with_nordlys  # noqa: F401 (fixtures)
from tests.service.screening.helpers import AML, config_make, configs_url, customer_person_make
from vakt_format.norwegian import day
from vakt_limits import retention
from tests.service.screening.watchlists.helpers import watchlist_make

SETUP = "/screening/setup/"


def _configs(org):
    return org.api.get(configs_url(org.api.app_customer_uuid), roles=AML).json()


def test_it_offers_to_set_up_screening_and_sets_it_up(org, admin):
    page = admin.get(SETUP)
    assert page.status_code == 200
    assert "Screening is not set up" in page.content.decode()
    organisation_uuid = org.admin.organisation.app_customer_uuid
    cache.set(freshness.cache_key(organisation_uuid=organisation_uuid, name="counts"), 1)

    response = admin.post("/screening/setup/create/", {"auto_approve": "on"}, follow=True)

    [config] = _configs(org)
    assert config["auto_approve_monitoring_flag"] is True
    assert config["screening_config_system_suggestion_setting_key"] == "enin_calculated_beneficial_owners"
    assert "Screening is set up" in response.content.decode()
    # the organisation's cached screening state is forgotten
    assert cache.get(freshness.cache_key(organisation_uuid=organisation_uuid, name="counts")) is None


def test_it_shows_the_lists_with_source_version_and_entries_and_pep_always(org, admin):
    config_make(org.api)
    body = admin.get(SETUP).content.decode()
    assert "UN Security Council Consolidated List" in body
    assert "UN Security Council, consolidated XML" in body
    assert "Always screened" in body  # PEP
    assert "none is chosen, so no sanction hit can be raised" in body


def test_it_selects_and_unselects_a_sanction_list(org, admin):
    from tests.service.screening.helpers import category_uuid

    config = config_make(org.api)
    url = f"/screening/configs/{config['uuid']}/lists/"
    response = admin.post(url, {"category": category_uuid("us_ofac_sdn"), "category_name": "OFAC"}, follow=True)
    assert "OFAC is screened from now on" in response.content.decode()
    [selection] = org.api.get(f"/analysis/v1/screening-config/{config['uuid']}/screening-config-screening-list-category", roles=AML).json()
    assert selection["screening_list_category_key"] == "us_ofac_sdn"

    again = admin.post(url, {"category": category_uuid("us_ofac_sdn"), "category_name": "OFAC"}, follow=True)
    assert "OFAC was not changed." in again.content.decode()  # the service's 400, in words

    admin.post(url, {"selection": selection["uuid"], "category_name": "OFAC"})
    assert org.api.get(f"/analysis/v1/screening-config/{config['uuid']}/screening-config-screening-list-category", roles=AML).json() == []


def test_it_saves_the_setting_and_says_what_it_causes(org, admin):
    config = config_make(org.api)
    settings = org.api.get("/analysis/v1/screening-config-system-suggestion-setting", roles=AML).json()
    extended = next(s["uuid"] for s in settings if "extended" in s["screening_config_system_suggestion_setting_key"])

    response = admin.post(
        f"/screening/configs/{config['uuid']}/update/", {"suggestion_setting": extended, "email_notifications": "on"}, follow=True
    )

    body = response.content.decode()
    assert "Extended: owners, board, signature rights and procuration" in body
    assert "members get a daily email" in body
    [saved] = _configs(org)
    assert saved["screening_config_system_suggestion_setting_uuid"] == extended
    assert saved["subscribe_to_email_notifications_flag"] is True
    assert saved["auto_approve_monitoring_flag"] is False


def test_it_estimates_who_each_setting_suggests(org, admin):
    screening_with_nordlys(org)
    body = admin.get(SETUP).content.decode()
    # Nordlys: Kari is its beneficial owner; the extended setting adds Ola, the chair of the board
    assert "1 company on 1 watchlist" in body
    assert "<strong class=\"text-body\">1 person</strong> suggested" in body
    assert "<strong class=\"text-body\">2 persons</strong> suggested" in body


def test_it_attaches_and_detaches_a_watchlist(org, admin):
    config = config_make(org.api)
    watchlist = watchlist_make(org.api, "Leverandører")
    page = admin.get(SETUP).content.decode()
    assert "Leverandører" in page and "No watchlist is attached" in page

    response = admin.post(
        f"/screening/configs/{config['uuid']}/watchlists/attach/", {"watchlist": watchlist, "watchlist_name": "Leverandører"}, follow=True
    )
    assert "Watchlist “Leverandører” attached" in response.content.decode()
    [link] = org.api.get(f"/analysis/v1/screening-config/{config['uuid']}/screening-config-watchlist", roles=AML).json()

    response = admin.post(
        f"/screening/configs/{config['uuid']}/watchlists/{link['uuid']}/detach/", {"watchlist_name": "Leverandører"}, follow=True
    )
    assert "Watchlist “Leverandører” detached" in response.content.decode()
    assert org.api.get(f"/analysis/v1/screening-config/{config['uuid']}/screening-config-watchlist", roles=AML).json() == []


def test_officers_and_viewers_read_but_cannot_change(org):
    config = config_make(org.api)
    officer = org.member("oline", Member.Role.OFFICER)
    page = officer.get(SETUP)
    assert page.status_code == 200
    assert "only admins change it" in page.content.decode()
    assert officer.post(f"/screening/configs/{config['uuid']}/update/", {"auto_approve": "on"}).status_code == 403
    assert officer.post("/screening/setup/create/").status_code == 403

    viewer = org.member("vera", Member.Role.VIEWER)
    page = viewer.get(SETUP)
    assert page.status_code == 200 and "only admins change it" in page.content.decode()
    assert viewer.post(f"/screening/configs/{config['uuid']}/lists/", {"category": str(uuid.uuid4())}).status_code == 403
    assert _configs(org)[0]["auto_approve_monitoring_flag"] is False


def test_the_config_page_leads_to_the_setup_and_another_organisations_is_404(org, other_org, admin):
    config = config_make(org.api)
    assert admin.get(f"/screening/configs/{config['uuid']}/").url == SETUP
    theirs = config_make(other_org.api)
    assert admin.get(f"/screening/configs/{theirs['uuid']}/").status_code == 404
    admin.post(f"/screening/configs/{theirs['uuid']}/update/", {"auto_approve": "on"})
    assert _configs(other_org)[0]["auto_approve_monitoring_flag"] is False


def test_it_shows_the_re_screening_runs_with_what_came_of_them(org, admin, lists, tmp_path):
    from service.screening.tasks import screening_full_rescreen_scheduled
    from tests.service.screening.cases.conftest import UN_PERSON
    from tests.service.screening.cases.list_versions import un_import, un_xml
    from tests.service.screening.cases.steps import config_with, customer_person_screened

    config = config_with(org.api, "un_security_council")
    assert 'data-testid="no-runs"' in admin.get(SETUP).content.decode()  # nobody screened yet
    customer_person_screened(org.api, config["uuid"], UN_PERSON)  # screened at once: one case
    screening_full_rescreen_scheduled()
    un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Amended."))

    page = admin.get(SETUP).content.decode()
    runs = re.findall(r'data-testid="run">(.*?)</tr>', page, re.DOTALL)
    assert len(runs) == 2
    assert "UN Security Council" in runs[0] and "v2</span> update" in runs[0]
    assert "Full re-screen" in runs[1] and "running" not in runs[1]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r'<td class="text-end[^"]*">(.*?)</td>', runs[1], re.DOTALL)]
    assert cells == ["1", "1", "0", "0"]  # screened, hits, no second case, none moved


def test_it_keeps_records_for_the_chosen_period_and_says_so(org, admin):
    config = config_make(org.api)
    page = admin.get(SETUP).content.decode()
    assert '<option value="" selected>The service\'s default (5 years)</option>' in page

    saved = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "7"}, follow=True)

    assert "Screening records are now kept 7 years after the relationship ends." in saved.content.decode()
    assert '<option value="7" selected>7 years</option>' in saved.content.decode()
    [read] = _configs(org)
    assert (read["records_retention_years"], read["effective_records_retention_years"]) == (7, 7)

    refused = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "12"}, follow=True)
    assert "The settings were not saved." in refused.content.decode()
    assert _configs(org)[0]["records_retention_years"] == 7

    back = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": ""}, follow=True)
    assert "kept 5 years after the relationship ends (the service&#x27;s default)" in back.content.decode()
    assert _configs(org)[0]["records_retention_years"] is None


def test_a_new_setup_takes_its_retention_period(org, admin):
    admin.post("/screening/setup/create/", {"retention_years": "10"})
    assert _configs(org)[0]["records_retention_years"] == 10


def test_a_shorter_period_that_makes_records_due_is_asked_about_first(org, admin):
    config = config_make(org.api, records_retention_years=10)
    former = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=former).update(create_timestamp=timezone.now() - relativedelta(years=6))
    sent = {"retention_years": "5", "four_eyes": "on"}

    asked = admin.post(f"/screening/configs/{config['uuid']}/update/", sent)

    page = html.unescape(asked.content.decode())
    text = re.sub(r"<[^>]+>", "", page)
    assert asked.status_code == 200 and 'data-testid="shorten-confirm"' in page
    assert "Keep screening records 5 years instead of 10 years?" in page
    five, ten = (day(timezone.now() - relativedelta(years=y)) for y in (5, 10))
    assert ("The change makes the screening records of 1 of the persons and companies you screened due for deletion: "
            f"their relationship ended more than 5 years ago but less than 10 (between {ten} and {five}).") in text
    assert "The next daily pass deletes them" in text and "This cannot be undone." in text
    assert _configs(org)[0]["records_retention_years"] == 10  # nothing saved yet
    assert screening_records_retention.apply().get() == 0

    confirmed = admin.post(f"/screening/configs/{config['uuid']}/update/", _hidden_fields(page), follow=True)

    said = html.unescape(confirmed.content.decode())
    assert "screening records are now kept 5 years after the relationship ends" in said
    assert "The records of 1 person or company are past it: the next daily pass deletes them." in said
    [read] = _configs(org)
    assert (read["records_retention_years"], read["four_eyes_review_flag"]) == (5, True)  # the settings sent, as sent
    assert screening_records_retention.apply().get() == 1


def test_keeping_the_period_when_asked_still_saves_the_other_settings(org, admin):
    config = config_make(org.api, records_retention_years=10)
    former = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=former).update(create_timestamp=timezone.now() - relativedelta(years=6))
    asked = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "5", "four_eyes": "on"})
    page = html.unescape(asked.content.decode())
    assert "Keep 10 years, save the other settings" in page

    kept = admin.post(f"/screening/configs/{config['uuid']}/update/", _hidden_fields(page, "shorten-keep"), follow=True)

    [read] = _configs(org)
    assert (read["records_retention_years"], read["four_eyes_review_flag"]) == (10, True)
    assert "Saved. Four-eyes review is on" in html.unescape(kept.content.decode())
    assert screening_records_retention.apply().get() == 0
    # with nothing else changed, there is nothing to save: the way back is a plain link
    alone = html.unescape(admin.post(f"/screening/configs/{config['uuid']}/update/",
                                     {"retention_years": "5", "four_eyes": "on"}).content.decode())
    assert re.search(r'<a [^>]*href="/screening/setup/"[^>]*data-testid="shorten-keep">Cancel: keep 10 years</a>', alone)


def test_the_question_counts_only_what_the_change_makes_due(org, admin):
    config = config_make(org.api, records_retention_years=10)
    ages = {"Kari Nordmann": 6, "Per Hansen": 7, "Ola Eldre": 12}  # added, never monitored: the clock runs from then
    for name, years in ages.items():
        person = customer_person_make(org.api, config["uuid"], full_name=name)["uuid"]
        CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - relativedelta(years=years))

    asked = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "5"})

    # Ola Eldre is past the present ten years already (the daily pass has not run since): not the change's doing.
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(asked.content.decode())))
    assert "The change makes the screening records of 2 of the persons and companies you screened due" in text
    ten = day(timezone.now() - relativedelta(years=10))
    assert f"1 more ended before {ten}: past the present period already, the next daily pass deletes them whatever" in text


def test_a_shorter_period_from_keeping_for_ever_counts_every_record_past_it(org, admin, settings):
    settings.VAKT_SCREENING_RECORDS_RETENTION_YEARS = 0  # the deployment keeps everything; the setup has no own period
    config = config_make(org.api)
    person = customer_person_make(org.api, config["uuid"], full_name="Kari Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=person).update(create_timestamp=timezone.now() - relativedelta(years=30))

    asked = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "7"})

    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.unescape(asked.content.decode())))
    assert "Keep screening records 7 years instead of for ever?" in text
    seven = day(timezone.now() - relativedelta(years=7))
    assert f"1 of the persons and companies you screened due for deletion: their relationship ended more than 7 years ago (before {seven})." in text
    assert "past the present period already" not in text


def test_a_shorter_period_that_makes_nothing_due_and_a_longer_one_are_saved_at_once(org, admin):
    config = config_make(org.api, records_retention_years=10)
    recent = customer_person_make(org.api, config["uuid"], full_name="Ola Nordmann")["uuid"]
    CustomerPerson.objects.filter(uuid=recent).update(create_timestamp=timezone.now() - relativedelta(years=4))

    shorter = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "5"}, follow=True)
    assert "now kept 5 years" in shorter.content.decode()
    longer = admin.post(f"/screening/configs/{config['uuid']}/update/", {"retention_years": "8"}, follow=True)
    assert "now kept 8 years" in longer.content.decode()


def test_a_post_without_the_retention_choice_leaves_the_period_as_it_is(org, admin):
    config = config_make(org.api, records_retention_years=8)

    admin.post(f"/screening/configs/{config['uuid']}/update/", {"four_eyes": "on"})

    [read] = _configs(org)
    assert (read["records_retention_years"], read["four_eyes_review_flag"]) == (8, True)


def test_the_periods_offered_are_the_shared_range_the_service_checks(org, admin, monkeypatch):
    config_make(org.api)

    def offered() -> list[str]:
        page = admin.get(SETUP).content.decode()
        choice = page[page.index('data-testid="retention-choice"'):]
        return re.findall(r'<option value="(\d*)"', choice[:choice.index("</select>")])

    assert offered() == [""] + [str(years) for years in range(retention.RETENTION_YEARS_MIN, retention.RETENTION_YEARS_MAX + 1)]
    monkeypatch.setattr(retention, "RETENTION_YEARS_MAX", 12)  # one place to change the rule: the page follows it
    assert offered()[-1] == "12"


def _hidden_fields(page: str, button: str = "shorten-yes") -> dict:
    """The hidden fields of the question's form whose button is `button`."""
    form = page[:page.index(f'data-testid="{button}"')]
    form = form[form.rindex("<form"):]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', form))
