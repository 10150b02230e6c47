"""A national id masked by one rule: the birth-date digits kept, the rest hidden."""

from portal.service.screening_records import NationalId
from vakt_format.national_ids import national_id_masked


def test_it_keeps_the_birth_date_digits_of_each_schema():
    assert national_id_masked("NO", "15108695088") == "NO 151086*****"
    assert national_id_masked("DK", "1510861234") == "DK 151086****"
    assert national_id_masked("SE", "198610150016") == "SE 19861015****"  # stored with its century
    assert national_id_masked("", "15108695088") == "151086*****"  # typed into a text: schema unknown
    assert national_id_masked("", "198610150016") == "19861015****"  # 12 digits: Swedish with its century


def test_the_dashboard_masks_a_recorded_number_by_the_same_rule():
    number = NationalId(None, "SE", "198610150016")
    assert number.masked == national_id_masked("SE", "198610150016") == "SE 19861015****"
