"""Screenings whose message the broker refused (away at the moment of the commit): the request
answers, the database says what is owed, and beat's resume tasks enqueue it once it is older
than VAKT_RESUME_AFTER_SECONDS; what was done, or is too recent, is left alone."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from service.screening.models import (
    EntityMonitoring,
    ScreeningCase,
    ScreeningConfigListCategory,
    ScreeningListVersion,
    ScreeningRun,
)
from service.screening.tasks import (
    screening_config_rescreens_resume,
    screening_list_versions_resume,
    screening_monitorings_resume,
)
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.list_versions import NEW_UN_PERSON, un_import, un_xml
from tests.service.screening.cases.steps import config_with, customer_person_screened
from tests.service.screening.helpers import AML, category_uuid, config_url, decide, patch


def _later(settings) -> None:
    """Pretend the resume delay has passed for everything owed."""
    settings.VAKT_RESUME_AFTER_SECONDS = 5
    past = timezone.now() - timedelta(seconds=60)
    EntityMonitoring.objects.exclude(screening_owed_timestamp=None).update(screening_owed_timestamp=past)
    ScreeningConfigListCategory.objects.exclude(rescreen_owed_timestamp=None).update(rescreen_owed_timestamp=past)
    ScreeningListVersion.objects.update(imported_at=past)


def _cases(config) -> int:
    return ScreeningCase.objects.filter(screening_config_id=config["uuid"]).count()


def test_it_screens_an_approved_monitoring_whose_screening_was_lost_once_it_is_due(api, lists, broker_away, settings):
    config = config_with(api, "un_security_council")
    with broker_away():
        monitoring = customer_person_screened(api, config["uuid"], UN_PERSON)  # 201 all the same
    assert _cases(config) == 0

    assert screening_monitorings_resume() == 0  # too recent: it may still be in a queue
    _later(settings)
    assert screening_monitorings_resume() == 1
    assert _cases(config) == 1
    assert EntityMonitoring.objects.get(uuid=monitoring["entity_monitoring"]["uuid"]).screening_owed_timestamp is None
    assert screening_monitorings_resume() == 0
    assert _cases(config) == 1


def test_it_resumes_nothing_for_a_monitoring_screened_when_approved(api, lists, settings):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    _later(settings)

    assert screening_monitorings_resume() == 0
    assert _cases(config) == 1


def test_it_resumes_nothing_for_a_monitoring_declined_or_removed_before_its_screening_ran(api, lists, broker_away, settings):
    config = config_with(api, "un_security_council")
    with broker_away():
        declined = customer_person_screened(api, config["uuid"], UN_PERSON)
        removed = customer_person_screened(api, config["uuid"], NEW_UN_PERSON)
    assert decide(api, config["uuid"], declined["entity_monitoring"]["uuid"], approved=False).status_code == 201
    removal = {"removed_flag": True, "removal_reason": "No longer a customer."}
    assert patch(api, config_url(config["uuid"], f"/entity-monitoring/{removed['entity_monitoring']['uuid']}"), removal).status_code == 200
    _later(settings)

    assert screening_monitorings_resume() == 0
    assert _cases(config) == 0


def test_it_resumes_the_screening_of_a_monitoring_approved_again_after_a_decline(api, lists, broker_away, settings):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON)
    ScreeningCase.objects.all().delete()  # as if the list had no hit then: the second approval must screen
    assert decide(api, config["uuid"], monitoring["entity_monitoring"]["uuid"], approved=False).status_code == 201
    with broker_away():
        assert decide(api, config["uuid"], monitoring["entity_monitoring"]["uuid"]).status_code == 201
    _later(settings)

    assert screening_monitorings_resume() == 1
    assert _cases(config) == 1


def test_it_plans_the_rescreen_of_a_list_version_whose_message_was_lost(api, lists, broker_away, settings, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], NEW_UN_PERSON)
    with broker_away():
        result = un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True))  # the import commits all the same
    assert result.added == 1 and _cases(config) == 0

    assert screening_list_versions_resume() == 0
    _later(settings)
    assert screening_list_versions_resume() == 1
    assert ScreeningRun.objects.get(list_version=result.version).finished_timestamp is not None
    assert _cases(config) == 1
    assert screening_list_versions_resume() == 0


def test_it_plans_no_rescreen_of_a_version_planned_or_superseded(api, lists, broker_away, settings, tmp_path):
    un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True))  # planned when imported
    with broker_away():
        un_import(tmp_path, "un-v3.xml", un_xml(new_individual=True, person_comment="Re-listed."))
    un_import(tmp_path, "un-v4.xml", un_xml(new_individual=True, person_comment="Re-listed again."))
    _later(settings)

    assert screening_list_versions_resume() == 0  # v3's delta is superseded by v4's, which was planned


def test_it_rescreens_a_config_whose_category_selection_rescreen_was_lost(api, lists, broker_away, settings):
    config = config_with(api)  # PEP only
    customer_person_screened(api, config["uuid"], UN_PERSON)
    with broker_away():
        selected = api.post(
            config_url(config["uuid"], "/screening-config-screening-list-category"),
            {"screening_list_category_uuid": category_uuid("un_security_council")},
            roles=AML,
        )
    assert selected.status_code == 201, selected.json()
    assert _cases(config) == 0

    assert screening_config_rescreens_resume() == 0
    _later(settings)
    assert screening_config_rescreens_resume() == 1
    assert _cases(config) == 1
    assert screening_config_rescreens_resume() == 0


def test_it_rescreens_no_config_whose_category_selection_was_screened(api, lists, settings):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    runs = ScreeningRun.objects.filter(kind=ScreeningRun.Kind.FULL).count()
    _later(settings)

    assert screening_config_rescreens_resume() == 0
    assert ScreeningRun.objects.filter(kind=ScreeningRun.Kind.FULL).count() == runs == 1  # the one at selection
