import re

from hypothesis import given, settings
from hypothesis import strategies as st

from service.screening.matching import normalize_name
from service.screening.matching.normalize import GENERIC, INITIAL, LEGAL, NUMBER, PARTICLE, TITLE, joined_letters


def texts(name: str, schema: str = "Person") -> list[str]:
    return [token.text for token in normalize_name(name, schema).tokens]


def roles(name: str, schema: str = "Person") -> dict[str, str]:
    return {token.text: token.role for token in normalize_name(name, schema).tokens}


def test_it_folds_case_and_accents():
    assert texts("Recep Tayyip ERDOĞAN") == ["recep", "tayyip", "erdogan"]
    assert texts("François Hollande") == ["francois", "hollande"]


def test_it_transliterates_other_scripts():
    assert texts("Владимир Путин") == ["vladimir", "putin"]
    assert texts("Βλαντίμιρ Πούτιν") == ["vlantimir", "poutin"]
    assert texts("فلاديمير بوتين") == ["fladymyr", "bwtyn"]


def test_it_splits_a_chinese_name_into_family_and_given_name():
    tokens = normalize_name("习近平").tokens
    assert [token.text for token in tokens] == ["xi", "jinping"]
    assert [token.form for token in tokens] == ["习", "近平"]


def test_it_keeps_foreign_names_in_chinese_whole():
    assert texts("贝拉克·奥巴马") == ["beilake", "aobama"]


def test_it_drops_honorifics_and_marks_titles():
    assert texts("Mr. Rami Makhlouf") == ["rami", "makhlouf"]
    assert roles("Shaikh Isa Bin Tarif")["shaikh"] == TITLE


def test_it_reads_family_name_first_with_a_comma():
    assert texts("PUTIN, Vladimir Vladimirovich") == ["vladimir", "vladimirovich", "putin"]


def test_it_marks_particles():
    assert roles("Mohammed bin Salman al Saud")["bin"] == PARTICLE
    assert roles("Jean van der Berg")["van"] == PARTICLE


def test_it_reads_initials():
    assert roles("V. Putin")["v"] == INITIAL
    assert texts("J.-C. Juncker") == ["j", "c", "juncker"]
    assert texts("JC Juncker") == ["j", "c", "juncker"]


def test_it_reads_digits_inside_a_person_name_as_letters():
    assert texts("Ig0r Sech1n") == ["igor", "sechin"]


def test_it_spells_slavic_patronymics_one_way():
    assert texts("Wladimir Wladimirowitsch Putin")[1] == "wladimirovich"
    assert texts("Vladimir Vladimirovitch Poutine")[1] == "vladimirovich"


def test_it_turns_legal_forms_into_one_class():
    assert texts("Siemens Aktiengesellschaft", "Company") == texts("Siemens AG", "Company")
    assert roles("Open Joint Stock Company Gazprom", "Company") == {"jsc": LEGAL, "gazprom": "name"}


def test_it_marks_generic_company_words_and_numbers():
    assert roles("Tactical Missiles Corporation", "Company")["corporation"] == GENERIC
    assert texts("Blackstone Capital Partners VII", "Company")[-1] == "7"
    assert texts("Brigade Forty-Four", "Organization") == ["brigade", "44"]
    assert roles("Brigade 44", "Organization")["44"] == NUMBER


def test_it_drops_stopwords_from_organisation_names():
    assert texts("The Bank of England", "Organization") == ["bank", "england"]


def test_it_strips_honorific_prefixes_exactly_as_rigour_does(un_persons):
    # The quick test before rigour's expression must never skip a name it would change.
    import random

    from rigour._core import person_name_prefixes_list
    from rigour.names import remove_person_prefixes

    from service.screening.matching.normalize import _without_person_prefixes

    rng = random.Random(3)
    names = [name.name for person in un_persons for name in person.names]
    for prefix in person_name_prefixes_list():
        for written in (prefix, prefix.lower(), prefix.upper(), prefix + ".", prefix + "..", prefix + "-"):
            names += [f"{written} John Smith", f"{written}\u00a0Anna Berg", f"{written}John", written]
    names += ["Mr Dr John Smith", "Dr.John Smith", "-John Smith", "'Abd al-Rahman", "(Ali) Hassan", "_x Ali",
              "Drake Bell", "Doctorow", "Ímam Ali", "İmam Ali", "Été Dupont", "  Dr  Who", "", " ", "Dr",
              "Владимир Путин", "Dr Владимир", "Путин Dr", "Δρ Παπαδόπουλος", "محمد Dr", "习近平", "김정은 Dr",
              "Ｄｒ Smith", "Ｍｒ. Smith", "ΜR Smith", "Мr Smith", "Dr\u0301 Smith", "\u212arau Smith"]
    # Non-Latin first words, mixed with Latin letters and prefixes after them.
    alphabets = ["абвгдежзиклмнопрстуфхцчшщыэюя", "αβγδεζηθικλμνξοπρστυφχψω", "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
                 "אבגדהוזחטיכלמנסעפצקרשת", "的一是不了人我在有他这中大来上国个到说们为子", "가나다라마바사아자차카타파하"]
    names += [
        "".join(rng.choice(rng.choice(alphabets) + "DrMs.") for _ in range(rng.randint(1, 8))) + rng.choice(
            [" Smith", " Dr Smith", ". Smith", ""])
        for _ in range(3_000)
    ]
    names += ["".join(rng.choice("Dr.Mis -'") for _ in range(rng.randint(1, 8))) + " Smith" for _ in range(2_000)]
    changed = 0
    for name in names:
        assert _without_person_prefixes(name) == remove_person_prefixes(name), name
        changed += remove_person_prefixes(name) != name
    assert changed > 500  # the prefixed names above were really stripped


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_it_joins_an_ascii_name_to_its_letters_and_digits(name):
    # What `joined_letters` keeps of an ASCII name is what [\W_] leaves, case folded.
    assert joined_letters(name, ()) == re.sub(r"[\W_]+", "", name.casefold())
    assert joined_letters("Siemens_AG 2", ()) == "siemensag2"
