import csv
import unicodedata

import pytest

from service.screening.matching import DEFAULT_THRESHOLD, score_names

from .conftest import shared_data


def matches(query: str, listed: str, schema: str = "Person") -> bool:
    return score_names(query, listed, schema) >= DEFAULT_THRESHOLD


def written_in(text: str, scripts: set[str]) -> bool:
    return all(unicodedata.name(c, "?").split(" ")[0] in scripts for c in text if c.isalpha())


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("Vladimir Putin", "Vladimir Putin"),
        ("Putin Vladimir", "Vladimir Putin"),  # word order
        ("PUTIN, Vladimir", "Vladimir Putin"),
        ("Vladimir Putin", "Vladimir Vladimirovich Putin"),  # missing middle name
        ("V. Putin", "Vladimir Putin"),  # initial
        ("Hans J Friedrich", "Hans Joachim Friedrich"),
        ("Hans Friedrich", "Hans Joachim Otto Friedrich"),  # two missing middle names (too many for a company's)
        ("Vladmir Puttin", "Vladimir Putin"),  # typos
        ("Alexander Luakshenko", "Alexander Lukashenko"),  # swapped letters
        ("Mr. Rami Makhlouf", "Rami Makhlouf"),  # honorific
        ("VladimirPutin", "Vladimir Putin"),  # joined words
        ("Nikolai Patr ushev", "Nikolai Platonovich Patrushev"),  # split word
        ("Muhammad bin Salman", "Mohammed bin Salman"),  # transliteration variants
        ("Usama bin Ladin", "Osama bin Laden"),
        ("Wolodymyr Selenskyj", "Volodymyr Zelenskyy"),
        ("Владимир Путин", "Vladimir Putin"),  # other scripts
        ("فرناندو بيريز", "Fernando Pérez"),
        ("Bashar al-Assad", "Bashar Assad"),  # particles
    ],
)
def test_it_matches_spelling_variants_of_one_person(query, listed):
    assert matches(query, listed)


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("Hans Otto Friedrich", "Hans Joachim Friedrich"),  # a conflicting middle name
        ("Saddam Hussein al-Dulaimi", "Saddam Hussein al-Tikriti"),  # a different family name
        ("Boris Netanyahu", "Benjamin Netanyahu"),
        ("Ole Hansen", "Ola Hansen"),  # in short names one letter is another name
        ("Geoffrey Boris Johnson", "Alexandre Boris de Pfeffel Johnson"),
        ("Salman bin Muhammad", "Muhammad bin Salman"),  # father and son swapped
        ("N.N.", "Nursultan Nazarbayev"),  # initials alone identify no one
        ("习近朋", "习近平"),  # one different Han character is another name
        ("浩 宁", "Colin Honing"),  # Han syllables glued ("haoning") are no typo of a Latin name
    ],
)
def test_it_tells_different_people_apart(query, listed):
    assert not matches(query, listed)


def test_it_matches_organisations_across_legal_forms_and_spacing():
    assert matches("Siemens Aktiengesellschaft", "Siemens AG", "Company")
    assert matches("SiemensAG", "Siemens AG", "Company")
    assert matches("OAO Gazprom", "Open Joint Stock Company Gazprom", "Company")
    assert matches("Al Qaeda", "Al-Qa'ida/Islamic Army", "Organization")  # slash-separated alternatives
    assert matches("Islamic Army/Al-Qa'ida", "Al Qaeda", "Organization")  # on the query's side too
    assert not matches("Volkswagen AG", "Siemens AG", "Company")
    assert not matches("Bank of China (Hong Kong) Limited", "Bank of China (Singapore) Limited", "Company")


def test_it_drops_a_vessels_prefix_in_each_of_its_alternatives():
    assert score_names("MV Sea Star/Ocean Pride", "Sea Star", "Vessel") == 1.0
    assert score_names("Sea Star", "MV Sea Star/Ocean Pride", "Vessel") == 1.0


def test_it_reads_a_slash_in_a_persons_name_as_a_space_not_as_alternatives():
    # Only organisations' lists write alternatives with a slash: "Sidorov/Petrov" is a double name.
    assert score_names("Ivan Sidorov/Petrov", "Ivan Sidorov") == score_names("Ivan Sidorov Petrov", "Ivan Sidorov") < 1
    assert score_names("Ivan Sidorov", "Ivan Sidorov/Petrov") == score_names("Ivan Sidorov", "Ivan Sidorov Petrov") < 1


def test_it_scores_identical_names_one_and_unrelated_names_zero():
    assert score_names("Angela Merkel", "Angela Merkel") == 1.0
    assert score_names("Angela Merkel", "Xi Jinping") == 0.0


def test_it_matches_the_spellings_of_putin_across_scripts():
    spellings = [line.strip() for line in open(shared_data("matching/putin_names.txt"), encoding="utf-8") if line.strip()]
    listed = ["Vladimir Vladimirovich Putin", "Владимир Владимирович Путин", "PUTIN, Vladimir Vladimirovich"]
    found = [spelling for spelling in spellings if any(matches(spelling, name) for name in listed)]
    missed = sorted(set(spellings) - set(found))
    # Measured: 75 of 81. The misses are transcriptions into Khmer, Myanmar, Devanagari,
    # Urdu and Korean that no romanisation brings back to "Vladimir", and "Putyin elnök".
    assert len(found) >= 75, missed
    european = [s for s in spellings if written_in(s, {"LATIN", "CYRILLIC", "GREEK"})]
    assert set(european) - set(found) <= {"Putyin elnök"}


def test_it_reaches_f1_090_on_name_bench_at_the_default_threshold():
    rows = list(csv.DictReader(open(shared_data("matching/name_bench_cases.csv"), encoding="utf-8")))
    predicted = [score_names(r["name1"], r["name2"], r["schema"]) >= DEFAULT_THRESHOLD for r in rows]
    gold = [r["is_match"] == "true" for r in rows]
    true_positives = sum(p and g for p, g in zip(predicted, gold))
    precision = true_positives / sum(predicted)
    recall = true_positives / sum(gold)
    f1 = 2 * precision * recall / (precision + recall)
    assert len(rows) == 826
    assert f1 >= 0.90, f"F1 {f1:.3f} (precision {precision:.3f}, recall {recall:.3f})"


def test_it_compares_names_split_into_other_parts_by_their_joined_letters():
    # The same letters (0.95); from nine letters, one edit apart (0.9); shorter, another name.
    assert score_names("Ki Mjongun", "Kim Jong Un") == 0.95
    assert score_names("Ki Mjongum", "Kim Jong Un") == 0.9
    assert score_names("Ki Mjonun", "Kim Jong Un") == 0.0
    assert score_names("Kimjonun", "Kim Jong Un") == 8 / 9  # eight letters: not the joined rule's 0.9


def test_it_weakens_a_fathers_name_aligned_with_a_persons_own():
    # "Salman bin Muhammad" is Salman, son of Muhammad: each name stands against the other's
    # father's name at half its similarity, (0.5 + 1 * weight of "bin" + 0.5) / 2.2 = 6 / 11.
    assert score_names("Salman bin Muhammad", "Muhammad bin Salman") == pytest.approx(6 / 11)
    assert score_names("Salman Muhammad", "Muhammad Salman") == 1.0
