"""The company's unique organisation number on PostgreSQL: the column in the "C" collation and the
number first in the unique index (migration 0003; the model's comment says why). A later
migration that alters the field without keeping the collation fails here."""

from __future__ import annotations

import pytest
from django.db import connection

from service.companies.models import Company

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL collation")
def test_it_keeps_org_nr_in_the_c_collation_first_in_its_unique_index():
    table = Company._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT collation_name FROM information_schema.columns WHERE table_name = %s AND column_name = 'org_nr'", [table]
        )
        assert cursor.fetchone() == ("C",)
        cursor.execute("SELECT pg_get_indexdef('company_unique_org_nr'::regclass)")
        assert "(org_nr, org_nr_schema)" in cursor.fetchone()[0]


def test_it_still_refuses_a_second_company_with_the_same_number(db):
    from django.db import IntegrityError, transaction

    Company.objects.create(org_nr="913748174", name="Aker Solutions ASA")
    with pytest.raises(IntegrityError), transaction.atomic():
        Company.objects.create(org_nr="913748174", name="Someone else")
    Company.objects.create(org_nr="913748174", org_nr_schema="SE", name="Another register's number")
