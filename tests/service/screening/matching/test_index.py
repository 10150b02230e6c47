import pickle
import random

import pytest

from service.screening.matching import DEFAULT_THRESHOLD, ListEntity, ListName, MatchIndex, PersonQuery
from service.screening.matching.index import LONG_SHOT_FLOOR

NORWEGIANS = [
    ListEntity("pep-1", "Person", [ListName("Ole Hansen")], ["1962-04-01"], ["no"], "male"),
    ListEntity("pep-2", "Person", [ListName("Kari Nordmann")], ["1955"], ["no"], "female"),
    ListEntity("org-1", "Organization", [ListName("Hansen Shipping AS")]),
]


def found(index: MatchIndex, query: PersonQuery, entity_id: str) -> bool:
    return entity_id in {match.entity_id for match in index.search(query)}


def test_it_finds_a_listed_person_and_explains_why():
    index = MatchIndex.build(NORWEGIANS)
    [match] = index.search(PersonQuery("Ole Hansen", birth_date="1962-04-01"))
    assert match.entity_id == "pep-1"
    assert match.score == 1.0
    assert match.explanation.birth_date_adjustment > 0


def test_it_does_not_report_a_common_name_born_another_year():
    index = MatchIndex.build(NORWEGIANS)
    assert index.search(PersonQuery("Ole Hansen", birth_date="1985-03-02")) == []
    assert index.search(PersonQuery("Kari Nordmann", birth_date="1990-07-15")) == []
    assert found(index, PersonQuery("Kari Nordmann"), "pep-2")  # without a birth date it is a possible match


def test_it_keeps_persons_and_organisations_apart():
    index = MatchIndex.build(NORWEGIANS)
    assert not found(index, PersonQuery("Hansen Shipping"), "org-1")
    assert found(index, PersonQuery("Hansen Shipping AS", schema="Organization"), "org-1")


def test_it_honours_threshold_and_limit():
    index = MatchIndex.build(
        [ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(["Ivan Sidorov", "Iwan Sidorow", "Ivan Sidorenko"])]
    )
    loose = index.search(PersonQuery("Ivan Sidorov"), threshold=0.5)
    assert [match.entity_id for match in loose][:2] == ["e0", "e1"]
    assert all(earlier.score >= later.score for earlier, later in zip(loose, loose[1:]))
    assert len(index.search(PersonQuery("Ivan Sidorov"), threshold=0.5, limit=1)) == 1
    assert all(match.score >= DEFAULT_THRESHOLD for match in index.search(PersonQuery("Ivan Sidorov")))


def test_it_returns_one_match_per_entity_for_its_best_alias():
    index = MatchIndex.build([ListEntity("e1", "Person", [ListName("Ivan Sidorov"), ListName("Ivan Petrovich Sidorov")])])
    [match] = index.search(PersonQuery("Ivan Petrovich Sidorov"))
    assert match.explanation.matched_name == "Ivan Petrovich Sidorov"


def test_it_survives_pickling():
    index = MatchIndex.build(NORWEGIANS)
    restored = pickle.loads(pickle.dumps(index))
    assert [m.entity_id for m in restored.search(PersonQuery("Ole Hansen"))] == ["pep-1"]
    # The postings' copy of the name records is left out of the pickle and made again.
    blocker = restored._blocker
    assert "_posting_records" not in blocker.__getstate__()
    assert (blocker._posting_records == blocker._records[blocker._parts.arrays()[1]]).all()


def test_it_indexes_a_garbled_name_of_thousands_of_words_without_failing_the_list():
    garbled = " ".join(f"w{n}" for n in range(70_000))
    index = MatchIndex.build(NORWEGIANS + [ListEntity("junk", "Organization", [ListName(garbled)])])
    assert [m.entity_id for m in index.search(PersonQuery("Ole Hansen"))] == ["pep-1"]


def test_it_searches_an_empty_index():
    assert MatchIndex.build([]).search(PersonQuery("Ole Hansen")) == []


def misspell(name: str, rng: random.Random) -> str:
    """One typo (swap, drop or change a letter) in a long word of the name."""
    words = name.split()
    long_words = [i for i, word in enumerate(words) if len(word) >= 5]
    if not long_words:
        return name
    i = rng.choice(long_words)
    word = words[i]
    at = rng.randrange(1, len(word) - 1)
    words[i] = [
        word[:at - 1] + word[at] + word[at - 1] + word[at + 1:],
        word[:at] + word[at + 1:],
        word[:at] + ("a" if word[at].lower() != "a" else "e") + word[at + 1:],
    ][rng.randrange(3)]
    return " ".join(words)


def variants(name: str, rng: random.Random) -> list[str]:
    words = name.split()
    out = [misspell(name, rng), " ".join(words[1:] + words[:1])]  # a typo; family name first
    if len(words) >= 3:
        out.append(" ".join(words[:1] + words[2:]))  # a middle name missing
    return out


def test_it_finds_real_un_persons_written_differently(un_persons, un_index):
    rng = random.Random(7)
    sample = rng.sample([p for p in un_persons if len(p.names[0].name.split()) >= 2], 150)
    attempts = [(person.id, query) for person in sample for query in variants(person.names[0].name, rng)]
    missed = [(entity_id, query) for entity_id, query in attempts if not found(un_index, PersonQuery(query), entity_id)]
    assert len(missed) <= len(attempts) * 0.01, missed


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("Sirajuddin Jallaloudine Haqqani", "SIRAJUDDIN JALLALOUDINE HAQQANI"),
        ("Haqqani Sirajuddin", "SIRAJUDDIN JALLALOUDINE HAQQANI"),
        ("Serajuddin Haqani", "SIRAJUDDIN JALLALOUDINE HAQQANI"),
        ("Ayman al-Zawahiri", "AIMAN MUHAMMED RABI AL-ZAWAHIRI"),
        ("Ayman Zawahiri", "AIMAN MUHAMMED RABI AL-ZAWAHIRI"),
        ("Kim Yong Chol", "KIM YONG CHOL"),
    ],
)
def test_it_finds_un_persons_by_other_transliterations(un_persons, un_index, query, listed):
    [entity] = [p for p in un_persons if p.names[0].name == listed]
    assert found(un_index, PersonQuery(query), entity.id)


def test_it_estimates_an_initial_standing_for_a_full_name_as_the_scorer_scores_it():
    # "K." weighs half of "Kristina": the pair weighs the mean of the two, and the whole of
    # "Kristina" is used up. Counted on the initial's weight alone, half of "Kristina" was
    # left over as a conflict with "Anssi" and the estimate fell to 0.53 against 0.78, so
    # such names lost their place among the names scored in full.
    from service.screening.matching.normalize import normalize_name

    listed = ["Kristina Kuosmanen", "Anssi Kainulainen", "K. Kuosmanen", "Kalle Anssi Kuosmanen"]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    for query in ("K. Anssi Kuosmanen", "Kristina A. Kuosmanen", "K. Kuosmanen"):
        query_name = normalize_name(query)
        names, estimates = index._blocker.candidates(query_name, "person", "p")
        for name, estimate in zip(names.tolist(), estimates.tolist()):
            assert estimate == pytest.approx(index._compare(query_name, name, "person").score, abs=1e-9), (query, listed[name])


def test_it_scores_each_match_as_the_entity_scorer_does_when_names_share_parts(un_persons, un_index):
    # A search remembers each list part's similarity to the query parts across the names
    # it compares; every match must still be the one `score_pair` gives the entity alone.
    from service.screening.matching import score_pair

    rng = random.Random(11)
    by_id = {person.id: person for person in un_persons}
    sample = rng.sample([p for p in un_persons if len(p.names[0].name.split()) >= 2], 40)
    queries = [query for person in sample for query in variants(person.names[0].name, rng)]
    queries += ["Mohammed Ali", "Abdul Rahman Al", "Kim Chol", "Ali Hassan Mohammad"]
    compared = 0
    for text in queries:
        for match in un_index.search(PersonQuery(text), threshold=0.6):
            alone = score_pair(PersonQuery(text), by_id[match.entity_id])
            assert (match.score, match.explanation) == (alone.score, alone.explanation), text
            compared += 1
    assert compared > 100


def test_it_gathers_a_rare_part_name_only_when_it_could_match_another_query_part():
    # "Ivan Putin" shares one part with "Vladimir Putin" and has a conflicting other part:
    # it can not reach the threshold, so the blocking does not even estimate it. Names with
    # a spelling of Vladimir, a V. or only one full part still come in.
    from service.screening.matching.normalize import normalize_name

    listed = ["Vladimir Putin", "Wladimir Putin", "V. Putin", "Putin", "Ivan Putin", "Sergei Putin", "Vladimir Petrov"]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    names, _ = index._blocker.candidates(normalize_name("Vladimir Putin"), "person", "p")
    assert {listed[name] for name in names.tolist()} == {
        "Vladimir Putin", "Wladimir Putin", "V. Putin", "Putin", "Vladimir Petrov"
    }
    # What is left out never scores: every name at the threshold is still found.
    query = PersonQuery("Vladimir Putin")
    expected = {f"e{n}" for n in range(len(listed)) if index.score_listed_name(query, n).score >= DEFAULT_THRESHOLD}
    assert {match.entity_id for match in index.search(query)} == expected
    assert "e4" not in expected and "e5" not in expected


def test_it_remembers_each_query_parts_probe_within_a_bound(monkeypatch):
    # A search keeps the spellings found for each query part; the cache is emptied when full,
    # and a probe found again is the one found first.
    from service.screening.matching import blocking

    monkeypatch.setattr(blocking, "PROBE_CACHE_SIZE", 3)
    listed = ["Vladimir Putin", "Wladimir Putin", "Ivan Sidorov", "Iwan Sidorow"]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    queries = ["Vladimir Putin", "Ivan Sidorov", "Vladimirputin", "Vladimir Putin", "Iwan Sidorow", "Ivan Sidorov"]
    first = [[(m.entity_id, m.score) for m in index.search(PersonQuery(query))] for query in queries]
    assert len(index._blocker._probe_cache) <= 3
    fresh = [[(m.entity_id, m.score) for m in MatchIndex.build(
        [ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)]
    ).search(PersonQuery(query))] for query in queries]
    assert first == fresh
    assert "e0" in {entity for entity, _ in first[2]}  # "Vladimirputin": two known parts written as one


def test_it_gives_a_listed_part_the_spellings_a_fresh_lookup_finds(un_persons, un_index):
    # Every full name part on the list had its spellings looked up when the index was made;
    # a query part found on the list gets those instead of a lookup of its own.
    vocabulary = un_index._vocabulary
    named = [(key, number) for key, number in vocabulary._part_numbers.items()
             if vocabulary.parts[number].role == "name"]
    assert len(named) > 2_000
    for key, number in named:
        token = vocabulary.parts[number]
        parts, values = vocabulary.similar(key[0], token)
        looked_up, looked_up_values = vocabulary.look_up(key[0], token)
        assert parts.tolist() == looked_up.tolist(), token.text
        assert values.tolist() == looked_up_values.tolist(), token.text
        assert number in parts.tolist()


def test_it_looks_up_a_query_part_that_has_a_listed_key_but_other_features():
    # "hanyh" written in Arabic letters and in Latin ones has one key, but across scripts
    # the consonants count (Haniyeh: 0.85 as a skeleton match, 0.71 as a typo of the Latin).
    from service.screening.matching.normalize import normalize

    index = MatchIndex.build([ListEntity("e1", "Person", [ListName("Hanyh Nouri")]),
                              ListEntity("e2", "Person", [ListName("Haniyeh Nouri")])])
    vocabulary = index._vocabulary
    [arabic, _] = normalize("هانيه نوری", "person").tokens
    listed = vocabulary.parts[vocabulary.exact("p", arabic)]
    assert listed.text == arabic.text and listed != arabic
    parts, values = vocabulary.similar("p", arabic)
    assert [vocabulary.parts[part].text for part in parts.tolist()] == ["hanyh", "haniyeh"]
    assert values.tolist() == [1.0, 0.85]
    assert index.search(PersonQuery("هانيه نوری"))[1].explanation.aligned[0].reason == "script"


COMMON_NAMES = [
    "Maria Garcia", "Marja Garcia", "Maria Lopez Garcia", "Maria Lopez", "Garcia", "Maria", "M. Garcia",
    "Jose Garcia", "Pedro Lopez", "Maria Jose Fernandez", "J. Garcia", "Juan Garcia", "Maria G. Lopez",
]


@pytest.mark.parametrize("query, expected", [
    # Both parts common: names with the two together (any spelling of one with the closest of
    # the other), with an initial for the other, or with no other full part (initials aside).
    # Not those with one of them and another full part: Maria Lopez, Jose Garcia.
    ("Maria Garcia", {"Maria Garcia", "Marja Garcia", "Maria Lopez Garcia", "M. Garcia", "Maria G. Lopez", "Garcia",
                      "Maria", "J. Garcia"}),
    # One common part and an initial: its names with a part or an initial of that letter, or
    # with no other full part.
    ("J. Garcia", {"Jose Garcia", "Juan Garcia", "J. Garcia", "Garcia", "M. Garcia"}),
])
def test_it_gathers_names_of_common_parts_through_pairs_initials_and_single_parts(monkeypatch, query, expected):
    # On a real list Maria and Garcia are in thousands of names; here every part in more
    # than two names counts as common, so this small list takes the same paths.
    from service.screening.matching import blocking
    from service.screening.matching.normalize import normalize_name

    monkeypatch.setattr(blocking, "COMMON_PART_NAMES", 2)
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(COMMON_NAMES)])
    query_name = normalize_name(query)
    names, estimates = index._blocker.candidates(query_name, "person", "p")
    assert sorted(COMMON_NAMES[name] for name in names.tolist()) == sorted(expected)
    for name, estimate in zip(names.tolist(), estimates.tolist()):
        assert estimate == pytest.approx(index._compare(query_name, name, "person").score, abs=1e-9), COMMON_NAMES[name]


def test_it_keeps_a_rare_part_name_whose_initial_stands_for_a_query_initial():
    listed = ["J. Garcia", "Juan Garcia", "Pedro Garcia"]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    assert {match.entity_id for match in index.search(PersonQuery("J. Garcia"))} == {"e0", "e1"}


def _scores_both_ways(index: MatchIndex, query: str, names: list[int], schema: str = "Person"):
    """The search's scores of `names` (one per text) and their alignments as the explanation shows
    them, beside the scorer's, as (score, (aligned parts, query parts left over, list parts left
    over)), and the texts the search compared in Python instead."""
    from service.screening.matching.normalize import name_kind, normalize_name
    from service.screening.matching.score import describe_alignment

    kind = name_kind(schema)
    query_name = normalize_name(query, schema)
    first_with_text: dict[str, int] = {}
    for name in names:
        first_with_text.setdefault(index._names.texts[name], name)
    scored = index._score_names(query_name, kind, first_with_text)
    in_python = set(first_with_text) - set(scored.positions)
    compiled, scorer = {}, {}
    for text, name in first_with_text.items():
        compiled[text] = (scored.scores[text], scored.described(text))
        comparison = index._compare(query_name, name, kind)
        scorer[text] = (comparison.score, describe_alignment(comparison))
    return compiled, scorer, in_python


def test_it_scores_shortlisted_names_in_one_compiled_pass_as_the_scorer_does():
    # Repeated parts, initials, particles and titles, a legal form on a person's name,
    # glued and split parts, the same letters split elsewhere, other scripts: each score
    # must be the scorer's to the last bit, whichever way the search reached it.
    listed = [
        "Sergey Sergey Shoigu", "Sergey Shoigu", "V. V. Putin", "Vladimir Vladimirovich Putin", "VladimirPutin",
        "Patr Ushev Nikolai", "Nikolai Patrushev", "Abu Bakr al-Baghdadi", "Dr. Ayman al-Zawahiri",
        "Nicolas Maduro Moros SA", "Kim Hong-sop", "Kim Hon-gsop", "习近平", "Владимир Путин",
        "Mohammed bin Salman Al Saud", "Hans Joachim Friedrich", "Hans Otto Friedrich", "J. Garcia",
        "Juan Jose Garcia", "Ole Ole Hansen",
    ]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    queries = [
        "Sergey Shoigu", "Sergey Sergey Shoigu", "Vladimir Putin", "V. Putin", "Vladimir Putn", "Putin Vladimir",
        "Nikolai Patrushev", "Abu Bakr Baghdadi", "Ayman Zawahiri", "Nicolas Maduro", "Kim Hon-gsop",
        "Hong-sop Kim", "习近平", "Xi Jinping", "Hans Friedrich", "Hans Joachim Otto Friedrich", "J. Garcia",
        "Juan Garcia", "Ole Hansen", "Hansen", "Mohammed Salman",
    ]
    in_python = compiled = 0
    for query in queries:
        scores, scorer, compared = _scores_both_ways(index, query, list(range(len(listed))))
        assert scores == scorer, query
        in_python += len(compared)
        compiled += len(scores) - len(compared)
    # Names with adjacent parts left over on both sides (which might be glued) go to Python.
    assert in_python and compiled > 40
    # The same letters split elsewhere, and a name with one part glued, reach the joined scores.
    scores, _, _ = _scores_both_ways(index, "Kim Hon-gsop", list(range(len(listed))))
    assert scores["Kim Hong-sop"][0] == 0.95
    # A query with a patronymic marker is compared in Python throughout.
    scores, scorer, compared = _scores_both_ways(index, "Mohammed bin Salman", list(range(len(listed))))
    assert scores == scorer and compared == set(scores)


def test_it_leaves_to_python_exactly_the_names_whose_parts_glue():
    # Parts left over on both sides whose lengths allow a glue are common; parts whose texts
    # glue are rare. Only those go to Python: split words, typos across the split, Han
    # syllables (equal or not at all), runs of up to four parts, in either direction.
    listed = [
        "Patr Ushev Nikolai", "Patr Uschev Nikolai", "Nikolai Patrushev", "Nikolai Petrov Ivanov", "Ab Del Karim",
        "Abdel Karim", "Abd El Ka Rim", "习 近平", "习近平", "Xi Jin Ping", "Kim Hong Sop Lee", "Maria Jose Lopez",
        "Mariajose Lopez", "Jose Maria Lopez", "Ole Gunnar Solskjaer", "Olegunnar Solskjar", "习 近 平",
    ]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    queries = [
        "Nikolai Patrushev", "Patr Ushev Nikolai", "Nikolai Patrushew", "Abdel Karim", "Ab Del Karim", "Abdelkarim",
        "Xi Jinping", "习近平", "Kim Hongsop Lee", "Mariajose Lopez", "Maria Jose Lopez", "Ole Gunnar Solskjaer",
        "Olegunnar Solskjaer", "Nikolai Petrovivanov", "Hong Sop Kim", "Xijinpin", "Xijinping",
    ]
    glued_in_python = 0
    for query in queries:
        scores, scorer, in_python = _scores_both_ways(index, query, list(range(len(listed))))
        assert scores == scorer, query
        glued = {text for text, (_, (aligned, _, _)) in scorer.items()
                 if any(part.reason == "joined" for part in aligned)}
        assert in_python == glued, query
        glued_in_python += len(glued)
    assert glued_in_python >= 10


def test_it_compares_names_joined_without_python_as_the_scorer_does():
    # Names split into other parts than the query's are compared by their letters joined:
    # equal (0.95) or, from nine letters, one edit apart (0.9). ASCII names by their letters,
    # Cyrillic ones by their parts' texts, compiled; Han ones in Python (forms, not texts).
    listed = ["Nikolai Patrushev", "Николай Патрушев", "Nikolai Platonovich Patrushev",
              "Николай Платонович Патрушев", "Kim Hon-gsop", "习 近平", "Xi Jin Ping"]
    index = MatchIndex.build([ListEntity(f"e{n}", "Person", [ListName(name)]) for n, name in enumerate(listed)])
    expected = {
        ("Ni Kolaipat Rushev", "Nikolai Patrushev"): 0.95,
        ("Ni Kolaipat Rushev", "Николай Патрушев"): 0.95,
        ("Nik Olaiplatonovichpatrushew", "Nikolai Platonovich Patrushev"): 0.9,
        ("Nik Olaiplatonovichpatrushew", "Николай Платонович Патрушев"): 0.9,
        ("Kim Hong-sop", "Kim Hon-gsop"): 0.95,
    }
    for query in {query for query, _ in expected} | {"Xijinping", "习近平"}:
        scores, scorer, in_python = _scores_both_ways(index, query, list(range(len(listed))))
        assert scores == scorer, query
        for text, (score, *_) in scores.items():
            if (query, text) in expected:
                assert score == expected[query, text] and text not in in_python, (query, text)


def test_it_scores_the_candidates_of_real_queries_as_the_scorer_does(un_persons, un_index):
    rng = random.Random(13)
    sample = rng.sample([p for p in un_persons if len(p.names[0].name.split()) >= 2], 40)
    queries = [query for person in sample for query in variants(person.names[0].name, rng)]
    from service.screening.matching.normalize import normalize_name

    checked = 0
    for query in queries:
        names, estimates = un_index._blocker.candidates(normalize_name(query), "person", "p")
        best = names[(-estimates).argsort(kind="stable")[:60]].tolist()
        scores, scorer, _ = _scores_both_ways(un_index, query, best)
        assert scores == scorer, query
        checked += len(scores)
    assert checked > 1000


def test_it_leaves_out_only_candidates_estimated_below_the_floor(un_persons, un_index):
    # With rare full parts and nothing else, the one with the most postings leaves out new
    # names it alone would bring and that it alone estimates below the floor. Whatever it
    # leaves out must be below the floor when nothing is left out, and everything else the same.
    from service.screening.matching.normalize import normalize_name

    rng = random.Random(29)
    sample = rng.sample([p for p in un_persons if len(p.names[0].name.split()) in (2, 3)], 120)
    queries = [query for person in sample for query in variants(person.names[0].name, rng)]
    left_out = 0
    for query in queries:
        query_name = normalize_name(query)
        all_names, all_estimates = un_index._blocker.candidates(query_name, "person", "p")
        names, estimates = un_index._blocker.candidates(query_name, "person", "p", floor=LONG_SHOT_FLOOR)
        kept = dict(zip(names.tolist(), estimates.tolist()))
        everything = dict(zip(all_names.tolist(), all_estimates.tolist()))
        assert kept.items() <= everything.items(), query
        assert all(estimate < LONG_SHOT_FLOOR for name, estimate in everything.items() if name not in kept), query
        left_out += len(everything) - len(kept)
    assert left_out > 100  # the rule is exercised, not only allowed


@pytest.mark.parametrize(
    "query",
    [PersonQuery("Ole Hansen"), PersonQuery("Ole Hansen", birth_date="1961"), PersonQuery("Ola Hansen")],
)
def test_it_keeps_a_match_scoring_exactly_the_threshold(query):
    index = MatchIndex.build(NORWEGIANS)
    [best, *_] = index.search(query, threshold=0.01)  # 1.0, 1.0 - 0.1 (a year off) and 0.3333

    at_threshold = index.search(query, threshold=best.score)

    assert best.entity_id in {match.entity_id for match in at_threshold}
    assert best.entity_id not in {match.entity_id for match in index.search(query, threshold=best.score + 0.001)}  # scores are rounded to 4 places


def test_it_does_not_report_a_common_name_born_years_before_the_listed_date():
    index = MatchIndex.build(NORWEGIANS)
    assert index.search(PersonQuery("Ole Hansen", birth_date="1940-03-02")) == []
    assert found(index, PersonQuery("Ole Hansen", birth_date="1961"), "pep-1")  # one year before: tolerated
