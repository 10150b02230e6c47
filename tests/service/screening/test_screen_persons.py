"""manage.py screen_persons: the engine run alone over a CSV of persons."""

from __future__ import annotations

import csv

import pytest
from django.core.management import CommandError, call_command

from service.screening.list_import import screening_list_import
from service.screening.models import ScreeningListCategory
from tests.conftest import shared_file


@pytest.fixture
def un_list(db):
    category = ScreeningListCategory.objects.get(key="un_security_council")
    screening_list_import(category=category, path=shared_file("sanctions/un/UN_consolidated.xml"))
    return category


def _listed_person(category: ScreeningListCategory):
    """A listed individual with a full birth date, to write about in the input file."""
    entries = category.current_version.entries.filter(schema="Person")
    for entry in entries.order_by("source_id"):
        full_dates = [d for d in entry.birth_dates if len(d) == 10]
        if full_dates and len(entry.primary_name.split()) >= 3:
            return entry, full_dates[0]
    raise AssertionError("no listed person with a full birth date")


def _typo(name: str) -> str:
    """Swap two letters inside the longest word: a typing error a reviewer would still want caught."""
    words = name.split()
    i = max(range(len(words)), key=lambda k: len(words[k]))
    word = words[i]
    words[i] = word[0] + word[2] + word[1] + word[3:]
    return " ".join(words)


def _lines(path) -> list[dict]:
    """The result's lines by column (the file starts with a byte order mark, for Excel)."""
    with open(path, encoding="utf-8-sig", newline="") as result:
        return list(csv.DictReader(result))


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=["id", "name", "birth_date", "nationality"])
        writer.writeheader()
        writer.writerows(rows)


def test_it_finds_a_listed_person_written_with_a_typo_and_explains_it(un_list, tmp_path, capsys):
    entry, birth_date = _listed_person(un_list)
    source, target = tmp_path / "persons.csv", tmp_path / "matches.csv"
    _write(
        source,
        [
            {"id": "p1", "name": _typo(entry.primary_name), "birth_date": birth_date, "nationality": ""},
            {"id": "p2", "name": "Ole Hansen", "birth_date": "1980-03-04", "nationality": "NO"},
        ],
    )

    call_command("screen_persons", str(source), "--out", str(target))

    rows = _lines(target)
    assert [(r["Your reference"], r["Kind"]) for r in rows][-1] == ("p2", "Person")  # a line per hit, one for a row without
    best = rows[0]
    assert best["Your reference"] == "p1" and best["Source id"] == entry.source_id and best["Hit"].startswith("1 of ")
    assert best["List"] == un_list.name and best["List type"] == "Sanction"
    assert float(best["Score"].replace(",", ".")) >= 0.7
    assert "Birth date: agrees +" in best["Why"]
    assert rows[-1]["Possible hit"] == "No"
    assert "read 2, screened 2, rejected 0; 1 row(s)" in capsys.readouterr().out


def test_it_screens_companies_by_their_own_name_whatever_their_legal_form(un_list, tmp_path):
    entity = un_list.current_version.entries.filter(schema="Organization").order_by("source_id").first()
    source, target = tmp_path / "mixed.csv", tmp_path / "matches.csv"
    with open(source, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=["type", "id", "name", "birth_date", "country"])
        writer.writeheader()
        writer.writerow({"type": "company", "id": "k1", "name": f"{entity.primary_name} Ltd"})
        writer.writerow({"type": "company", "id": "k2", "name": "Nordlys Havbruk AS", "country": "NO"})
        writer.writerow({"type": "person", "id": "p1", "name": "Kari Nordmann", "birth_date": "1980"})

    call_command("screen_persons", str(source), "--out", str(target))

    rows = {}
    for line in _lines(target):
        rows.setdefault(line["Your reference"], line)  # the best hit
    assert rows["k1"]["Kind"] == "Company" and rows["k1"]["Source id"] == entity.source_id
    assert rows["k2"]["Possible hit"] == "No" and rows["k2"]["Country"] == "NO"
    assert rows["p1"]["Possible hit"] == "No"


def test_it_reports_bad_rows_by_line_and_column_and_screens_the_rest(un_list, tmp_path, capsys):
    source, target = tmp_path / "persons.csv", tmp_path / "matches.csv"
    _write(
        source,
        [
            {"id": "a", "name": "", "birth_date": "1970", "nationality": ""},
            {"id": "b", "name": "Kari Nordmann", "birth_date": "19x0", "nationality": "NO"},
            {"id": "c", "name": "Per Olsen", "birth_date": "", "nationality": "Atlantis"},
            {"id": "d", "name": "Kari Nordmann", "birth_date": "1975-06", "nationality": "Norway"},
        ],
    )
    call_command("screen_persons", str(source), "--out", str(target))
    captured = capsys.readouterr()
    assert "rejected line 2, name: a name is required" in captured.err
    assert "rejected line 3, birth_date: '19x0'" in captured.err
    assert "rejected line 4, nationality: 'Atlantis'" in captured.err
    assert "read 4, screened 1, rejected 3" in captured.out
    assert [r["Your reference"] for r in _lines(target)] == ["d"]


def test_it_refuses_a_file_without_a_name_column(un_list, tmp_path):
    source = tmp_path / "persons.csv"
    source.write_text("who,when\nx,1970\n", encoding="utf-8")
    with pytest.raises(CommandError, match="needs a 'name' column"):
        call_command("screen_persons", str(source), "--out", str(tmp_path / "out.csv"))
