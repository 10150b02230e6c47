"""A screening config may keep its records longer than the deployment's five years: PATCH
/screening-config/{uuid} with `records_retention_years` (5 to 10, as the AML directive allows;
null: the deployment's). The daily deletion, `retained_until` and the dry run follow each
config's own period."""

from __future__ import annotations

from datetime import datetime
from io import StringIO

from dateutil.relativedelta import relativedelta
from django.core.management import call_command
from django.db.models import Q
from django.utils import timezone

from service.audit.models import AuditEvent
from service.auth.models import AppCustomer
from service.screening.config_schemas import ScreeningConfigIn, ScreeningConfigPatch
from service.screening.models import CustomerPerson, ScreeningConfig
from service.screening.tasks import screening_records_retention
from tests.service.screening.cases.conftest import PEP_PERSON, UN_PERSON
from tests.service.screening.cases.steps import config_with
from tests.service.screening.cases.test_it_deletes_screening_records_after_the_retention_period import (
    _customer,
    _person_read,
    _removed_ago,
)
from tests.service.screening.helpers import config_url, patch
from vakt_format.norwegian import day
from vakt_limits.retention import RETENTION_YEARS_MAX, RETENTION_YEARS_MIN

SIX_YEARS = relativedelta(years=6)


def _period(api, config_uuid, years):
    return patch(api, config_url(config_uuid), {"records_retention_years": years})


def _retained_until(api, person_uuid) -> datetime:
    return datetime.fromisoformat(_person_read(api, person_uuid).json()["customer_person"]["retained_until"])


def test_a_config_that_keeps_seven_years_keeps_what_another_deletes_after_five(api, other_api, lists):
    seven = config_with(api, "un_security_council")
    changed = _period(api, seven["uuid"], 7)
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["records_retention_years"], changed.json()["effective_records_retention_years"]) == (7, 7)
    kept = _customer(api, seven["uuid"], UN_PERSON, age=SIX_YEARS)
    five = config_with(other_api, "un_security_council")
    assert other_api.get(config_url(five["uuid"]), roles=["aml"]).json()["effective_records_retention_years"] == 5
    gone = _customer(other_api, five["uuid"], PEP_PERSON, age=SIX_YEARS)

    assert screening_records_retention.apply().get() == 1

    assert not CustomerPerson.objects.filter(uuid=gone["person"]).exists()
    assert _retained_until(api, kept["person"]) == kept["removed"].replace(
        microsecond=kept["removed"].microsecond // 1000 * 1000) + relativedelta(years=7)
    update = AuditEvent.objects.get(action_key="screening_config.update")
    assert (update.before, update.after) == ({"records_retention_years": None}, {"records_retention_years": 7})

    _removed_ago(kept["monitoring"], relativedelta(years=7, days=1))
    assert screening_records_retention.apply().get() == 1
    assert not CustomerPerson.objects.filter(uuid=kept["person"]).exists()
    # The log says which period applied, and the day before which the relationship had to end.
    periods = {(e.after["retention_years"], e.after["retention_cutoff"])
               for e in AuditEvent.objects.filter(action_key="screening_records.delete")}
    assert periods == {(5, str(timezone.localdate() - relativedelta(years=5))),
                       (7, str(timezone.localdate() - relativedelta(years=7)))}


def test_null_returns_to_the_deployments_period_and_a_config_period_outlives_a_deployment_of_0(api, lists, settings):
    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=SIX_YEARS)
    assert _period(api, config["uuid"], 10).status_code == 200
    assert screening_records_retention.apply().get() == 0

    settings.VAKT_SCREENING_RECORDS_RETENTION_YEARS = 0  # the deployment keeps everything ...
    reset = _period(api, config["uuid"], None)
    assert (reset.json()["records_retention_years"], reset.json()["effective_records_retention_years"]) == (None, 0)
    assert _person_read(api, former["person"]).json()["customer_person"]["retained_until"] is None
    assert screening_records_retention.apply().get() == 0

    assert _period(api, config["uuid"], 5).status_code == 200  # ... this organisation does not
    assert screening_records_retention.apply().get() == 1


def test_a_period_outside_five_to_ten_years_is_refused_naming_the_field(api, lists):
    config = config_with(api, "un_security_council")
    for years in (4, 11, 0, "seven"):
        refused = _period(api, config["uuid"], years)
        assert refused.status_code == 400, (years, refused.json())
        assert [e["loc"] for e in refused.json()["errors"]] == [["body", "records_retention_years"]], years
        assert refused.json()["detail"] == "Invalid request: check records_retention_years.", years
    assert _period(api, config["uuid"], 4).json()["errors"][0]["msg"] == "Input should be greater than or equal to 5"
    assert _period(api, config["uuid"], 11).json()["errors"][0]["msg"] == "Input should be less than or equal to 10"
    assert api.get(config_url(config["uuid"]), roles=["aml"]).json()["records_retention_years"] is None
    assert not AuditEvent.objects.filter(action_key="screening_config.update").exists()


def test_the_check_constraint_and_the_schemas_read_the_one_range():
    [constraint] = ScreeningConfig._meta.constraints
    assert constraint.condition == Q(records_retention_years__isnull=True) | Q(
        records_retention_years__gte=RETENTION_YEARS_MIN, records_retention_years__lte=RETENTION_YEARS_MAX)
    for schema in (ScreeningConfigIn, ScreeningConfigPatch):
        field = schema.model_json_schema()["properties"]["records_retention_years"]
        [number] = [option for option in field["anyOf"] if option.get("type") == "integer"]
        assert (number["minimum"], number["maximum"]) == (RETENTION_YEARS_MIN, RETENTION_YEARS_MAX), schema


def test_the_dry_run_counts_each_config_by_its_own_period(api, other_api, lists):
    seven = config_with(api, "un_security_council")
    assert _period(api, seven["uuid"], 7).status_code == 200
    _customer(api, seven["uuid"], UN_PERSON, age=SIX_YEARS)
    five = config_with(other_api, "un_security_council")
    _customer(other_api, five["uuid"], PEP_PERSON, age=SIX_YEARS)

    dry = StringIO()
    call_command("screening_records_retention", "--dry-run", stdout=dry)

    lines = dry.getvalue().splitlines()
    five_years_ago, seven_years_ago = (day(timezone.now() - relativedelta(years=y)) for y in (5, 7))
    names = dict(AppCustomer.objects.values_list("uuid", "name"))
    # A line per period (years, the day it reaches back to, how many setups, how many past it),
    # and under it each setup that keeps records that long, with its organisation.
    assert lines[:2] == [
        "Relationships that ended longer ago than their setup's retention period: 1.",
        f"  5 years (ended before {five_years_ago}), 1 setup: 1.",
    ]
    assert lines[2].startswith(
        f"    {names[other_api.app_customer_uuid]} ({other_api.app_customer_uuid}), kept 5 years: customer persons 1; cases ")
    assert lines[2].endswith(f" (setup {five['uuid']}, the deployment's period)")
    assert lines[3:] == [
        f"  7 years (ended before {seven_years_ago}), 1 setup: 0.",
        f"    {names[api.app_customer_uuid]} ({api.app_customer_uuid}), kept 7 years: nothing past the period "
        f"(setup {seven['uuid']}, its own period)",
        "Nothing deleted (--dry-run).",
    ]


def test_a_config_is_made_with_its_own_period_or_refused(api, lists):
    made = api.post(f"/analysis/v1/app-customer/{api.app_customer_uuid}/screening-config",
                    {"records_retention_years": 8}, roles=["aml"])
    assert made.status_code == 201, made.json()
    assert (made.json()["records_retention_years"], made.json()["effective_records_retention_years"]) == (8, 8)
    refused = api.post(f"/analysis/v1/app-customer/{api.app_customer_uuid}/screening-config",
                       {"records_retention_years": 3}, roles=["aml"])
    assert (refused.status_code, [e["loc"] for e in refused.json()["errors"]]) == (400, [["body", "records_retention_years"]])


def test_records_due_says_how_many_a_shorter_period_would_delete_and_changes_nothing(api, other_api, lists):
    config = config_with(api, "un_security_council")
    assert _period(api, config["uuid"], 10).status_code == 200
    _customer(api, config["uuid"], UN_PERSON, age=SIX_YEARS)  # ended six years ago
    held = _customer(api, config["uuid"], PEP_PERSON, age=relativedelta(years=8))
    assert api.post(config_url(config["uuid"], "/records-hold"), {
        "entity_key": "customer_person", "entity_uuid": held["person"], "reason": "Økokrim case 2026-114"},
        roles=["aml"]).status_code == 201
    _customer(api, config["uuid"], UN_PERSON, age=relativedelta(years=3))  # within any period

    def due(**query):
        response = api.get(config_url(config["uuid"], "/records-due"), query, roles=["aml"])
        assert response.status_code == 200, response.json()
        return response.json()

    five = due(records_retention_years=5)
    assert (five["effective_records_retention_years"], five["due_count"], five["held_count"]) == (5, 1, 1)
    assert five["retention_cutoff_date"] == str(timezone.localdate(timezone.now() - relativedelta(years=5)))
    # beside it, the present period's count (ten years: nothing past it) and what the change itself makes due
    assert (five["present_effective_records_retention_years"], five["present_due_count"], five["present_held_count"]) == (10, 0, 0)
    assert five["present_retention_cutoff_date"] == str(timezone.localdate(timezone.now() - relativedelta(years=10)))
    assert (five["due_by_change_count"], five["held_by_change_count"]) == (1, 1)
    assert (due(records_retention_years=7)["due_count"], due(records_retention_years=10)["due_count"]) == (0, 0)
    assert _period(api, config["uuid"], 5).status_code == 200
    # now past the present period already: a change to six makes none due; one to five changes nothing either
    six = due(records_retention_years=6)
    assert (six["present_due_count"], six["due_count"], six["due_by_change_count"], six["held_by_change_count"]) == (1, 1, 0, 0)
    assert _period(api, config["uuid"], 10).status_code == 200
    assert due()["due_count"] == 1  # absent: the deployment's five
    assert CustomerPerson.objects.count() == 3  # nothing changed

    for years in (4, 11, "x"):
        refused = api.get(config_url(config["uuid"], "/records-due"), {"records_retention_years": years}, roles=["aml"])
        assert (refused.status_code, [e["loc"] for e in refused.json()["errors"]]) == (
            400, [["query", "records_retention_years"]]), years
    assert other_api.get(config_url(config["uuid"], "/records-due"), roles=["aml"]).status_code == 404


def test_a_period_lengthened_while_the_pass_runs_keeps_the_records(api, lists):
    from service.screening import records_retention

    config = config_with(api, "un_security_council")
    former = _customer(api, config["uuid"], UN_PERSON, age=SIX_YEARS)
    [expired] = records_retention.expired_entities(now=timezone.now())
    assert _period(api, config["uuid"], 10).status_code == 200  # an admin, while the pass runs

    assert records_retention.screening_records_delete(expired=expired) is False
    assert CustomerPerson.objects.filter(uuid=former["person"]).exists()
