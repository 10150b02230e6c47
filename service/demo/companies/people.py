"""Persons and their roles: boards, chairs, CEOs, signature rights, procuration, and owners."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

from stdnum.no import fodselsnummer

from service.demo.companies.randomness import DemoRandom
from service.demo.companies.rows import DemoRows

NATIONALITIES = {"no": 90, "se": 3, "dk": 2, "pl": 2, "de": 1, "gb": 1, "lt": 1}
# Owner splits in percent: most leave someone with 25% or more (a beneficial owner).
SHARE_SPLITS = {(100,): 40, (50, 50): 18, (60, 40): 12, (40, 35, 25): 10, (34, 33, 33): 8, (70, 20, 10): 8, (80, 20): 4}


def national_id(r: DemoRandom, birth: date, gender: str) -> str:
    """A valid fødselsnummer for the birth date and gender ('' in the rare case none is found fast)."""
    low, high = (0, 499) if birth.year < 2000 else (500, 999)
    for _ in range(20):
        individual = r.rng.randint(low, high)
        if (individual % 2 == 1) != (gender == "male"):
            individual = individual + 1 if individual < high else individual - 1
        number = f"{birth:%d%m%y}{individual:03d}"
        first = fodselsnummer.calc_check_digit1(number)
        if len(first) != 1:
            continue
        second = fodselsnummer.calc_check_digit2(number + first)
        if len(second) == 1 and fodselsnummer.is_valid(number + first + second):
            return number + first + second
    return ""


def person_add(r: DemoRandom, rows: DemoRows, *, today: date) -> uuid.UUID:
    first, last, gender = r.person_name()
    birth = r.day_between(date(today.year - 78, 1, 1), date(today.year - 22, 1, 1))
    nationality = r.weighted(NATIONALITIES)
    identifier = national_id(r, birth, gender) if nationality == "no" else ""
    person = r.uuid()
    rows.persons.append(
        {
            "uuid": person,
            "full_name": f"{first} {last}",
            "first_name": first,
            "last_name": last,
            "birth_date": birth,
            "nationality": nationality,
            "gender": gender,
            "national_identification_number": identifier,
            "national_identification_schema": "NO" if identifier else "",
            "update_timestamp": r.now,
        }
    )
    return person


def role_add(
    r: DemoRandom,
    rows: DemoRows,
    *,
    company: uuid.UUID,
    role_type: uuid.UUID,
    from_date: date,
    person: uuid.UUID | None = None,
    holder_company: uuid.UUID | None = None,
    share: Decimal | None = None,
) -> None:
    rows.roles.append(
        {
            "uuid": r.uuid(),
            "company_id": company,
            "company_role_type_id": role_type,
            "holder_person_id": person,
            "holder_company_id": holder_company,
            "share_percentage": share,
            "from_date": from_date,
            "to_date": None,
            "update_timestamp": r.now,
        }
    )


def owners_add(r: DemoRandom, rows: DemoRows, *, company: dict, role_types: dict, today: date) -> list[uuid.UUID]:
    """Persons owning the company in one of the usual splits; the owners, largest share first."""
    split = r.weighted(SHARE_SPLITS)
    owners = [person_add(r, rows, today=today) for _ in split]
    for owner, share in zip(owners, split):
        role_add(r, rows, company=company["uuid"], role_type=role_types["shareholder"], from_date=company["founded_date"], person=owner, share=Decimal(share))
    return owners


def management_add(r: DemoRandom, rows: DemoRows, *, company: dict, role_types: dict, today: date, chair: uuid.UUID | None, board_size: int) -> None:
    """Chair and board, a CEO, the chair's signature right and sometimes a procuration."""
    since = company["founded_date"]
    chair = chair or person_add(r, rows, today=today)
    role_add(r, rows, company=company["uuid"], role_type=role_types["board_chair"], from_date=since, person=chair)
    for _ in range(board_size):
        role_add(r, rows, company=company["uuid"], role_type=role_types["board_member"], from_date=r.day_between(since, today), person=person_add(r, rows, today=today))
    if board_size and r.chance(0.3):
        role_add(r, rows, company=company["uuid"], role_type=role_types["deputy_board_member"], from_date=since, person=person_add(r, rows, today=today))
    small = (company["employees"] or 0) < 5
    ceo = chair if small and r.chance(0.6) else person_add(r, rows, today=today)
    role_add(r, rows, company=company["uuid"], role_type=role_types["ceo"], from_date=since, person=ceo)
    role_add(r, rows, company=company["uuid"], role_type=role_types["signature_right"], from_date=since, person=chair)
    if r.chance(0.15):
        role_add(r, rows, company=company["uuid"], role_type=role_types["procuration"], from_date=since, person=ceo)
