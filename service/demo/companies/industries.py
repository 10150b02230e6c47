"""How a Norwegian company of an industry looks in its accounts, roughly as Statistics Norway's
structural business statistics show it: revenue and salary cost per employee, the usual band
of operating margins, how much revenue a krone of assets turns over, and the cost structure.

Looked up by NACE code: the division when it has a profile of its own (retail is not
wholesale, IT is not publishing), else the section.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Industry:
    revenue_per_employee: float  # NOK, median
    salary_per_employee: float  # NOK, salary and social costs, median
    margin: tuple[float, float]  # the usual band of operating margins
    asset_turnover: float  # revenue / total assets, median
    goods_share: tuple[float, float]  # cost of goods sold / revenue
    fixed_share: tuple[float, float]  # fixed assets / total assets
    inventory_share: float = 0.2  # inventory / current assets
    revenue_without_employees: float = 500_000  # median revenue of a company without employees


DEFAULT = Industry(1_500_000, 600_000, (0.02, 0.10), 1.5, (0.15, 0.35), (0.15, 0.45))
SECTIONS = {
    "A": Industry(3_000_000, 600_000, (0.03, 0.15), 0.6, (0.35, 0.55), (0.5, 0.8), 0.3),
    "B": Industry(6_000_000, 1_100_000, (0.05, 0.25), 0.6, (0.2, 0.4), (0.6, 0.85), 0.1),
    "C": Industry(2_500_000, 700_000, (0.02, 0.10), 1.2, (0.4, 0.6), (0.3, 0.6), 0.35),
    "D": Industry(8_000_000, 900_000, (0.10, 0.35), 0.3, (0.2, 0.4), (0.7, 0.9), 0.05),
    "E": Industry(2_500_000, 650_000, (0.03, 0.12), 0.8, (0.2, 0.35), (0.4, 0.7), 0.05),
    "F": Industry(2_200_000, 650_000, (0.02, 0.08), 2.0, (0.35, 0.55), (0.1, 0.3), 0.15),
    "G": Industry(4_000_000, 650_000, (0.01, 0.06), 2.2, (0.65, 0.8), (0.05, 0.25), 0.45),
    "H": Industry(1_900_000, 620_000, (0.02, 0.08), 1.3, (0.1, 0.3), (0.4, 0.7), 0.05),
    "I": Industry(1_000_000, 380_000, (0.00, 0.06), 1.8, (0.25, 0.35), (0.2, 0.5), 0.1),
    "J": Industry(1_800_000, 900_000, (0.05, 0.15), 1.6, (0.05, 0.2), (0.05, 0.3), 0.02),
    "K": Industry(3_000_000, 1_000_000, (0.10, 0.35), 0.3, (0.0, 0.05), (0.3, 0.7), 0.0),
    "L": Industry(6_000_000, 700_000, (0.30, 0.60), 0.12, (0.0, 0.05), (0.8, 0.95), 0.0, 1_200_000),
    "M": Industry(1_500_000, 850_000, (0.05, 0.15), 1.8, (0.05, 0.15), (0.05, 0.25), 0.02),
    "N": Industry(1_200_000, 550_000, (0.02, 0.08), 2.0, (0.1, 0.3), (0.1, 0.4), 0.05),
    "P": Industry(1_000_000, 600_000, (0.00, 0.08), 1.5, (0.05, 0.15), (0.1, 0.4), 0.02),
    "Q": Industry(1_000_000, 620_000, (0.02, 0.10), 1.8, (0.05, 0.2), (0.1, 0.4), 0.02),
    "R": Industry(1_200_000, 550_000, (0.00, 0.10), 1.0, (0.1, 0.3), (0.3, 0.6), 0.05),
    "S": Industry(900_000, 450_000, (0.02, 0.10), 1.8, (0.1, 0.3), (0.1, 0.4), 0.1),
}
DIVISIONS = {
    "09": Industry(2_500_000, 950_000, (0.02, 0.10), 1.0, (0.2, 0.4), (0.2, 0.5), 0.1),  # oil and gas services
    "45": Industry(4_000_000, 600_000, (0.01, 0.05), 2.2, (0.7, 0.8), (0.05, 0.25), 0.55),  # motor vehicle trade
    "46": Industry(5_000_000, 700_000, (0.01, 0.06), 2.2, (0.7, 0.82), (0.05, 0.25), 0.45),  # wholesale
    "47": Industry(2_500_000, 450_000, (0.01, 0.05), 2.5, (0.6, 0.72), (0.1, 0.3), 0.55),  # retail
    "62": Industry(1_800_000, 950_000, (0.05, 0.15), 1.7, (0.05, 0.15), (0.05, 0.25), 0.0),  # IT services
    "70": Industry(1_600_000, 900_000, (0.05, 0.15), 1.8, (0.03, 0.1), (0.05, 0.25), 0.0),  # consulting
    "64": Industry(3_000_000, 1_000_000, (0.10, 0.35), 0.3, (0.0, 0.05), (0.3, 0.7), 0.0),  # financial services
}
HOLDING_CODES = ("64.2",)  # holding companies: income is dividends, assets are shares (accounts.holding_accounts)
HOLDING = Industry(0, 0, (0.0, 0.0), 0.0, (0.0, 0.0), (1.0, 1.0), 0.0, 0)


def industry_of(nace_code: str | None, section: str | None) -> Industry:
    """The profile for a NACE code like '47.111' in section 'G' (HOLDING for a holding company)."""
    if is_holding(nace_code):
        return HOLDING
    division = (nace_code or "")[:2]
    return DIVISIONS.get(division) or SECTIONS.get(section or "", DEFAULT)


def is_holding(nace_code: str | None) -> bool:
    return bool(nace_code) and nace_code.startswith(HOLDING_CODES)
