"""The company register and its analysis: reference entities, companies, persons and
roles, accounts, credit risk, flags, employment, collection cases and yearly measures.

Keys of reference entities carry their country prefix (`NO-62.010`, `NO-AS`,
`NO-11`, `NO-1101`), so one table can hold several countries' codes.
Money and measures are Decimals; `update_timestamp` feeds the datasets API's
change filters.
"""

import uuid
from datetime import date

from django.db import models

MONEY = {"max_digits": 20, "decimal_places": 2, "null": True, "blank": True}
RATIO = {"max_digits": 20, "decimal_places": 6, "null": True, "blank": True}


class Entity(models.Model):
    uuid = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)

    class Meta:
        abstract = True


class KeyedEntity(Entity):
    key = models.CharField(max_length=64, unique=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.key


# --- reference entities -------------------------------------------------------------


class GeoCountry(KeyedEntity):
    """key: ISO 3166-1 alpha-2, e.g. NO."""

    name = models.CharField(max_length=100)


class GeoSubdivision(KeyedEntity):
    """A county (fylke); key `NO-11`."""

    country = models.ForeignKey(GeoCountry, on_delete=models.PROTECT, related_name="subdivisions")
    code = models.CharField(max_length=10)
    name = models.CharField(max_length=100)


class GeoMunicipality(KeyedEntity):
    """key `NO-1101`; the first two digits of the code are the county."""

    subdivision = models.ForeignKey(GeoSubdivision, on_delete=models.PROTECT, related_name="municipalities")
    code = models.CharField(max_length=10)
    name = models.CharField(max_length=100)


class GeoPostalCode(KeyedEntity):
    """key `NO-1425`."""

    country = models.ForeignKey(GeoCountry, on_delete=models.PROTECT, related_name="postal_codes")
    municipality = models.ForeignKey(
        GeoMunicipality, on_delete=models.PROTECT, null=True, blank=True, related_name="postal_codes"
    )
    code = models.CharField(max_length=10)
    place_name = models.CharField(max_length=100, blank=True)


class NaceCode(KeyedEntity):
    """SN2007 (NACE) code at one of five levels; key `NO-62.010`, path `J.62.0.1.0`.

    `path` is the dotted tree path of the source file: a code's descendants are
    the codes whose path starts with its path plus a dot.
    """

    code = models.CharField(max_length=10)  # J, 62, 62.0, 62.01, 62.010
    level = models.PositiveSmallIntegerField()  # 1 section .. 5 subclass
    path = models.CharField(max_length=20, unique=True)
    name = models.CharField(max_length=300)
    description = models.TextField(blank=True)
    parent = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="children")


class OrganizationType(KeyedEntity):
    """key `NO-AS`."""

    code = models.CharField(max_length=10)
    name = models.CharField(max_length=200)


# --- companies, persons, roles ----------------------------------------------------------


class Company(Entity):
    """Indexed only where a query looks: org number (unique), primary NACE code, business
    municipality and postal code (the sector peer group), update_timestamp (the datasets change
    feeds). Every other foreign key has `db_index=False`: nothing filters companies by it, and
    each index costs every import (see docs/importers.md). Deleting a reference row (PROTECT)
    then scans the table, which only happens by hand. Name search matches case-insensitive
    patterns, which a btree on name cannot serve, so name has no index either."""

    # On PostgreSQL the column has the "C" collation (migration 0003, PostgreSQL only: SQLite has no
    # such collation, and its default compares bytes anyway). Organisation numbers are ASCII digits, so
    # byte order is their order; the unique index builds and probes several times faster than under a
    # language collation. A migration that alters this field must keep COLLATE "C" on PostgreSQL
    # (tests/service/companies/test_org_nr_collation.py checks it).
    org_nr = models.CharField(max_length=20)
    org_nr_schema = models.CharField(max_length=4, default="NO")
    name = models.CharField(max_length=300)
    organization_type = models.ForeignKey(
        OrganizationType, on_delete=models.PROTECT, null=True, blank=True, db_index=False
    )
    nace_code_1 = models.ForeignKey(NaceCode, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    nace_code_2 = models.ForeignKey(
        NaceCode, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    nace_code_3 = models.ForeignKey(
        NaceCode, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    # business address, tied to geo entities for benchmarking
    business_address = models.CharField(max_length=300, blank=True)
    business_postal_code = models.ForeignKey(
        GeoPostalCode, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    business_municipality = models.ForeignKey(
        GeoMunicipality, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    business_country = models.ForeignKey(
        GeoCountry, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    postal_address = models.CharField(max_length=300, blank=True)
    postal_postal_code = models.ForeignKey(
        GeoPostalCode, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    postal_municipality = models.ForeignKey(
        GeoMunicipality, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    postal_country = models.ForeignKey(
        GeoCountry, on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    website = models.CharField(max_length=300, blank=True)
    employees = models.IntegerField(null=True, blank=True)
    registration_date = models.DateField(null=True, blank=True)
    founded_date = models.DateField(null=True, blank=True)
    last_submitted_accounts_year = models.IntegerField(null=True, blank=True)
    parent_org_nr = models.CharField(max_length=20, blank=True)  # overordnetEnhet
    # statuses from the register
    is_bankrupt = models.BooleanField(default=False)
    bankrupt_date = models.DateField(null=True, blank=True)
    is_under_liquidation = models.BooleanField(default=False)
    under_liquidation_date = models.DateField(null=True, blank=True)
    is_under_forced_dissolution = models.BooleanField(default=False)
    forced_dissolution_date = models.DateField(null=True, blank=True)
    create_timestamp = models.DateTimeField(auto_now_add=True)
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        # The organisation number first: it tells companies apart (the schema is "NO" for nearly all).
        constraints = [models.UniqueConstraint(fields=["org_nr", "org_nr_schema"], name="company_unique_org_nr")]

    def __str__(self) -> str:
        return f"{self.name} ({self.org_nr_schema}{self.org_nr})"


class Person(Entity):
    full_name = models.CharField(max_length=300, db_index=True)
    first_name = models.CharField(max_length=150, blank=True)
    last_name = models.CharField(max_length=150, blank=True)
    birth_date = models.DateField(null=True, blank=True)
    nationality = models.CharField(max_length=2, blank=True)  # ISO 3166-1 alpha-2, lower case
    gender = models.CharField(max_length=10, blank=True)  # male / female / ""
    # Protected by the person_national_identification role.
    national_identification_number = models.CharField(max_length=20, blank=True)
    national_identification_schema = models.CharField(max_length=4, blank=True)
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)

    def __str__(self) -> str:
        return self.full_name


class CompanyRoleType(KeyedEntity):
    """Keys in service.companies.catalog.ROLE_TYPES."""

    description = models.CharField(max_length=200)


class CompanyRole(Entity):
    """A person's or another company's role in a company; shareholders carry their share.

    Ownership between companies (the corporate group chain) is a `shareholder`
    role held by a company.
    """

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="roles")
    company_role_type = models.ForeignKey(CompanyRoleType, on_delete=models.PROTECT)
    holder_person = models.ForeignKey(Person, on_delete=models.CASCADE, null=True, blank=True, related_name="roles")
    holder_company = models.ForeignKey(
        Company, on_delete=models.CASCADE, null=True, blank=True, related_name="held_roles"
    )
    share_percentage = models.DecimalField(max_digits=7, decimal_places=4, null=True, blank=True)
    from_date = models.DateField(null=True, blank=True)
    to_date = models.DateField(null=True, blank=True)
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)

    # One rule for "current": a role holds from its from_date (none: it always has) until the
    # day before its to_date (none: it still does). current_q is the same rule for queries.
    def current_on(self, day: date) -> bool:
        return (self.from_date is None or self.from_date <= day) and (self.to_date is None or self.to_date > day)

    @staticmethod
    def current_q(day: date) -> models.Q:
        return (models.Q(from_date__isnull=True) | models.Q(from_date__lte=day)) & (
            models.Q(to_date__isnull=True) | models.Q(to_date__gt=day)
        )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(holder_person__isnull=False, holder_company__isnull=True)
                | models.Q(holder_person__isnull=True, holder_company__isnull=False),
                name="company_role_one_holder",
            )
        ]


# --- accounts ---------------------------------------------------------------------------------


class AccountsType(KeyedEntity):
    """annual_company_accounts, annual_corporate_group_accounts."""


class Accounts(Entity):
    """One filed set of accounts. A replaced set stays, with `replaced_by` pointing at its successor."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="accounts")
    accounts_type = models.ForeignKey(AccountsType, on_delete=models.PROTECT)
    accounting_year = models.IntegerField()
    accounting_announcement_date = models.DateField(null=True, blank=True)
    accounting_schema = models.CharField(max_length=30, default="NO-GAAP")
    accounting_from_date = models.DateField(null=True, blank=True)
    accounting_to_date = models.DateField(null=True, blank=True)
    corporate_group_accounts_flag = models.BooleanField(default=False)
    estimated_accounting_period_flag = models.BooleanField(default=False)
    currency_code = models.CharField(max_length=3, default="NOK")
    audited_flag = models.BooleanField(default=True)
    replaced_by = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="replaces"
    )
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["company", "accounting_year"])]


class AccountsIncomeStatement(Entity):
    accounts = models.OneToOneField(Accounts, on_delete=models.CASCADE, related_name="income_statement")
    currency_code = models.CharField(max_length=3, default="NOK")
    total_sales = models.DecimalField(**MONEY)
    other_operating_income = models.DecimalField(**MONEY)
    total_operating_income = models.DecimalField(**MONEY)
    cost_of_goods_sold = models.DecimalField(**MONEY)
    salary_costs = models.DecimalField(**MONEY)
    depreciation = models.DecimalField(**MONEY)
    other_operating_costs = models.DecimalField(**MONEY)
    total_operating_costs = models.DecimalField(**MONEY)
    operating_result = models.DecimalField(**MONEY)
    financial_income = models.DecimalField(**MONEY)
    financial_costs = models.DecimalField(**MONEY)
    result_before_tax = models.DecimalField(**MONEY)
    tax = models.DecimalField(**MONEY)
    annual_result = models.DecimalField(**MONEY)


class AccountsBalanceSheet(Entity):
    accounts = models.OneToOneField(Accounts, on_delete=models.CASCADE, related_name="balance_sheet")
    currency_code = models.CharField(max_length=3, default="NOK")
    intangible_assets = models.DecimalField(**MONEY)
    tangible_fixed_assets = models.DecimalField(**MONEY)
    financial_fixed_assets = models.DecimalField(**MONEY)
    total_fixed_assets = models.DecimalField(**MONEY)
    inventory = models.DecimalField(**MONEY)
    receivables = models.DecimalField(**MONEY)
    cash_and_bank = models.DecimalField(**MONEY)
    total_current_assets = models.DecimalField(**MONEY)
    total_assets = models.DecimalField(**MONEY)
    share_capital = models.DecimalField(**MONEY)
    retained_earnings = models.DecimalField(**MONEY)
    total_equity = models.DecimalField(**MONEY)
    long_term_liabilities = models.DecimalField(**MONEY)
    short_term_liabilities = models.DecimalField(**MONEY)
    total_liabilities = models.DecimalField(**MONEY)
    total_equity_and_liabilities = models.DecimalField(**MONEY)


class AccountsHighlights(Entity):
    """Ratios computed by the service from the statements (see the README's analysis section)."""

    accounts = models.OneToOneField(Accounts, on_delete=models.CASCADE, related_name="highlights")
    return_on_assets = models.DecimalField(**RATIO)
    return_on_equity = models.DecimalField(**RATIO)
    equity_ratio = models.DecimalField(**RATIO)
    operating_margin = models.DecimalField(**RATIO)
    profit_margin = models.DecimalField(**RATIO)
    current_ratio = models.DecimalField(**RATIO)
    debt_ratio = models.DecimalField(**RATIO)
    revenue_growth = models.DecimalField(**RATIO)


class AccountsAuditorNoteType(KeyedEntity):
    """e.g. unqualified_opinion, qualified_opinion, emphasis_of_matter, going_concern, adverse_opinion."""

    description = models.CharField(max_length=300)


class AccountsAuditorNote(Entity):
    accounts = models.ForeignKey(Accounts, on_delete=models.CASCADE, related_name="auditor_notes")
    accounts_auditor_note_type = models.ForeignKey(AccountsAuditorNoteType, on_delete=models.PROTECT)
    auditor_note = models.TextField()


# --- credit risk, payment remarks, collection cases ------------------------------------------------


class CompanyRiskStatusType(KeyedEntity):
    """bankrupt, under_liquidation, forced_dissolution, liquidated, deleted."""

    description = models.CharField(max_length=200)


class CompanyRiskStatus(Entity):
    """A status period; active while `to_date` is empty. All rows form the status history."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="risk_statuses")
    company_risk_status_type = models.ForeignKey(CompanyRiskStatusType, on_delete=models.PROTECT)
    from_date = models.DateField()
    to_date = models.DateField(null=True, blank=True)


class CompanyCreditRisk(models.Model):
    """The computed score (0-100, higher is riskier) and class, with the factors behind it.

    Two scores of one model: `risk_score`/`risk_class` with every factor, for a caller granted the
    roles of the role-bound factors, and `public_risk_score`/`public_risk_class` without those
    factors, for everyone else (credit_risk.score_columns_for picks; a stored public score lets
    dataset filters use it without revealing the full one through which companies match).
    """

    company = models.OneToOneField(Company, on_delete=models.CASCADE, primary_key=True, related_name="credit_risk")
    risk_score = models.DecimalField(max_digits=5, decimal_places=1)
    risk_class = models.CharField(max_length=16)  # very_low, low, medium, high, very_high
    public_risk_score = models.DecimalField(max_digits=5, decimal_places=1)
    public_risk_class = models.CharField(max_length=16)
    model_version = models.CharField(max_length=20)
    factors = models.JSONField(default=dict)
    computed_at = models.DateTimeField(auto_now=True)
    # When what the public score's caller sees last changed (credit_risk.public_part).
    public_computed_at = models.DateTimeField(null=True, blank=True)


class CollectionCase(Entity):
    """A debt sent to collection. Those that became payment remarks carry the remark."""

    debtor_company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="collection_cases")
    creditor_name = models.CharField(max_length=300)
    case_reference = models.CharField(max_length=100, blank=True)
    amount = models.DecimalField(max_digits=20, decimal_places=2)
    currency_code = models.CharField(max_length=3, default="NOK")
    opened_date = models.DateField()
    closed_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=20, default="open")  # open, settled, legal_collection, written_off


class PaymentRemark(Entity):
    """Protected by the credit_check role."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="payment_remarks")
    collection_case = models.ForeignKey(
        CollectionCase, on_delete=models.SET_NULL, null=True, blank=True, related_name="payment_remarks"
    )
    remark_type = models.CharField(max_length=40)  # debt_collection, legal_collection, distraint
    registered_date = models.DateField()
    amount = models.DecimalField(max_digits=20, decimal_places=2)
    currency_code = models.CharField(max_length=3, default="NOK")
    creditor_name = models.CharField(max_length=300, blank=True)
    settled_date = models.DateField(null=True, blank=True)


# --- flags and employment -----------------------------------------------------------------------------


class CompanyFlagType(KeyedEntity):
    description = models.CharField(max_length=300)
    app_hidden_flag = models.BooleanField(default=False)
    default_lookback_days = models.IntegerField(null=True, blank=True)
    flag_rank = models.IntegerField(default=100)
    persist_flag = models.BooleanField(default=False)
    default_flag_end_days = models.IntegerField(null=True, blank=True)
    required_role_key = models.CharField(max_length=64, blank=True)


class CompanyFlag(Entity):
    """A flag raised by a rule; active while flag_end_date is empty or in the future. Rows are kept as history."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="flags")
    company_flag_type = models.ForeignKey(CompanyFlagType, on_delete=models.PROTECT)
    flag_date = models.DateTimeField()
    flag_end_date = models.DateTimeField(null=True, blank=True)
    flag_context = models.JSONField(default=dict)
    flag_url = models.CharField(max_length=500, blank=True)
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)


class CompanyEmployment(Entity):
    """A period with a reported head count; consecutive rows describe changes over time."""

    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="employment")
    employee_count = models.IntegerField()
    employee_date = models.DateTimeField(null=True, blank=True)
    from_date = models.DateTimeField()
    to_date = models.DateTimeField(null=True, blank=True)
    employee_count_from = models.IntegerField(null=True, blank=True)
    employee_count_to = models.IntegerField(null=True, blank=True)


# --- measures -------------------------------------------------------------------------------------------


class CompanyMeasureType(KeyedEntity):
    description = models.CharField(max_length=300, blank=True)
    unit = models.CharField(max_length=20, blank=True)  # NOK, ratio, count, percent


class CompanyMeasureYearly(Entity):
    company = models.ForeignKey(Company, on_delete=models.CASCADE, related_name="measures")
    company_measure_type = models.ForeignKey(CompanyMeasureType, on_delete=models.PROTECT)
    measure_year = models.IntegerField()
    measure_value = models.DecimalField(max_digits=24, decimal_places=6, null=True, blank=True)
    update_timestamp = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["company", "company_measure_type", "measure_year"], name="measure_unique_per_year"
            )
        ]
        indexes = [models.Index(fields=["company_measure_type", "measure_year", "measure_value"])]
