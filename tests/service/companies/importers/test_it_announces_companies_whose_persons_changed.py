"""The register imports announce, once per import and after commit, the companies whose
persons changed and every company downstream of them (`company_persons_changed`)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from service.companies.models import CompanyRole
from service.companies.signals import company_persons_changed
from tests.service.companies.factories import company_make, role_make


@pytest.fixture
def announced(transactional_db):
    heard = []

    def receiver(sender, *, company_uuids, register_update, **kwargs):
        heard.append((set(company_uuids), register_update))

    company_persons_changed.connect(receiver, dispatch_uid="test-announced")
    yield heard
    company_persons_changed.disconnect(dispatch_uid="test-announced")


def _roles(tmp_path, *records) -> str:
    path = tmp_path / "roles.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


def test_a_new_owner_of_the_top_reaches_every_company_below_and_only_those(announced, tmp_path, stopped_clock):
    top, middle, bottom, cycle_mate, above, elsewhere = (
        company_make(name=n) for n in ("Topp AS", "Midt AS", "Bunn AS", "Sirkel AS", "Over AS", "Annet AS")
    )
    for holder, held in ((top, middle), (middle, bottom), (bottom, cycle_mate), (cycle_mate, middle), (above, top)):
        role_make(company=held, role_key="shareholder", holder_company=holder, share_percentage=Decimal("50"))
    board = {"type": "role", "org_nr": elsewhere.org_nr, "role_type": "board_chair", "person": {"full_name": "Ola Styre"}}
    owner = {"type": "role", "org_nr": top.org_nr, "role_type": "shareholder", "share_percentage": 60, "person": {"full_name": "Kari Eier"}}

    call_command("import_jsonl", _roles(tmp_path, owner, board), "--quiet", "--no-analysis")

    assert announced == [
        ({top.uuid, middle.uuid, bottom.uuid, cycle_mate.uuid, elsewhere.uuid}, timezone.localdate())
    ]


def test_an_unchanged_reimport_announces_nothing(announced, tmp_path):
    company = company_make(name="Nordlys AS")
    path = _roles(tmp_path, {"type": "role", "org_nr": company.org_nr, "role_type": "ceo", "person": {"full_name": "Per Leder"}})
    call_command("import_jsonl", path, "--quiet", "--no-analysis")
    announced.clear()

    call_command("import_jsonl", path, "--quiet", "--no-analysis")

    assert announced == []


def test_the_group_import_announces_the_owned_companies_once(announced, tmp_path, stopped_clock):
    parent, child, grandchild = (company_make(name=n) for n in ("Mor AS", "Datter AS", "Barnebarn AS"))
    # With a from_date: not a role of the group import's kind, which it would close as unlisted.
    role_make(company=grandchild, role_key="shareholder", holder_company=child, share_percentage=Decimal("100"), from_date=date(2020, 1, 1))
    path = tmp_path / "konsern-roller.csv"
    path.write_text(
        "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
        f"{parent.org_nr},{child.org_nr},HFOR,100\n",
        encoding="utf-8",
    )

    call_command("import_group_ownership", str(path), "--quiet", "--no-analysis", "--batch-size", "1")

    assert announced == [({child.uuid, grandchild.uuid}, timezone.localdate())]


def test_a_group_import_as_midnight_passes_dates_the_closing_and_the_announcement_alike(announced, tmp_path, monkeypatch):
    parent, child = (company_make(name=n) for n in ("Mor AS", "Datter AS"))
    header = "influencing_tax_ident,influenced_tax_ident,rel_type_code,percentage\n"
    path = tmp_path / "konsern-roller.csv"
    path.write_text(header + f"{parent.org_nr},{child.org_nr},HFOR,100\n", encoding="utf-8")
    call_command("import_group_ownership", str(path), "--quiet", "--no-analysis")
    announced.clear()
    path.write_text(header, encoding="utf-8")  # the ownership is no longer listed
    days = iter([date(2026, 11, 26)])
    monkeypatch.setattr(timezone, "localdate", lambda *args: next(days, date(2026, 11, 27)))

    call_command("import_group_ownership", str(path), "--quiet", "--no-analysis")

    closed = child.roles.get(holder_company=parent)
    assert announced == [({child.uuid}, closed.to_date)]


def test_a_receiver_that_raises_neither_fails_the_import_nor_silences_the_others(transactional_db, tmp_path, caplog):
    # A committed register change stays an import that succeeded; the failed receiver's work is logged.
    heard = []

    def broken(sender, **kwargs):
        raise RuntimeError("broker down")

    company_persons_changed.connect(broken, dispatch_uid="test-broken")  # connected first: runs first
    company_persons_changed.connect(lambda sender, company_uuids, **kw: heard.append(set(company_uuids)), weak=False, dispatch_uid="test-heard")
    try:
        company = company_make(name="Nordlys AS")
        path = _roles(tmp_path, {"type": "role", "org_nr": company.org_nr, "role_type": "ceo", "person": {"full_name": "Per Leder"}})
        call_command("import_jsonl", path, "--quiet", "--no-analysis")
    finally:
        company_persons_changed.disconnect(dispatch_uid="test-broken")
        company_persons_changed.disconnect(dispatch_uid="test-heard")

    assert heard == [{company.uuid}]
    assert CompanyRole.objects.filter(company=company, holder_person__full_name="Per Leder").exists()
    assert "its work for it is not done" in caplog.text and "1 companies" in caplog.text
