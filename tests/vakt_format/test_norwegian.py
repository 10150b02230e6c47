"""The shared Norwegian number rules (vakt_format.norwegian): the PDFs and the dashboard use them both."""

from datetime import UTC, date, datetime
from decimal import Decimal

from vakt_format import norwegian as no

NBSP = "\xa0"


def test_amounts_are_grouped_by_a_no_break_space_without_decimals():
    assert no.amount(10_000_000) == f"10{NBSP}000{NBSP}000"
    assert no.amount(Decimal("184500.00")) == f"184{NBSP}500"
    assert no.amount(999) == "999"
    assert no.amount(-1_250_000) == f"-1{NBSP}250{NBSP}000"
    assert no.amount(0.5) == "1"  # half up, like the PDFs


def test_kroner_carry_the_unit():
    assert no.kroner(184_500) == f"184{NBSP}500{NBSP}kr"
    assert no.kroner(None) == "–"


def test_ratios_are_percentages_with_one_decimal_and_a_comma():
    assert no.percent(0.416) == f"41,6{NBSP}%"
    assert no.percent(Decimal("-0.313")) == f"-31,3{NBSP}%"
    assert no.percent(0.12345) == f"12,3{NBSP}%"
    assert no.percent(12.5) == f"1{NBSP}250,0{NBSP}%"
    assert no.percent(None) == "–"


def test_decimals_use_a_comma():
    assert no.decimal(1.5, 2) == "1,50"
    assert no.decimal(1234.56, 1) == f"1{NBSP}234,6"


def test_dates_read_day_month_year():
    assert no.day(date(2024, 6, 15)) == "15.06.2024"
    assert no.day(datetime(2024, 6, 15, 13, 0)) == "15.06.2024"
    assert no.day("2025-07-31") == "31.07.2025"
    assert no.day(None) == "–"


def test_a_moment_is_shown_on_the_deployments_calendar_and_clock(settings):
    settings.TIME_ZONE = "Europe/Oslo"  # Django sets the process's TZ from it
    half_past_midnight_in_oslo = datetime(2026, 11, 26, 23, 30, tzinfo=UTC)
    summer_midnight_in_oslo = datetime(2026, 7, 31, 22, 0, tzinfo=UTC)

    assert no.day(half_past_midnight_in_oslo) == "27.11.2026"
    assert no.moment(half_past_midnight_in_oslo) == "27.11.2026 00:30"
    assert no.day(summer_midnight_in_oslo) == "01.08.2026"
    assert no.moment(datetime(2026, 11, 26, 9, 5)) == "26.11.2026 09:05"  # naive: taken as local
    assert no.moment(date(2026, 11, 26)) == "26.11.2026"
    assert no.moment(None) == "–"


def test_the_percentages_of_a_sentence_the_service_wrote():
    from vakt_format.norwegian import percents_in_text

    assert percents_in_text("Owns 31.0% of Nordlys AS through Fjell Holding AS (62.0% × 50.0%)") == (
        "Owns 31,0\xa0% of Nordlys AS through Fjell Holding AS (62,0\xa0% × 50,0\xa0%)"
    )
    assert percents_in_text("no person holds 25% or more") == "no person holds 25\xa0% or more"
    assert percents_in_text("24.9999% through a chain") == "24,9999\xa0% through a chain"  # the decimals as written
    assert percents_in_text("Nordlys AS is on the watchlist Kunder.") == "Nordlys AS is on the watchlist Kunder."


def test_a_file_size_has_a_decimal_comma():
    assert no.file_size(830) == f"830{NBSP}byte"
    assert no.file_size(6042) == f"5,9{NBSP}kB"
    assert no.file_size(1_258_291) == f"1,2{NBSP}MB"
    assert no.file_size(None) == no.DASH


def test_a_partial_birth_date_is_written_as_norwegians_type_it():
    assert [no.partial_day(v) for v in ("1966-03-14", "1966-03", "1966", "")] == ["14.03.1966", "03.1966", "1966", ""]
    assert all(no.partial_day_iso(no.partial_day(v)) == v for v in ("1966-03-14", "1966-03", "1966"))  # the inverse
