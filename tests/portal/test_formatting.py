"""The dashboard's formatting functions (portal/formatting.py) and the template filters that wrap them."""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.template import Context, Template

from portal import formatting as fmt

NBSP = "\xa0"


def test_a_measure_is_shown_by_its_unit():
    assert fmt.measure_value(0.416, "ratio") == f"41,6{NBSP}%"
    assert fmt.measure_value(184500.0, "NOK") == f"184{NBSP}500{NBSP}kr"
    assert fmt.measure_value(1200, "count") == f"1{NBSP}200"
    assert fmt.measure_value(None, "ratio") == "–"


def test_score_factors_read_like_the_pdf():
    assert fmt.factor_label("unsettled_payment_remarks_amount") == "Unsettled remarks, amount"
    assert fmt.factor_label("something_new") == "Something new"
    assert fmt.factor_value("equity_ratio", 0.416) == f"41,6{NBSP}%"
    assert fmt.factor_value("total_assets", 8000000) == f"8{NBSP}000{NBSP}000{NBSP}kr"
    assert fmt.factor_value("company_age_years", 16.7) == "16,7 years"
    assert fmt.factor_value("current_ratio", 2) == "2,00"
    assert fmt.factor_value("missing_accounts", 2025) == "accounts for 2025"
    assert fmt.factor_value("equity_ratio", None) == "missing"
    assert fmt.factor_value("auditor_note", None) == "–"
    assert fmt.factor_value("negative_equity", False) == "no"
    assert fmt.factor_value("risk_status", ["under_liquidation"]) == "under liquidation"
    assert fmt.factor_band("equity_ratio", ">= 0.4") == f"40,0{NBSP}% or more"
    assert fmt.factor_band("total_assets", "1e+06 to < 1e+07") == f"1{NBSP}000{NBSP}000{NBSP}kr to below 10{NBSP}000{NBSP}000{NBSP}kr"
    assert fmt.factor_band("employees", "< 1") == "below 1"


@dataclass
class Remark:
    amount: Decimal
    creditor_name: str
    registered_date: date
    settled_date: date | None = None


def test_flag_evidence_in_sentences():
    assert fmt.evidence_lines("missing_accounts", {"due_year": 2025, "deadline": "2026-07-31", "last_accounts_year": None}) == [
        "No accounts filed for 2025 (deadline 31.07.2026).", "No accounts filed for any year.",
    ]
    assert fmt.evidence_lines("negative_total_equity", (("accounting_year", 2024), ("total_equity", -5000))) == [
        f"Total equity -5{NBSP}000{NBSP}kr in the 2024 accounts."
    ]
    remarks = [Remark(Decimal("100000"), "Inkasso AS", date(2025, 1, 2)),
               Remark(Decimal("5000"), "", date(2025, 2, 3)),
               Remark(Decimal("7000"), "Betalt AS", date(2024, 1, 1), settled_date=date(2024, 6, 1))]
    lines = fmt.evidence_lines(
        "payment_remarks", {"unsettled_count": 2, "unsettled_amount": 105000, "first_registered_date": "2025-01-02"}, remarks
    )
    assert lines == [
        f"2 unsettled remarks, 105{NBSP}000{NBSP}kr in total, the first registered 02.01.2025.",
        f"100{NBSP}000{NBSP}kr to Inkasso AS, registered 02.01.2025.",
        f"5{NBSP}000{NBSP}kr to creditor not given, registered 03.02.2025.",
    ]
    changes = {"total_equity": {"before": 1000000, "after": 500000, "change_ratio": 0.5}}
    assert fmt.evidence_lines(
        "replaced_unaudited_accounts_with_significant_changes",
        {"accounting_year": 2023, "announcement_date": "2025-03-01", "changes": changes},
    ) == [
        "The 2023 accounts were replaced by unaudited accounts on 01.03.2025.",
        f"Total equity: 1{NBSP}000{NBSP}000{NBSP}kr → 500{NBSP}000{NBSP}kr (50,0{NBSP}% change)",
    ]
    assert fmt.evidence_lines("recent_high_risk_event", {"event": "bankrupt", "event_date": "2025-05-05", "event_count": 2}) == [
        "Bankruptcy, 05.05.2025.", "2 high-risk events in the last 365 days.",
    ]


def test_unknown_evidence_still_reads_as_words():
    assert fmt.evidence_lines("new_flag", {"some_amount": 12000, "seen_date": "2025-01-01", "x_uuid": "abc"}) == [
        f"Some amount: 12{NBSP}000{NBSP}kr", "Seen date: 01.01.2025",
    ]


def test_the_template_filters_use_the_same_rules():
    template = Template("{% load vakt %}{{ a|number }}|{{ r|pct }}|{{ k|kr }}|{{ d|day }}|{{ s|number:1 }}|{{ p|points }}")
    text = template.render(Context({"a": 10_000_000, "r": -0.313, "k": Decimal("184500.00"), "d": date(2025, 1, 2),
                                    "s": 41.55, "p": -5}))
    assert text == f"10{NBSP}000{NBSP}000|-31,3{NBSP}%|184{NBSP}500{NBSP}kr|02.01.2025|41,6|-5"


def test_a_moment_is_shown_on_the_local_calendar(settings):
    from datetime import datetime, timezone

    settings.TIME_ZONE = "Europe/Oslo"
    midnight_in_oslo = datetime(2025, 1, 9, 23, 0, tzinfo=timezone.utc)

    text = Template("{{ moment|day }}").render(Context({"moment": midnight_in_oslo}))

    assert text == "10.01.2025"


def test_a_recorded_day_reads_as_the_dashboard_writes_days():
    assert fmt.recorded_text("1962-02-11") == "11.02.1962"  # a birth date in an audit record
    assert fmt.recorded_text("2026-02-30") == "2026-02-30"  # not a day: left as it was
    assert fmt.recorded_text("Storgata 1") == "Storgata 1"
