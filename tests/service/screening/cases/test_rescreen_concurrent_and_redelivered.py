"""Re-screening under concurrency and redelivery: chunks of one run shared by workers, a
chunk delivered twice, runs racing to raise a false positive's successor. No second case."""

from __future__ import annotations


import pytest
from django.db import connection

from service.screening.models import ScreeningCase, ScreeningRun, ScreeningRunChunk
from service.screening.rescreen import chunk_screen, full_rescreen_plan
from service.screening.screening_run import monitorings_screen
from service.screening.tasks import screening_list_version_rescreen_task, screening_run_chunk_task
from tests.racing import at_once
from tests.service.screening.cases.conftest import UN_PERSON
from tests.service.screening.cases.list_versions import NEW_UN_PERSON, un_import, un_xml
from tests.service.screening.cases.steps import cases, config_with, customer_person_screened, review

postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent writers")


def test_it_makes_no_second_case_when_a_chunk_is_delivered_again(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], NEW_UN_PERSON)
    version = un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True)).version
    [chunk] = ScreeningRunChunk.objects.filter(run__list_version=version)
    assert (chunk.screened, chunk.cases_created) == (1, 1)

    screening_run_chunk_task.delay(str(chunk.uuid))  # delivered again after it was done
    ScreeningRunChunk.objects.filter(pk=chunk.pk).update(done_timestamp=None)  # a worker lost before marking it done
    ScreeningRun.objects.filter(pk=chunk.run_id).update(finished_timestamp=None)
    screening_run_chunk_task.delay(str(chunk.uuid))
    screening_list_version_rescreen_task.delay(str(version.uuid))  # the planning task delivered again

    assert [c["screening_case_match"]["list_entry"]["source_id"] for c in cases(api, config["uuid"])["elements"]] == ["KPi.902"]
    chunk.refresh_from_db()
    assert chunk.done_timestamp is not None and chunk.cases_created == 0  # the second delivery found its case made
    assert ScreeningRun.objects.get(pk=chunk.run_id).finished_timestamp is not None
    assert ScreeningRun.objects.filter(list_version=version).count() == 1


def test_it_shares_a_full_rescreen_between_chunks_and_finishes_the_run(api, lists):
    config = config_with(api, "un_security_council")
    for name in (UN_PERSON, "Kari Nordmann", "Ola Nordmann", "Per Hansen", "Liv Berg"):
        customer_person_screened(api, config["uuid"], name)
    ScreeningCase.objects.all().delete()

    run = full_rescreen_plan(chunk_size=2)  # the eager tasks run each chunk on commit

    run.refresh_from_db()
    assert run.chunk_count == 3 and run.finished_timestamp is not None
    assert sum(run.chunks.values_list("screened", flat=True)) == 5
    assert [c["monitoring_customer_person"]["full_name"] for c in cases(api, config["uuid"])["elements"]] == [UN_PERSON]


@postgresql_only
def test_it_makes_one_case_when_chunks_and_runs_race(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], NEW_UN_PERSON)["entity_monitoring"]
    version = un_import(tmp_path, "un-v2.xml", un_xml(new_individual=True)).version
    [chunk] = ScreeningRunChunk.objects.filter(run__list_version=version)
    ScreeningCase.objects.all().delete()
    ScreeningRunChunk.objects.update(done_timestamp=None)

    at_once(
        lambda: chunk_screen(chunk_uuid=chunk.uuid),
        lambda: chunk_screen(chunk_uuid=chunk.uuid),
        lambda: monitorings_screen(monitoring_uuids=[monitoring["uuid"]]),
        lambda: monitorings_screen(monitoring_uuids=[monitoring["uuid"]]),
    )

    assert ScreeningCase.objects.count() == 1


@postgresql_only
def test_it_raises_one_successor_of_a_false_positive_when_runs_race(api, lists, tmp_path):
    config = config_with(api, "un_security_council")
    monitoring = customer_person_screened(api, config["uuid"], UN_PERSON)["entity_monitoring"]
    old = cases(api, config["uuid"])["elements"][0]["screening_case"]["uuid"]
    review(api, config["uuid"], old, "false_positive", "no_match")
    version = un_import(tmp_path, "un-v2.xml", un_xml(person_comment="Changed.")).version
    ScreeningCase.objects.exclude(uuid=old).delete()  # as if the delta run had not happened yet
    ScreeningRunChunk.objects.filter(run__list_version=version).update(done_timestamp=None)
    [chunk] = ScreeningRunChunk.objects.filter(run__list_version=version)

    at_once(
        lambda: chunk_screen(chunk_uuid=chunk.uuid),
        lambda: chunk_screen(chunk_uuid=chunk.uuid),
        lambda: monitorings_screen(monitoring_uuids=[monitoring["uuid"]]),
        lambda: monitorings_screen(monitoring_uuids=[monitoring["uuid"]]),
    )

    successors = ScreeningCase.objects.filter(previous_case_id=old)
    assert successors.count() == 1 and ScreeningCase.objects.count() == 2


def test_it_rescreens_everything_with_the_command(api, lists):
    from io import StringIO

    from django.core.management import call_command

    config = config_with(api, "un_security_council")
    customer_person_screened(api, config["uuid"], UN_PERSON)
    customer_person_screened(api, config["uuid"], "Kari Nordmann")
    ScreeningCase.objects.all().delete()
    out = StringIO()

    call_command("rescreen_all", "--chunk-size", "1", "--wait", stdout=out)

    assert "2 chunk(s) queued" in out.getvalue()
    assert "Done: screened 2, hits 1, new cases 1" in out.getvalue()
    assert [c["monitoring_customer_person"]["full_name"] for c in cases(api, config["uuid"])["elements"]] == [UN_PERSON]
