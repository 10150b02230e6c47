"""A refresh that waits for the company rows a register write holds works on what that write
left (PostgreSQL only: SQLite serialises writers anyway)."""

from __future__ import annotations

import sys
from datetime import date

import pytest
from django.db import connection, transaction

from service.companies import models as m
from service.companies.analysis import analysis_refresh
from tests.racing import race
from tests.service.companies.factories import accounts_make, company_make, organization_type_make

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
TODAY = date(2025, 9, 1)


def written() -> None:
    """Called inside the register write's transaction, after its update: where the race holds it."""


def test_a_refresh_that_waited_for_a_change_of_organisation_type_judges_the_new_type(transactional_db, monkeypatch):
    company = company_make(organization_type="ENK", registration_date=date(2020, 1, 1))
    accounts_make(company=company, year=2023)  # an AS would owe its 2024 accounts on TODAY
    as_type = organization_type_make("AS")

    def register_write():
        with transaction.atomic():
            m.Company.objects.filter(pk=company.pk).update(organization_type=as_type)
            written()

    # The register write is held, uncommitted, until the refresh waits for the company's lock.
    _, refreshed = race(
        monkeypatch, sys.modules[__name__], "written", register_write,
        lambda: analysis_refresh(company_uuids=[company.uuid], today=TODAY),
    )

    assert not isinstance(refreshed, Exception), refreshed
    flags = m.CompanyFlag.objects.filter(company=company, flag_end_date__isnull=True)
    assert list(flags.values_list("company_flag_type__key", flat=True)) == ["missing_accounts"]
