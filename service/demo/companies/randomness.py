"""The demo's one source of chance: a seeded random.Random plus pools of Norwegian words from Faker.

Faker is slow per call (tens of microseconds), so it fills small pools once, seeded;
everything after is drawn from the pools with the same Random. Same seed, same data.
Faker's Norwegian locale is `no_NO` (it has no `nb_NO`).
"""

from __future__ import annotations

import math
import random
import uuid
from datetime import date, datetime, timedelta

from faker import Faker

POOL_SIZE = 2000
COMPANY_WORDS = (
    "Bygg", "Consult", "Eiendom", "Holding", "Invest", "Transport", "Handel", "Service", "Teknikk", "Data",
    "Marin", "Fisk", "Elektro", "Rør", "Maskin", "Regnskap", "Design", "Media", "Helse", "Energi",
    "Shipping", "Logistikk", "Mat", "Tre", "Stål", "Industri", "Utvikling", "Partner", "Gruppen", "Solutions",
)
SECTION_WORDS = {
    "A": ("Gård", "Fisk", "Havbruk", "Skog", "Landbruk", "Sjømat"),
    "C": ("Industri", "Mekaniske", "Stål", "Tre", "Maskin", "Produksjon", "Plast"),
    "F": ("Bygg", "Rør", "Elektro", "Maler", "Entreprenør", "Tak", "Anlegg"),
    "G": ("Handel", "Engros", "Import", "Bil", "Sport", "Interiør", "Mat"),
    "H": ("Transport", "Logistikk", "Frakt", "Shipping", "Taxi", "Budservice"),
    "I": ("Restaurant", "Kafé", "Hotell", "Catering", "Bakeri"),
    "J": ("Data", "IT", "Software", "Media", "Digital", "Solutions"),
    "K": ("Invest", "Finans", "Kapital", "Holding"),
    "L": ("Eiendom", "Eiendomsutvikling", "Gårdeierselskap", "Utleie", "Næringsbygg"),
    "M": ("Consult", "Rådgivning", "Regnskap", "Arkitekter", "Advokatfirma", "Design", "Ingeniør"),
    "N": ("Service", "Renhold", "Vakt", "Bemanning", "Utleie"),
    "Q": ("Helse", "Tannlege", "Fysioterapi", "Legesenter", "Omsorg"),
    "S": ("Frisør", "Service", "Velvære", "Reparasjon"),
}


class DemoRandom:
    def __init__(self, seed: int, *, now: datetime) -> None:
        self.now = now  # the generation time, stamped on rows (not random, so not part of what a seed fixes)
        self.rng = random.Random(seed)
        faker = Faker("no_NO")
        faker.seed_instance(seed)
        self.last_names = [faker.last_name() for _ in range(POOL_SIZE)]
        self.male_names = [faker.first_name_male() for _ in range(POOL_SIZE // 2)]
        self.female_names = [faker.first_name_female() for _ in range(POOL_SIZE // 2)]
        self.streets = [faker.street_name() for _ in range(POOL_SIZE)]
        self.places = [faker.city() for _ in range(POOL_SIZE // 4)]

    def uuid(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def weighted(self, weights: dict):
        return self.rng.choices(list(weights), weights=list(weights.values()))[0]

    def lognormal_int(self, median: float, sigma: float) -> int:
        return int(self.rng.lognormvariate(math.log(median), sigma))

    def day_between(self, start: date, end: date) -> date:
        return start + timedelta(days=self.rng.randrange(max(1, (end - start).days)))

    def street_address(self) -> str:
        return f"{self.pick(self.streets)} {self.rng.randint(1, 120)}{self.pick(['', '', '', 'A', 'B'])}"

    def company_name(self, suffix: str, section: str | None = None) -> str:
        """A name; with the NACE `section`, its words fit the trade (no 'Handel' for a landlord)."""
        words = SECTION_WORDS.get(section or "", COMPANY_WORDS)
        shape = self.rng.random()
        if shape < 0.4:
            base = f"{self.pick(self.last_names)} {self.pick(words)}"
        elif shape < 0.7:
            base = f"{self.pick(self.places)} {self.pick(words)}"
        elif shape < 0.85:
            base = f"{self.pick(self.last_names)} & {self.pick(self.last_names)}"
        else:
            base = f"{self.pick(words)} {self.pick(COMPANY_WORDS[-4:])} {self.pick(self.last_names)}"
        return f"{base} {suffix}".strip().upper()

    def person_name(self) -> tuple[str, str, str]:
        """(first name, last name, gender)."""
        gender = "female" if self.chance(0.45) else "male"
        first = self.pick(self.female_names if gender == "female" else self.male_names)
        return first, self.pick(self.last_names), gender
