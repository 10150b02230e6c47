"""The screening demo (`load_screening_demo`): what a newcomer sees at once in `make run`.

The demo organisation gets a screening config with the UN and OFAC lists selected (PEP is
always screened) and an attached watchlist of demo companies. Among them are companies whose
owners or board members are listed persons, spelt as a register would spell them
(demo_names.py reads them from the imported lists), and one company whose own name is on
the OFAC list; the rest are ordinary companies of the demo register. The watchlist sync
(subscription.py) suggests the monitorings; the demo approves those of about half the
companies and screens them at once (screening_run.monitorings_screen), so open cases exist
when the server starts, while the others wait for approval. A file of new customers (two
listed persons, the listed company, three Norwegians) is screened as a batch job. Three private
customers are customer persons: a PEP as a bank would spell them and a Norwegian with a national
id and an address, both screened with their nationality, and one more waiting for approval;
two of them entered a second time (the same name, and a name misspelt), to merge.

Idempotent: companies are found by organisation number, persons and customer persons by name
and birth date,
the config, watchlist and selections are reused; only undecided monitorings of the companies
meant to be approved are approved, and screening makes no second case.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from django.db import transaction
from stdnum.no import orgnr

from service.auth.models import AppCustomer
from service.auth.services import app_customer_create
from service.companies.analysis import analysis_refresh
from service.companies.models import Company, CompanyRole, CompanyRoleType, OrganizationType, Person
from service.screening import monitoring_services, person_services
from service.screening.batch_services import batch_create, batch_process
from service.screening.config_services import config_category_select, config_create
from service.screening.demo_names import ListedPerson, listed_organisation_pick, listed_persons_pick
from service.screening.engine import screening_index
from service.screening.models import (
    CustomerPerson,
    EntityMonitoring,
    EntityMonitoringDecision,
    EntityMonitoringType,
    ScreeningBatch,
    ScreeningCase,
    ScreeningConfig,
    ScreeningConfigListCategory,
    ScreeningConfigWatchlist,
    ScreeningListCategory,
)
from service.screening.screening_run import monitorings_screen
from service.screening.subscription import DERIVED_ORIGINS, config_companies_sync
from service.screening.watchlist_link_services import config_watchlist_attach
from service.watchlists.models import Watchlist
from service.watchlists.services import watchlist_add_companies, watchlist_create

LISTS = ("un_security_council", "us_ofac_sdn", "pep")
SELECTED = ("un_security_council", "us_ofac_sdn")
WATCHLIST_NAME = "Enhanced due diligence"
DEMO_BATCH_FILE = "new-customers-week-48.csv"
REGISTER_COMPANIES = 10  # ordinary companies of the demo register on the watchlist, beside the demo's own
APPROVAL_COMMENT = "Approved when the demo data was loaded (load_screening_demo)."
PRIVATE_CUSTOMER_COMMENT = "Private banking customer"
# A Norwegian private customer's fødselsnummer (a valid one of python-stdnum's examples).
PRIVATE_CUSTOMER_NATIONAL_ID = "15108695088"
ORG_NR_START = 89_500_000  # eight digits before the check digit: clear of the register's and generate_demo's 9xx numbers
NORWEGIANS = [
    ("Ingrid Haugen", date(1971, 4, 2)), ("Lars Bakke", date(1965, 9, 18)), ("Silje Moen", date(1983, 1, 27)),
    ("Per Solheim", date(1958, 11, 5)), ("Marte Lie", date(1990, 6, 14)), ("Anders Berg", date(1976, 3, 30)),
    ("Hilde Strand", date(1969, 12, 9)), ("Eirik Lund", date(1980, 8, 21)),
]


@dataclass
class PrivateCustomer:
    full_name: str
    birth_date: date | None
    approve: bool
    national_id: str = ""
    postal_place: str = ""
    nationalities: tuple[str, ...] = ()
    customer_reference: str = ""  # the bank's customer number


@dataclass
class DemoCompany:
    name: str
    approve: bool
    owners: list = field(default_factory=list)  # [(person or company name, percent)]
    board: list = field(default_factory=list)  # [(person, role key)]
    own_name_listed: bool = False  # the company whose own name is on a sanction list


@dataclass
class ScreeningDemoResult:
    skipped: str = ""
    companies: int = 0
    listed: list[str] = field(default_factory=list)
    pending: int = 0
    active: int = 0
    customer_persons: int = 0
    open_cases: int = 0

    def summary_line(self) -> str:
        if self.skipped:
            return f"load_screening_demo: skipped ({self.skipped})"
        return (
            f"load_screening_demo: {self.companies} watchlisted companies ({len(self.listed)} listed persons or names "
            f"among their owners, boards and own names), monitorings {self.active} active and {self.pending} pending "
            f"approval, customer persons {self.customer_persons}, open cases {self.open_cases}"
        )


def lists_missing() -> list[str]:
    present = set(ScreeningListCategory.objects.exclude(current_version=None).values_list("key", flat=True))
    return [key for key in LISTS if key not in present]


def screening_demo_load(*, organisation: str, progress: Callable[[str], None] = lambda _: None) -> ScreeningDemoResult:
    missing = lists_missing()
    if missing:
        return ScreeningDemoResult(skipped=f"lists not imported: {', '.join(missing)}; run import_screening_list first")
    progress("picking listed persons the engine finds again")
    plan, listed, private = _plan()
    progress("writing the demo companies, their owners and boards")
    with transaction.atomic():
        companies = {demo.name: company for demo, company in zip(plan, _companies_ensure(plan))}
        config, watchlist = _setup_ensure(organisation)
    # Written through the ORM, so nothing refreshed their analysis: without it their pages and the
    # watchlist would show "no risk score yet" until the nightly refresh.
    analysis_refresh(company_uuids=[c.uuid for c in companies.values()])
    extra = _register_companies(exclude=set(companies.values()))
    watchlist_add_companies(
        watchlist=watchlist,
        entries=[{"org_nr": c.org_nr, "org_nr_schema": c.org_nr_schema} for c in [*companies.values(), *extra]],
    )
    if not ScreeningConfigWatchlist.objects.filter(screening_config=config, watchlist=watchlist).exists():
        config_watchlist_attach(config=config, watchlist=watchlist)
    watched = [c.uuid for c in [*companies.values(), *extra]]
    progress(f"suggesting monitorings for {len(watched)} companies")
    config_companies_sync(config_uuid=config.uuid, company_uuids=watched)
    approve = [companies[d.name].uuid for d in plan if d.approve] + [c.uuid for c in extra[::2]]
    _approve(config, approve)
    progress("screening the approved monitorings")
    active = list(_demo_monitorings(config, watched).filter(latest_decision__approved_flag=True).values_list("uuid", flat=True))
    progress("adding private customers as customer persons")
    active += _private_customers_ensure(config, private)
    monitorings_screen(monitoring_uuids=active)
    progress("screening a file of new customers")
    _demo_batch(config, plan)
    return _result(config, watched, listed)


def _plan() -> tuple[list[DemoCompany], list[str], list[PrivateCustomer]]:
    loaded = screening_index()
    taken: set[str] = set()

    def pick(category: str, variant: str) -> ListedPerson | None:
        found = listed_persons_pick(loaded=loaded, category_key=category, variant=variant, count=1, taken=taken)
        return found[0] if found else None

    un_owner = pick("un_security_council", "transliteration")
    ofac_owner = pick("us_ofac_sdn", "middle_dropped")
    pep_chair = pick("pep", "middle_dropped")
    un_pending, ofac_pending = pick("un_security_council", "surname_first"), pick("us_ofac_sdn", "transliteration")
    ofac_company = listed_organisation_pick(loaded=loaded, category_key="us_ofac_sdn")
    pep_private = pick("pep", "transliteration") or pick("pep", "middle_dropped")
    n = NORWEGIANS
    plan = [
        DemoCompany("BARENTS MARITIME TRADING AS", True, [(un_owner, 60), (n[0], 40)], [(n[0], "board_chair")]),
        DemoCompany("ARCTIC CAPITAL HOLDING AS", True, [(ofac_owner, 100)], [(n[1], "board_chair")]),
        DemoCompany("NORDVEST SEAFOOD EXPORT AS", True, [("ARCTIC CAPITAL HOLDING AS", 51), (n[1], 49)], [(n[1], "ceo")]),
        DemoCompany(
            "FJORDGATE EIENDOM AS", True, [(n[2], 20), (n[3], 20), (n[4], 20), (n[5], 20), (n[6], 20)],
            [(pep_chair, "board_chair"), (n[2], "board_member"), (n[3], "ceo")],
        ),
        DemoCompany("POLARIS LOGISTIKK AS", False, [(un_pending, 50), (n[6], 50)], [(n[6], "board_chair")]),
        DemoCompany("VESTKYST INVEST AS", False, [(ofac_pending, 40), (n[7], 60)], [(n[7], "ceo")]),
        DemoCompany("SOLBAKKEN REGNSKAP AS", True, [(n[4], 100)], [(n[4], "board_chair")]),
        DemoCompany("LYNGEN BYGG AS", False, [(n[5], 70), (n[7], 30)], [(n[5], "board_chair")]),
    ]
    if ofac_company:
        plan.append(DemoCompany(ofac_company.name, True, [(n[3], 100)], [(n[3], "board_chair")], own_name_listed=True))
    private = [
        PrivateCustomer("Kari Nordmann", date(1986, 10, 15), True, PRIVATE_CUSTOMER_NATIONAL_ID, "Oslo", ("NO",), "K-10041"),
        PrivateCustomer("Jon Egil Dahl", date(1962, 2, 11), False, postal_place="Tromsø", nationalities=("NO",),
                        customer_reference="K-10042"),
        # Kari again, as a file without the customer number entered her: her page offers to merge the two.
        PrivateCustomer("KARI NORDMANN", date(1986, 10, 15), True, postal_place="Bergen", nationalities=("NO", "SE")),
        # Jon again, his name misspelt by hand: both pages name the other as the name written another way.
        PrivateCustomer("Jon Egil Dal", date(1962, 2, 11), True, postal_place="Tromsø", nationalities=("NO",)),
        # Ingrid twice, her birth date once read the American way: both pages name the other's birth date.
        PrivateCustomer("Ingrid Solberg", date(1975, 4, 12), True, postal_place="Trondheim", nationalities=("NO",),
                        customer_reference="K-10043"),
        PrivateCustomer("Ingrid Solberg", date(1975, 12, 4), True, postal_place="Trondheim", nationalities=("NO",)),
    ]
    if pep_private:  # with the nationality the list gives (demo_names found the spelling with it)
        nationality = (pep_private.nationality.upper(),) if pep_private.nationality else ()
        private.insert(0, PrivateCustomer(pep_private.full_name, pep_private.birth_date, True, nationalities=nationality,
                                          customer_reference="K-10040"))
    listed = [p.full_name for p in (un_owner, ofac_owner, pep_chair, un_pending, ofac_pending, pep_private) if p]
    listed += [ofac_company.name] if ofac_company else []
    # A slot whose list gave no person keeps the company with its Norwegian owners only.
    for demo in plan:
        demo.owners = [(holder, share) for holder, share in demo.owners if holder]
        demo.board = [(person, role) for person, role in demo.board if person]
    return plan, listed, private


def _org_numbers():
    serial = ORG_NR_START
    while True:
        serial += 1
        for digit in "0123456789":
            if orgnr.is_valid(f"{serial}{digit}"):
                yield f"{serial}{digit}"


def _companies_ensure(plan: list[DemoCompany]) -> list[Company]:
    forms = dict(OrganizationType.objects.filter(key__in=("NO-AS", "NO-NUF")).values_list("key", "uuid"))
    numbers = _org_numbers()
    companies: dict[str, Company] = {}
    for demo in plan:
        company = Company.objects.filter(org_nr_schema="NO", name=demo.name, org_nr__startswith="89").first()
        while company is None:
            number = next(numbers)
            if not Company.objects.filter(org_nr_schema="NO", org_nr=number).exists():
                # A foreign company (the listed one) is registered in Norway as a branch, NUF.
                form = forms.get("NO-AS" if demo.name.endswith(" AS") else "NO-NUF")
                company = Company.objects.create(
                    org_nr=number, name=demo.name, organization_type_id=form,
                    registration_date=date(2015, 3, 2), founded_date=date(2015, 2, 1),
                )
        companies[demo.name] = company
    types = {t.key: t for t in CompanyRoleType.objects.all()}
    for demo in plan:
        company = companies[demo.name]
        for holder, share in demo.owners:
            holder_field = {"holder_company": companies[holder]} if isinstance(holder, str) else {"holder_person": _person(holder)}
            _role(company, types["shareholder"], Decimal(share), **holder_field)
        for person, role_key in demo.board:
            _role(company, types[role_key], None, holder_person=_person(person))
    return [companies[demo.name] for demo in plan]


def _person(who) -> Person:
    if isinstance(who, ListedPerson):
        name, birth, nationality = who.full_name, who.birth_date, who.nationality
    else:
        (name, birth), nationality = who, "no"
    first, _, last = name.rpartition(" ")
    person, _ = Person.objects.get_or_create(
        full_name=name, birth_date=birth, defaults={"first_name": first, "last_name": last, "nationality": nationality}
    )
    return person


def _role(company: Company, role_type: CompanyRoleType, share: Decimal | None, **holder) -> None:
    CompanyRole.objects.get_or_create(
        company=company, company_role_type=role_type, from_date=date(2015, 2, 1), to_date=None,
        defaults={"share_percentage": share}, **{"holder_person": None, "holder_company": None, **holder},
    )


def _setup_ensure(organisation: str) -> tuple[ScreeningConfig, Watchlist]:
    customer = AppCustomer.objects.filter(name=organisation).first() or app_customer_create(name=organisation)
    config = ScreeningConfig.objects.filter(app_customer=customer).order_by("create_timestamp").first()
    if config is None:
        config = config_create(
            app_customer_uuid=customer.uuid, suggestion_setting=None,
            auto_approve_monitoring_flag=False, subscribe_to_email_notifications_flag=False,
        )
    for category in ScreeningListCategory.objects.filter(key__in=SELECTED):
        if not ScreeningConfigListCategory.objects.filter(screening_config=config, category=category).exists():
            config_category_select(config=config, category=category)
    watchlist = Watchlist.objects.filter(app_customer=customer, watchlist_name=WATCHLIST_NAME).first()
    watchlist = watchlist or watchlist_create(app_customer_uuid=customer.uuid, watchlist_name=WATCHLIST_NAME)
    return config, watchlist


def _register_companies(*, exclude: set[Company]) -> list[Company]:
    """Ordinary companies of the demo register that have a person as shareholder."""
    held = CompanyRole.objects.filter(company_role_type__key="shareholder", holder_person__isnull=False).values("company_id")
    return list(
        Company.objects.filter(uuid__in=held).exclude(uuid__in=[c.uuid for c in exclude]).order_by("org_nr")[:REGISTER_COMPANIES]
    )


def _demo_monitorings(config: ScreeningConfig, company_uuids: list[uuid.UUID]):
    return EntityMonitoring.objects.filter(
        screening_config=config, related_company_id__in=company_uuids, removed_flag=False, monitoring_origin_key__in=DERIVED_ORIGINS
    )


def _approve(config: ScreeningConfig, company_uuids: list[uuid.UUID]) -> None:
    spec = monitoring_services.DecisionSpec(
        approved_flag=True, origin_key=EntityMonitoringDecision.Origin.SYSTEM, comment=APPROVAL_COMMENT
    )
    for monitoring in _demo_monitorings(config, company_uuids).filter(latest_decision__isnull=True):
        monitoring_services.decision_record(monitoring=monitoring, spec=spec)


def _private_customers_ensure(config: ScreeningConfig, private: list[PrivateCustomer]) -> list[uuid.UUID]:
    """The private customers as customer persons under monitoring (type `other`: no company), those
    to approve approved; their monitorings to screen. A person already there is left as they are."""
    monitoring_type = EntityMonitoringType.objects.get(key="other")
    approval = monitoring_services.DecisionSpec(
        approved_flag=True, origin_key=EntityMonitoringDecision.Origin.SYSTEM, comment=APPROVAL_COMMENT
    )
    to_screen = []
    for customer in private:
        if CustomerPerson.objects.filter(
            screening_config=config, full_name=customer.full_name, birth_date=customer.birth_date
        ).exists():
            continue
        with transaction.atomic():
            person = person_services.customer_person_create(
                config=config, full_name=customer.full_name, birth_date=customer.birth_date, gender=None,
                nationalities=customer.nationalities, customer_reference=customer.customer_reference,
            )
            if customer.national_id:
                person_services.customer_person_national_id_add(
                    person=person, schema="NO", number=customer.national_id, geo_country=None
                )
            if customer.postal_place:
                texts = {"postal_place": customer.postal_place, "country_code_two": "NO"}
                person_services.customer_person_location_add(person=person, location_type=None, geo_location_uuid=None, texts=texts)
            monitoring = monitoring_services.monitoring_insert(
                config=config, entity=person, related_company=None, monitoring_type=monitoring_type,
                origin_key=EntityMonitoring.Origin.USER, comment=PRIVATE_CUSTOMER_COMMENT,
                decision=approval if customer.approve else None,
            )
        if monitoring is not None and customer.approve:
            to_screen.append(monitoring.uuid)
    return to_screen


def _demo_batch(config: ScreeningConfig, plan: list[DemoCompany]) -> None:
    """A file of the week's new customers, screened once (the Batch screening page): two listed
    persons as a bank spelled them, a listed company and Norwegians without a hit. Once."""
    if ScreeningBatch.objects.filter(screening_config=config, file_name=DEMO_BATCH_FILE).exists():
        return
    listed = [p for demo in plan for p, _ in [*demo.owners, *demo.board] if isinstance(p, ListedPerson)][-2:]
    rows = [("person", name, birth, "NO") for name, birth in NORWEGIANS[:3]]
    rows += [("person", p.full_name, p.birth_date, p.nationality.upper()) for p in listed]
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(["type", "id", "name", "birth_date", "nationality", "country"])
    for n, (kind, name, birth, nationality) in enumerate(rows, start=1):
        writer.writerow([kind, f"K-{1000 + n}", name, birth.isoformat() if birth else "", nationality, ""])
    for demo in (demo for demo in plan if demo.own_name_listed):
        writer.writerow(["company", f"K-{1001 + len(rows)}", demo.name.title(), "", "", ""])
    batch = batch_create(config=config, file_name=DEMO_BATCH_FILE, content=out.getvalue().encode("utf-8"), actor=None)
    batch_process(batch_uuid=batch.uuid)  # here, as the demo's other work: a job already done is left as it is


def _result(config: ScreeningConfig, watched: list[uuid.UUID], listed: list[str]) -> ScreeningDemoResult:
    monitorings = _demo_monitorings(config, watched)
    return ScreeningDemoResult(
        companies=len(watched),
        listed=listed,
        pending=monitorings.filter(latest_decision__isnull=True).count(),
        active=monitorings.filter(latest_decision__approved_flag=True).count(),
        customer_persons=CustomerPerson.objects.filter(screening_config=config).count(),
        open_cases=ScreeningCase.objects.filter(screening_config=config).exclude(case_status_key=ScreeningCase.Status.COMPLETE).count(),
    )
