"""Reading pasted or uploaded organisation numbers: every common form, line numbers kept."""

from watchlists.numbers import lines_read


def _read(text):
    return [(line.number, line.company.org_nr_schema, line.company.org_nr) for line in lines_read(text)]


def test_it_reads_numbers_with_and_without_spaces_and_the_no_prefix():
    text = "923609016\n923 609 016\nNO923609016\nNO 923 609 016\n  no 923609016  \n"
    assert _read(text) == [(n, "NO", "923609016") for n in range(1, 6)]


def test_it_keeps_the_users_line_numbers_across_blank_lines():
    assert _read("\n923609016\n\n   \n12345\n") == [(2, "NO", "923609016"), (5, "NO", "12345")]


def test_it_reads_csv_with_an_optional_header_and_schema_column():
    text = "org_nr,org_nr_schema\n923609016,NO\n\"556036 0793\";SE\n913748174\n"
    assert _read(text) == [(2, "NO", "923609016"), (3, "SE", "5560360793"), (4, "NO", "913748174")]
    assert _read("923609016,NO\n") == [(1, "NO", "923609016")]


def test_it_passes_a_line_it_cannot_read_on_as_a_number_for_the_service_to_refuse():
    # "he" is not read as a country prefix: no digits follow it
    assert _read("hello world\nSE 5560360793\n") == [(1, "NO", "helloworld"), (2, "SE", "5560360793")]
