"""raw_reads.model_rows: hand-written reads give the instances the ORM would."""

from service.companies import models as m
from service.companies.raw_reads import Only, model_rows
from service.companies.register.selectors import uuid_param
from tests.service.companies.factories import accounts_make, company_make

_COMPANY = Only(m.Company, ("uuid", "name"))
_SQL = (
    f"SELECT {_COMPANY.select('c')}, a.* FROM service_companies_company c "
    "JOIN service_companies_accounts a ON a.company_id = c.uuid WHERE c.uuid = %s ORDER BY a.accounting_year"
)


def test_it_defers_the_fields_an_only_leaves_out_and_reads_them_on_access(db, django_assert_num_queries):
    company = company_make(name="Fjord AS")
    accounts_make(company=company, year=2023)
    accounts_make(company=company, year=2024)

    with django_assert_num_queries(1):
        rows = model_rows(_SQL, [uuid_param(company.uuid)], (_COMPANY, m.Accounts))
        read = rows[0][0]
        assert read.name == "Fjord AS" and read.get_deferred_fields() >= {"org_nr", "employees"}
    assert [accounts.accounting_year for _, accounts in rows] == [2023, 2024]
    assert rows[1][0] is read  # the company on every accounts row: one instance

    with django_assert_num_queries(1):  # as after QuerySet.only(): a deferred field costs a query, never a wrong value
        assert read.org_nr == company.org_nr
