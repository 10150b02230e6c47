"""The fixed type catalogue of the company register: keys the code relies on.

Kept in the database by `catalog_ensure()`, which runs after every migrate
(like Django's permissions), so code and rows never drift apart.
"""

from __future__ import annotations

ACCOUNTS_TYPES = {
    "annual_company_accounts": "Annual accounts of the company itself",
    "annual_corporate_group_accounts": "Consolidated annual accounts of a corporate group",
}

ROLE_TYPES = {
    "board_chair": "Chair of the board",
    "board_member": "Board member",
    "deputy_board_member": "Deputy board member",
    "ceo": "Chief executive officer (daglig leder)",
    "signature_right": "Right to sign for the company (signatur)",
    "procuration": "Procuration (prokura)",
    "shareholder": "Shareholder or owning company, with its share",
    "auditor": "Auditor",
}

RISK_STATUS_TYPES = {
    "bankrupt": "Bankrupt (konkurs)",
    "under_liquidation": "Under voluntary liquidation (under avvikling)",
    "forced_dissolution": "Under forced dissolution (tvangsavvikling/tvangsoppløsning)",
    "liquidated": "Liquidated",
    "deleted": "Deleted from the register",
}

AUDITOR_NOTE_TYPES = {
    "unqualified_opinion": "Clean auditor's report",
    "emphasis_of_matter": "Emphasis of matter",
    "qualified_opinion": "Qualified opinion",
    "adverse_opinion": "Adverse opinion",
    "disclaimer_of_opinion": "Disclaimer of opinion",
    "going_concern": "Material uncertainty about going concern",
}

# key: (description, rank (1 is most severe), default lookback days, persist, default end days, role)
FLAG_TYPES = {
    "bankrupt": ("The company is bankrupt", 1, None, True, None, ""),
    "forced_dissolution": ("The company is under forced dissolution", 2, None, True, None, ""),
    "under_liquidation": ("The company is under liquidation", 3, None, True, None, ""),
    "recent_high_risk_event": (
        "A high-risk event (bankruptcy, dissolution, adverse auditor note) in the last 365 days",
        4,
        365,
        False,
        365,
        "",
    ),
    "negative_total_equity": ("Total equity is negative in the latest accounts", 5, None, False, None, ""),
    "replaced_unaudited_accounts_with_significant_changes": (
        "Accounts were replaced without an auditor and key figures changed by more than 10%",
        6,
        730,
        False,
        730,
        "",
    ),
    "replaced_unaudited_accounts": ("Accounts were replaced without an auditor", 7, 730, False, 730, ""),
    "going_concern_doubt": ("The auditor expressed doubt about going concern", 8, None, False, None, ""),
    "missing_accounts": (
        "No accounts filed for a year the company was obliged to report",
        9,
        None,
        False,
        None,
        "",
    ),
    "payment_remarks": ("The company has unsettled payment remarks", 10, None, False, None, "credit_check"),
}

# key: (description, unit)
MEASURE_TYPES = {
    "total_operating_income": ("Total operating income", "NOK"),
    "operating_result": ("Operating result (EBIT)", "NOK"),
    "result_before_tax": ("Result before tax", "NOK"),
    "annual_result": ("Annual result", "NOK"),
    "total_assets": ("Total assets", "NOK"),
    "total_equity": ("Total equity", "NOK"),
    "equity_ratio": ("Equity ratio: total equity / total assets", "ratio"),
    "return_on_assets": ("Return on assets: (result before tax + financial costs) / total assets", "ratio"),
    "return_on_equity": ("Return on equity: annual result / total equity", "ratio"),
    "operating_margin": ("Operating margin: operating result / total operating income", "ratio"),
    "current_ratio": ("Current ratio: current assets / short-term liabilities", "ratio"),
    "employees": ("Employees at year end", "count"),
    "revenue_growth": ("Revenue growth: change in total operating income from the year before", "ratio"),
}


def catalog_ensure() -> None:
    """Create or update every catalogue row (idempotent)."""
    from service.companies import models as m
    from service.key_rows import key_rows_ensure

    key_rows_ensure(m.AccountsType, {key: {} for key in ACCOUNTS_TYPES})
    key_rows_ensure(m.CompanyRoleType, {key: {"description": d} for key, d in ROLE_TYPES.items()})
    key_rows_ensure(m.CompanyRiskStatusType, {key: {"description": d} for key, d in RISK_STATUS_TYPES.items()})
    key_rows_ensure(m.AccountsAuditorNoteType, {key: {"description": d} for key, d in AUDITOR_NOTE_TYPES.items()})
    key_rows_ensure(m.CompanyFlagType, {
        key: {
            "description": description,
            "flag_rank": rank,
            "default_lookback_days": lookback,
            "persist_flag": persist,
            "default_flag_end_days": end_days,
            "required_role_key": role,
        }
        for key, (description, rank, lookback, persist, end_days, role) in FLAG_TYPES.items()
    })
    key_rows_ensure(m.CompanyMeasureType, {
        key: {"description": description, "unit": unit} for key, (description, unit) in MEASURE_TYPES.items()
    })