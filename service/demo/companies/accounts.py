"""Annual accounts that read like a Norwegian company's of the same industry and size.

An operating company's years are drawn as one story, not as independent years: revenue
fits the head count (revenue per employee of its industry, industries.py) and grows or
shrinks by -20%..+30% a year; the operating margin stays in its industry's band with a
company-level tilt (some companies lose money for years); assets follow revenue through the
industry's asset turnover; equity rolls forward (last year's equity + the year's result -
dividends), so a company with negative equity got there by losing money. Every total is the
sum of its lines, and the balance sheet balances.

A holding company's income is the dividends its subsidiaries pay out (mostly tax-free under
the participation exemption), its assets the shares in them. Group accounts are the members'
lines added up with the shares in subsidiaries and the dividends between members
eliminated, so a parent's equity, its subsidiaries' and the group's agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from service.demo.companies.industries import Industry
from service.demo.companies.randomness import DemoRandom

AUDIT_EXEMPT_REVENUE = 7_000_000  # small AS may opt out of audit under this revenue and 10 employees
TAX_RATE = 0.22
TAXED_SHARE_OF_DIVIDENDS = 0.03  # the participation exemption taxes 3% of dividends received
GROWTH_RANGE = (-0.20, 0.30)
ROA_BOUNDS = (-0.30, 0.35)  # the operating margin is held so that operating result / assets stays in this band
MAX_EQUITY_RATIO = 0.8  # above this the owners take the surplus out as dividends
LATE_FILERS = 0.05  # companies that file after the deadline (and so, for a while, miss the newest year)


@dataclass
class Figures:
    income: dict[str, Decimal | None]
    balance: dict[str, Decimal | None]


@dataclass
class CompanyAccounts:
    """A company's current figures by year, and what links them to its owner's and group's accounts."""

    figures: dict[int, Figures] = field(default_factory=dict)
    dividends: dict[int, int] = field(default_factory=dict)  # paid to the owners out of each year's result
    employees: dict[int, int] = field(default_factory=dict)  # head count at each year's end
    announced: dict[int, date] = field(default_factory=dict)
    intra_investments: int = 0  # shares in subsidiaries of its group (a holding's only assets besides cash)
    intra_dividends: dict[int, int] = field(default_factory=dict)  # dividends received from those subsidiaries


def _income(*, sales: float, other: float, goods: float, salary: float, depreciation: float, other_costs: float,
            financial_income: float, financial_costs: float, tax_of) -> dict[str, int]:
    """An income statement whose totals are the sums of its rounded lines; `tax_of(result_before_tax)`."""
    lines = {
        "total_sales": round(sales),
        "other_operating_income": round(other),
        "cost_of_goods_sold": round(goods),
        "salary_costs": round(salary),
        "depreciation": round(depreciation),
        "other_operating_costs": round(other_costs),
        "financial_income": round(financial_income),
        "financial_costs": round(financial_costs),
    }
    lines["total_operating_income"] = lines["total_sales"] + lines["other_operating_income"]
    lines["total_operating_costs"] = sum(lines[k] for k in ("cost_of_goods_sold", "salary_costs", "depreciation", "other_operating_costs"))
    lines["operating_result"] = lines["total_operating_income"] - lines["total_operating_costs"]
    lines["result_before_tax"] = lines["operating_result"] + lines["financial_income"] - lines["financial_costs"]
    lines["tax"] = round(tax_of(lines["result_before_tax"]))
    lines["annual_result"] = lines["result_before_tax"] - lines["tax"]
    return lines


def _balance(*, intangible: float, tangible: float, financial: float, inventory: float, receivables: float,
             cash: float, share_capital: float, equity: float, long_term: float) -> dict[str, int]:
    """A balance sheet that balances: short-term liabilities are what the assets leave over."""
    lines = {
        "intangible_assets": round(intangible),
        "tangible_fixed_assets": round(tangible),
        "financial_fixed_assets": round(financial),
        "inventory": round(inventory),
        "receivables": round(receivables),
        "cash_and_bank": round(cash),
        "share_capital": round(share_capital),
        "total_equity": round(equity),
    }
    lines["total_fixed_assets"] = lines["intangible_assets"] + lines["tangible_fixed_assets"] + lines["financial_fixed_assets"]
    lines["total_current_assets"] = lines["inventory"] + lines["receivables"] + lines["cash_and_bank"]
    lines["total_assets"] = lines["total_fixed_assets"] + lines["total_current_assets"]
    lines["retained_earnings"] = lines["total_equity"] - lines["share_capital"]
    liabilities = lines["total_assets"] - lines["total_equity"]
    lines["long_term_liabilities"] = max(0, min(round(long_term), liabilities))
    lines["short_term_liabilities"] = liabilities - lines["long_term_liabilities"]
    lines["total_liabilities"] = liabilities
    lines["total_equity_and_liabilities"] = lines["total_assets"]
    return lines


def _figures(income: dict[str, int], balance: dict[str, int]) -> Figures:
    return Figures({k: None if v is None else Decimal(v) for k, v in income.items()}, {k: Decimal(v) for k, v in balance.items()})


def _clip(value: float, low: float, high: float) -> float:
    return min(high, max(low, value))


def operating_accounts(r: DemoRandom, *, industry: Industry, years: list[int], employees: int, troubled: bool,
                       negative_equity: bool, in_group: bool = False) -> CompanyAccounts:
    """The years of an operating company whose head count in the newest year is `employees`.

    `troubled`: its margin sits below its industry's band (it loses money most years);
    `negative_equity`: it starts the first year with negative equity (and stays troubled);
    `in_group`: owned by a holding company, so it usually pays dividends.
    """
    low, high = industry.margin
    spread = high - low
    if employees:
        newest_revenue = employees * industry.revenue_per_employee * r.rng.lognormvariate(0, 0.3)
    else:
        newest_revenue = industry.revenue_without_employees * r.rng.lognormvariate(0, 0.9)
    trend = r.rng.gauss(0.04, 0.06)
    revenue = {years[-1]: max(60_000.0, newest_revenue)}
    for year in reversed(years[:-1]):
        growth = _clip(trend + r.rng.gauss(0, 0.07), *GROWTH_RANGE)
        revenue[year] = revenue[year + 1] / (1 + growth)
    turnover = industry.asset_turnover * r.rng.lognormvariate(0, 0.25)
    if troubled or negative_equity:  # losing money, but rarely more than a tenth of revenue year after year
        centre = max(-0.10, r.rng.gauss(low - spread * 0.6, spread * 0.4))
    else:
        centre = r.rng.gauss((low + high) / 2, spread * 0.35)
    goods_share = r.rng.uniform(*industry.goods_share)
    fixed_share = r.rng.uniform(*industry.fixed_share)
    salary_each = industry.salary_per_employee * r.rng.uniform(0.85, 1.15)
    long_share = r.rng.uniform(0.2, 0.8)
    payout = r.rng.uniform(0.3, 0.9) if r.chance(0.9 if in_group else 0.6) else 0.0  # a group lives on dividends
    interest = r.rng.uniform(0.04, 0.07)
    first_assets = revenue[years[0]] / turnover
    if negative_equity:
        equity = first_assets * r.rng.uniform(-0.15, -0.02)
    else:
        equity = first_assets * _clip(r.rng.gauss(0.32, 0.14), 0.05, 0.7)
    small = revenue[years[-1]] < AUDIT_EXEMPT_REVENUE and employees < 10
    share_capital = 30_000 if small else max(30_000, round(first_assets * r.rng.uniform(0.01, 0.05), -3))
    result = CompanyAccounts()
    margin = centre
    for year in years:
        sales = revenue[year]
        assets = sales / turnover * r.rng.uniform(0.95, 1.05)
        head_count = max(1, round(employees * (sales / revenue[years[-1]]) ** 0.7)) if employees else 0
        margin = _clip(0.6 * margin + 0.4 * centre + r.rng.gauss(0, spread * 0.25), ROA_BOUNDS[0] / turnover, ROA_BOUNDS[1] / turnover)
        other = sales * r.rng.uniform(0, 0.03)
        costs = (sales + other) * (1 - margin)
        salary = min(head_count * salary_each * r.rng.uniform(0.95, 1.05), 0.85 * costs)
        depreciation = min(assets * fixed_share * r.rng.uniform(0.05, 0.12), 0.4 * (costs - salary))
        goods = min(sales * goods_share, 0.9 * (costs - salary - depreciation))
        income = _income(
            sales=sales, other=other, goods=goods, salary=salary, depreciation=depreciation,
            other_costs=costs - salary - depreciation - goods,
            financial_income=assets * (1 - fixed_share) * r.rng.uniform(0.005, 0.02),
            financial_costs=min(max(0.0, assets - equity), assets * fixed_share * long_share) * interest,
            tax_of=lambda before_tax: max(0.0, before_tax * TAX_RATE),
        )
        annual = income["annual_result"]
        dividend = payout * annual if annual > 0 and equity > 0.2 * assets else 0.0
        equity += annual - dividend
        if equity > MAX_EQUITY_RATIO * assets:
            dividend += equity - MAX_EQUITY_RATIO * assets
            equity = MAX_EQUITY_RATIO * assets
        fixed, current = assets * fixed_share, assets * (1 - fixed_share)
        intangible, financial = fixed * r.rng.uniform(0, 0.1), fixed * r.rng.uniform(0, 0.15)
        inventory = current * min(0.7, industry.inventory_share * r.rng.uniform(0.7, 1.3))
        receivables = (current - inventory) * r.rng.uniform(0.35, 0.65)
        balance = _balance(
            intangible=intangible, tangible=fixed - intangible - financial, financial=financial,
            inventory=inventory, receivables=receivables, cash=current - inventory - receivables,
            share_capital=share_capital, equity=equity, long_term=fixed * long_share,  # loans finance fixed assets
        )
        if small and r.chance(0.5):
            income["total_sales"] = income["other_operating_income"] = None  # small companies may report only the total
        result.figures[year] = _figures(income, balance)
        result.dividends[year] = round(dividend)
        result.employees[year] = head_count
    return result


def holding_accounts(
    r: DemoRandom, *, years: list[int], held: list[tuple[float, CompanyAccounts]], portfolio: float = 0.0
) -> CompanyAccounts:
    """A holding company owning `held` (share 0-1, the subsidiary's accounts) over `years`, and
    `portfolio` NOK of shares outside any group (yielding a few percent a year).

    Its income is the share of each subsidiary's dividends (and a little interest); its fixed
    assets are the shares, bought at or below the subsidiary's equity. Its liabilities are a loan
    some took up to buy them, and at year-end the dividend it will pay and its tax.
    """
    investments = 0.0
    for share, sub in held:
        first = sub.figures[min(sub.figures)] if sub.figures else None
        equity = float(first.balance["total_equity"]) if first else 0.0
        investments += share * max(30_000.0, equity * r.rng.uniform(0.6, 1.0))
    shares = investments + portfolio
    loan = shares * r.rng.uniform(0.1, 0.4) if r.chance(0.35) else 0.0
    admin = _clip(shares * r.rng.uniform(0.003, 0.015), 8_000, 250_000)
    cash = max(shares * r.rng.uniform(0.02, 0.25), 6 * admin)
    equity = shares + cash - loan
    share_capital = max(30_000, round(shares * r.rng.uniform(0.01, 0.05), -3))
    own_income = r.rng.uniform(50_000, 600_000) if r.chance(0.2) else 0.0  # e.g. rent of a small property
    payout = r.rng.uniform(0.2, 0.8) if r.chance(0.6) else 0.0
    result = CompanyAccounts(intra_investments=round(investments))
    for year in years:
        received = sum(share * sub.dividends.get(year, 0) for share, sub in held)
        outside = portfolio * r.rng.uniform(0.0, 0.07)
        income = _income(
            sales=0, other=own_income * r.rng.uniform(0.9, 1.1), goods=0, salary=0, depreciation=0,
            other_costs=admin * r.rng.uniform(0.9, 1.15),
            financial_income=received + outside + max(0.0, cash) * 0.03, financial_costs=loan * 0.06,
            tax_of=lambda before_tax, exempt=received + outside: max(0.0, (before_tax - exempt * (1 - TAXED_SHARE_OF_DIVIDENDS)) * TAX_RATE),
        )
        annual = income["annual_result"]
        dividend = payout * annual if annual > 0 else 0.0
        equity += annual - dividend
        loan *= 0.9
        payable = dividend + income["tax"] + admin * 0.1  # dividend and tax due next year, unpaid bills
        cash = equity + loan + payable - shares
        balance = _balance(
            intangible=0, tangible=0, financial=shares, inventory=0, receivables=0, cash=max(0.0, cash),
            share_capital=share_capital, equity=equity, long_term=loan,
        )
        result.figures[year] = _figures(income, balance)
        result.dividends[year] = round(dividend)
        result.intra_dividends[year] = round(received)
    return result


def group_figures(members: list[CompanyAccounts], year: int) -> Figures:
    """Consolidated figures of a group (parent first): the members' lines added up, the shares in
    subsidiaries and the dividends between members eliminated, the parent's share capital."""
    income: dict[str, int] = {}
    balance: dict[str, int] = {}
    for member in members:
        figures = member.figures[year]
        own = dict(figures.income)
        if own["total_sales"] is None:
            own["total_sales"], own["other_operating_income"] = own["total_operating_income"], Decimal(0)
        for name, value in own.items():
            income[name] = income.get(name, 0) + int(value)
        for name, value in figures.balance.items():
            balance[name] = balance.get(name, 0) + int(value)
    eliminated_dividends = sum(member.intra_dividends.get(year, 0) for member in members)
    eliminated_shares = sum(member.intra_investments for member in members)
    income["financial_income"] -= eliminated_dividends
    income["result_before_tax"] -= eliminated_dividends
    income["annual_result"] -= eliminated_dividends
    for name in ("financial_fixed_assets", "total_fixed_assets", "total_assets", "total_equity", "total_equity_and_liabilities"):
        balance[name] -= eliminated_shares
    balance["share_capital"] = int(members[0].figures[year].balance["share_capital"])
    balance["retained_earnings"] = balance["total_equity"] - balance["share_capital"]
    return _figures(income, balance)


def figures_changed(r: DemoRandom, figures: Figures, *, significant: bool) -> Figures:
    """A corrected set: every income line moved by more than 10% when significant, else by a few
    percent; the change in the year's result carried into retained earnings and cash."""
    factor = r.rng.uniform(1.12, 1.35) if significant else r.rng.uniform(1.005, 1.03)
    if r.chance(0.5):
        factor = 2 - factor
    income = {name: None if value is None else (value * Decimal(str(round(factor, 4)))).quantize(Decimal(1)) for name, value in figures.income.items()}
    income["total_operating_costs"] = sum((income[k] for k in ("cost_of_goods_sold", "salary_costs", "depreciation", "other_operating_costs")), Decimal(0))
    if income["total_sales"] is not None:
        income["total_operating_income"] = income["total_sales"] + income["other_operating_income"]
    income["operating_result"] = income["total_operating_income"] - income["total_operating_costs"]
    income["result_before_tax"] = income["operating_result"] + income["financial_income"] - income["financial_costs"]
    income["annual_result"] = income["result_before_tax"] - income["tax"]
    delta = income["annual_result"] - figures.income["annual_result"]
    balance = dict(figures.balance)
    for name in ("retained_earnings", "total_equity", "cash_and_bank", "total_current_assets", "total_assets", "total_equity_and_liabilities"):
        balance[name] += delta
    return Figures(income, balance)


def filing_date(r: DemoRandom, year: int, *, late: bool = False) -> date:
    """When the accounts for `year` reached the register: most in spring and early summer before the
    31 July deadline, a late filer's in the autumn or winter after it."""
    if late:
        return date(year + 1, 8, 1) + timedelta(days=r.rng.randint(0, 200))
    return date(year + 1, 3, 1) + timedelta(days=r.rng.randint(0, 150))


def accounts_years(r: DemoRandom, *, today: date, founded: date, stopped: date | None = None) -> dict[int, date]:
    """The years filed by today (year -> announcement date): 3-6 consecutive years ending with the
    newest one that reached the register by today (last year's once filed in spring or summer; a late
    filer's only in the autumn or winter after the deadline, so the analysis sees it missing until
    then), fewer for a young company. A company that `stopped` (bankrupt, dissolved) filed nothing
    after that day."""
    late = r.chance(LATE_FILERS)
    count = r.rng.randint(3, 6)
    filed: dict[int, date] = {}
    year = today.year - 1
    while year >= founded.year and len(filed) < count and year > today.year - 12:
        announced = filing_date(r, year, late=late)
        if announced <= today and (stopped is None or announced < stopped):
            filed[year] = announced
        elif filed:
            break  # a gap would end the run
        year -= 1
    return dict(sorted(filed.items()))
