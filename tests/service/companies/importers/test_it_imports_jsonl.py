"""import_jsonl: accounts (with a replacement), roles, payment remarks, collection cases, employment."""

from __future__ import annotations

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from service.companies.importers.jsonl import jsonl_import
from service.companies.models import (
    Accounts,
    CollectionCase,
    Company,
    CompanyEmployment,
    CompanyRole,
    PaymentRemark,
    Person,
)

AKER = "913748174"
HOLDING = "913192192"


@pytest.fixture
def companies(db):
    Company.objects.create(org_nr=AKER, name="AKER SOLUTIONS ASA")
    Company.objects.create(org_nr=HOLDING, name="AKER SOLUTIONS HOLDING AS")


def _write(tmp_path, records: list[dict | str], name="data.jsonl"):
    path = tmp_path / name
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n", encoding="utf-8"
    )
    return path


def _accounts(**overrides) -> dict:
    record = {
        "type": "accounts",
        "org_nr": AKER,
        "accounting_year": 2023,
        "accounts_type": "annual_company_accounts",
        "accounting_announcement_date": "2024-05-30",
        "accounting_from_date": "2023-01-01",
        "accounting_to_date": "2023-12-31",
        "audited": True,
        "income_statement": {"total_sales": 1000000, "total_operating_income": 1050000, "annual_result": 80000},
        "balance_sheet": {"total_assets": "2500000.50", "total_equity": 400000},
        "auditor_notes": [{"type": "unqualified_opinion", "note": "Clean report."}],
    }
    record.update(overrides)
    return record


def test_accounts_import_with_statements_notes_and_a_replacement(companies, tmp_path):
    replacement = _accounts(
        accounting_announcement_date="2024-09-15",
        replaces_previous=True,
        audited=False,
        income_statement={"total_sales": 1200000, "total_operating_income": 1250000, "annual_result": 95000},
    )
    group = _accounts(accounts_type="annual_corporate_group_accounts", income_statement={"total_sales": 9000000})
    path = _write(tmp_path, [_accounts(), replacement, group])

    result = jsonl_import(path=path, refresh_analysis=False)

    assert (result.rows_read, result.created, result.rejected) == (3, 3, [])
    original = Accounts.objects.get(accounting_announcement_date=date(2024, 5, 30), accounts_type__key="annual_company_accounts")
    newer = Accounts.objects.get(accounting_announcement_date=date(2024, 9, 15))
    assert original.replaced_by == newer and newer.replaced_by is None
    assert (newer.audited_flag, newer.income_statement.total_sales) == (False, Decimal("1200000"))
    assert original.balance_sheet.total_assets == Decimal("2500000.50")
    assert original.income_statement.salary_costs is None  # an omitted line stays empty, not zero
    assert [n.auditor_note for n in original.auditor_notes.all()] == ["Clean report."]
    consolidated = Accounts.objects.get(accounts_type__key="annual_corporate_group_accounts")
    assert consolidated.corporate_group_accounts_flag and consolidated.replaced_by is None

    again = jsonl_import(path=path, refresh_analysis=False)

    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert Accounts.objects.count() == 3


def test_a_second_set_without_replaces_previous_is_refused(companies, tmp_path):
    path = _write(tmp_path, [_accounts(), _accounts(accounting_announcement_date="2024-06-01")])

    result = jsonl_import(path=path, refresh_analysis=False)

    assert result.created == 1
    assert [(r.line, r.reason) for r in result.rejected] == [
        (2, "annual_company_accounts 2023 already exist with another announcement date; set replaces_previous to replace them")
    ]


def test_roles_persons_and_company_holders(companies, tmp_path):
    chair = {
        "type": "role",
        "org_nr": AKER,
        "role_type": "board_chair",
        "person": {"full_name": "Kari Nordmann", "birth_date": "1970-03-01", "nationality": "no", "gender": "female"},
        "from_date": "2020-01-01",
    }
    owner = {"type": "role", "org_nr": HOLDING, "role_type": "shareholder", "holder_org_nr": AKER, "share_percentage": 100}
    same_person_elsewhere = dict(chair, org_nr=HOLDING, role_type="board_member")
    path = _write(tmp_path, [chair, owner, same_person_elsewhere])

    result = jsonl_import(path=path, refresh_analysis=False)

    assert (result.created, result.rejected) == (3, [])
    assert Person.objects.count() == 1
    share = CompanyRole.objects.get(company__org_nr=HOLDING, company_role_type__key="shareholder")
    assert (share.holder_company.org_nr, share.share_percentage) == (AKER, Decimal("100"))
    assert jsonl_import(path=path, refresh_analysis=False).unchanged == 3


def test_collection_cases_payment_remarks_and_employment(companies, tmp_path):
    records = [
        {"type": "collection_case", "org_nr": AKER, "case_reference": "INK-1", "creditor_name": "Kreditor AS", "amount": 15000, "opened_date": "2024-01-10"},
        {"type": "payment_remark", "org_nr": AKER, "remark_type": "debt_collection", "registered_date": "2024-02-01", "amount": 15000, "creditor_name": "Kreditor AS", "case_reference": "INK-1"},
        {"type": "employment", "org_nr": AKER, "employee_count": 12, "from_date": "2024-01-01T00:00:00", "employee_count_from": 10, "employee_count_to": 12},
    ]
    path = _write(tmp_path, records)

    result = jsonl_import(path=path, refresh_analysis=False)

    assert (result.created, result.rejected) == (3, [])
    remark = PaymentRemark.objects.get()
    assert remark.collection_case == CollectionCase.objects.get(case_reference="INK-1")
    assert CompanyEmployment.objects.get().employee_count == 12
    assert jsonl_import(path=path, refresh_analysis=False).unchanged == 3


def test_bad_lines_are_reported_by_line_and_the_rest_imported(companies, tmp_path):
    path = _write(
        tmp_path,
        [
            _accounts(),
            "{not json",
            {"type": "nonsense", "org_nr": AKER},
            _accounts(org_nr="974760673"),
            _accounts(accounting_year=2022, income_statement={"total_salez": 1}),
            "",
            {"type": "employment", "org_nr": AKER, "employee_count": -1, "from_date": "2024-01-01"},
        ],
    )

    result = jsonl_import(path=path, refresh_analysis=False)

    assert result.rows_read == 6 and result.created == 1
    assert [(r.line, r.reason) for r in result.rejected] == [
        (2, "not JSON: Expecting property name enclosed in double quotes at column 2"),
        (3, "Input tag 'nonsense' found using 'type' does not match any of the expected tags: 'accounts', 'role', 'payment_remark', 'collection_case', 'employment'"),
        (4, "org_nr: company NO974760673 is not in the register"),
        (5, "income_statement.total_salez: Extra inputs are not permitted"),
        (7, "employee_count: Input should be greater than or equal to 0"),
    ]


def test_a_file_that_is_not_json_lines_is_refused(db, tmp_path):
    path = tmp_path / "data.jsonl"
    path.write_text("org_nr,year\n913748174,2023\n", encoding="utf-8")

    with pytest.raises(CommandError, match="not JSON lines"):
        call_command("import_jsonl", str(path), "--no-analysis", stdout=io.StringIO())
