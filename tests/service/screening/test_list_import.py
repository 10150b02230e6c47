"""Importing screening lists as versioned snapshots."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading
from functools import partial
from http.server import HTTPServer, SimpleHTTPRequestHandler

import pytest
from django.core.management import CommandError, call_command

from service.screening.list_import import ListImportError, screening_list_import
from service.screening.models import ScreeningListCategory, ScreeningListEntryChange
from service.screening.tasks import screening_list_refresh_task
from tests.conftest import shared_file

UN_XML = "sanctions/un/UN_consolidated.xml"


def _un_category() -> ScreeningListCategory:
    return ScreeningListCategory.objects.get(key="un_security_council")


def _count_subjects(xml: str) -> int:
    return len(re.findall(r"<INDIVIDUAL>", xml)) + len(re.findall(r"<ENTITY>", xml))


@pytest.mark.django_db
def test_it_imports_the_real_un_list_as_version_one():
    path = shared_file(UN_XML)
    result = screening_list_import(category=_un_category(), path=path)
    expected = _count_subjects(path.read_text(encoding="utf-8"))
    category = _un_category()
    assert category.current_version == result.version
    assert result.version.number == 1
    assert result.accepted == result.version.entry_count == expected
    assert result.added == expected and result.changed == 0 and result.removed == 0
    assert category.current_version.entries.filter(schema="Person").count() == 730


@pytest.mark.django_db
def test_it_records_added_changed_and_removed_entries(tmp_path):
    path = shared_file(UN_XML)
    screening_list_import(category=_un_category(), path=path)
    xml = path.read_text(encoding="utf-8")
    individuals = re.findall(r"<INDIVIDUAL>.*?</INDIVIDUAL>", xml, flags=re.S)
    removed_block, changed_block = individuals[0], individuals[1]
    removed_ref = re.search(r"<REFERENCE_NUMBER>(.*?)</REFERENCE_NUMBER>", removed_block).group(1)
    changed_ref = re.search(r"<REFERENCE_NUMBER>(.*?)</REFERENCE_NUMBER>", changed_block).group(1)
    added_block = changed_block.replace(changed_ref, "QDi.999").replace("<FIRST_NAME>", "<FIRST_NAME>NEWLY LISTED ", 1)
    changed_new = changed_block.replace("<FIRST_NAME>", "<FIRST_NAME>RENAMED ", 1)
    edited = xml.replace(removed_block, "").replace(changed_block, changed_new + added_block)
    second = tmp_path / "UN_consolidated.xml"
    second.write_text(edited, encoding="utf-8")

    result = screening_list_import(category=_un_category(), path=second)

    assert result.version.number == 2
    assert (result.added, result.changed, result.removed) == (1, 1, 1)
    changes = {c.change: c for c in ScreeningListEntryChange.objects.filter(version=result.version)}
    assert changes["removed"].source_id == removed_ref and changes["removed"].entry is None
    assert changes["changed"].source_id == changed_ref
    assert changes["changed"].entry.primary_name.startswith("RENAMED")
    assert changes["added"].source_id == "QDi.999"


@pytest.mark.django_db
def test_it_keeps_the_current_version_when_a_file_is_broken(tmp_path):
    path = shared_file(UN_XML)
    first = screening_list_import(category=_un_category(), path=path)
    truncated = tmp_path / "UN_consolidated.xml"
    truncated.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])

    with pytest.raises(ListImportError, match="was not imported"):
        screening_list_import(category=_un_category(), path=truncated)

    category = _un_category()
    assert category.current_version == first.version
    assert category.versions.count() == 1


@pytest.mark.django_db
def test_it_skips_an_unchanged_file():
    path = shared_file(UN_XML)
    screening_list_import(category=_un_category(), path=path)
    again = screening_list_import(category=_un_category(), path=path)
    assert again.unchanged
    assert _un_category().versions.count() == 1


@pytest.mark.django_db
def test_a_second_import_of_the_same_file_started_before_the_first_committed_makes_no_version():
    """Two imports at once (beat's refresh and the command, or a redelivered refresh): the one
    that gets the category's lock second sees the first one's version, not the one it read."""
    path = shared_file(UN_XML)
    read_before_the_first_committed = _un_category()
    screening_list_import(category=_un_category(), path=path)

    again = screening_list_import(category=read_before_the_first_committed, path=path)

    assert again.unchanged and again.version.number == 1
    assert _un_category().versions.count() == 1


@pytest.mark.django_db
def test_it_imports_through_the_command_with_a_summary(capsys):
    path = shared_file("sanctions/ofac/sdn.csv")
    call_command("import_screening_list", str(path), "--quiet")
    out = capsys.readouterr().out
    assert out.startswith("us_ofac_sdn v1: read ")
    category = ScreeningListCategory.objects.get(key="us_ofac_sdn")
    assert category.current_version.entry_count > 7000


@pytest.mark.django_db
def test_it_refuses_an_unknown_category_and_an_unknown_format(tmp_path):
    path = shared_file("pep/us_congress_senzing.json")
    with pytest.raises(CommandError, match="Unknown category 'nope'"):
        call_command("import_screening_list", str(path), "--category", "nope", "--quiet")
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    with pytest.raises(CommandError, match="Cannot tell the format"):
        call_command("import_screening_list", str(junk), "--quiet")


@pytest.mark.django_db
def test_it_creates_a_category_for_a_new_list(tmp_path):
    path = shared_file("pep/us_congress_senzing.json")
    call_command(
        "import_screening_list", str(path), "--category", "pep_us", "--create", "pep", "--name", "US PEPs", "--quiet"
    )
    category = ScreeningListCategory.objects.get(key="pep_us")
    assert category.list_type == "pep" and category.current_version.entry_count > 1300


@pytest.mark.django_db
def test_it_refreshes_a_list_from_its_url_over_http(tmp_path):
    folder = tmp_path / "served"
    folder.mkdir()
    for name in ("sdn.csv", "alt.csv", "add.csv"):
        shutil.copy(shared_file(f"sanctions/ofac/{name}"), folder / name)
    server = HTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        ScreeningListCategory.objects.filter(key="us_ofac_sdn").update(
            refresh_url=f"http://127.0.0.1:{server.server_port}/sdn.csv"
        )
        summary = screening_list_refresh_task("us_ofac_sdn")
    finally:
        server.shutdown()
    category = ScreeningListCategory.objects.get(key="us_ofac_sdn")
    assert summary.startswith("us_ofac_sdn v1")
    # aliases came from alt.csv, downloaded beside sdn.csv
    aliases = sum(
        1 for names in category.current_version.entries.values_list("names", flat=True) for n in names if n["kind"] == "alias"
    )
    assert aliases > 5000


def test_it_returns_quietly_when_the_category_is_gone(db):
    assert screening_list_refresh_task("no_such_list") is None


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.mark.django_db
def test_a_peps_positions_are_stored_and_a_position_given_later_changes_the_entry(tmp_path):
    category = ScreeningListCategory.objects.get(key="pep")
    path = shared_file("pep/us_congress_senzing.json")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    without_positions = tmp_path / "pep_v1.json"  # as an export without the position records would be
    without_positions.write_text("".join(line for line in lines if '"RECORD_TYPE":null' not in line), encoding="utf-8")
    first = screening_list_import(category=category, path=without_positions)
    mcclellan = first.version.entries.get(primary_name="Jennifer L. McClellan")
    assert mcclellan.positions == []

    second = screening_list_import(category=category, path=path)

    entry = second.version.entries.get(primary_name="Jennifer L. McClellan")
    assert entry.positions == ["United States representative"]
    assert entry.content_hash != mcclellan.content_hash  # a new fact: changed, as a reviewer would want to know
    assert second.changed == second.version.entry_count == 1317


@pytest.mark.django_db
def test_an_entry_without_positions_keeps_the_hash_it_had_before_positions_were_read():
    # Entries hashed before positions were read must not all turn "changed" (raising closed false positives again).
    path = shared_file(UN_XML)
    result = screening_list_import(category=_un_category(), path=path)
    entry = result.version.entries.order_by("source_id").first()
    values = {field: getattr(entry, field) for field in (
        "source_id", "schema", "primary_name", "names", "birth_dates", "nationalities", "gender", "identifiers",
        "programmes", "listed_date", "source_url", "remarks", "addresses")}
    assert entry.content_hash == hashlib.sha256(json.dumps(values, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
