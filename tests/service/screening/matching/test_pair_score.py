"""One name against another, compiled: `score.name_score` (`kernels.scoring.pair_score`) and
`score.compare_names` (`kernels.scoring.pair_alignment`) give exactly the oracle's score and
alignment (`oracle.compare_names`, the rules in plain Python)."""

from __future__ import annotations

import csv
import pickle
import random
from collections import Counter

import pytest

from service.screening.matching import kernels, pair
from service.screening.matching.normalize import normalize, normalize_name, split_alternatives
from service.screening.matching.score import DEFAULT_PAIR_RULES, PAIR_RULES, compare_names, name_score

from . import oracle
from .conftest import shared_data


def _kernel_need(query, listed) -> int:
    """Which way out of the alignment the pair kernel took (SCORE_*)."""
    query_packed, listed_packed = pair.pair_packings(query, listed)
    return kernels.scoring.pair_score(
        query_packed.parts, query_packed.weights, query_packed.joined, listed_packed.parts, listed_packed.weights,
        listed_packed.joined, *PAIR_RULES.get(query.kind, DEFAULT_PAIR_RULES),
    )[1]


def _bench_and_un_pairs(un_persons) -> list[tuple[str, str, str]]:
    """The name_bench pairs both ways (many scripts, companies, initials, glued and split
    words, Han and Hangul), each UN person's name against its aliases, and against other UN names."""
    rows = list(csv.DictReader(open(shared_data("matching/name_bench_cases.csv"), encoding="utf-8")))
    pairs = []
    for row in rows:
        for a in split_alternatives(row["name1"], row["schema"]):
            for b in split_alternatives(row["name2"], row["schema"]):
                pairs += [(a, b, row["schema"]), (b, a, row["schema"])]
    rng = random.Random(7)
    names = [name.name for entity in un_persons for name in entity.names]
    for entity in un_persons[:300]:
        first = entity.names[0].name
        pairs += [(first, alias.name, "Person") for alias in entity.names[1:]]
        pairs += [(first, other, "Person") for other in rng.sample(names, 3)]
    return pairs


def test_it_scores_and_aligns_every_pair_exactly_as_the_oracle_does(un_persons):
    needs, reasons = Counter(), Counter()
    for query_text, listed_text, schema in _bench_and_un_pairs(un_persons):
        query, listed = normalize_name(query_text, schema), normalize_name(listed_text, schema)
        expected = oracle.compare_names(query, listed)
        got = compare_names(query, listed)
        assert (got.score, got.alignment) == (expected.score, expected.alignment), (query_text, listed_text)
        assert name_score(query, listed) == expected.score, (query_text, listed_text)
        needs[_kernel_need(query, listed)] += 1
        reasons.update(pair.reason for pair in expected.alignment.pairs)
    # Every way out of the kernel was taken (done, both joined-letter checks), and every kind of pair.
    assert set(needs) == {kernels.alignment.SCORE_DONE, kernels.alignment.SCORE_JOINED_OTHER_COUNT,
                          kernels.alignment.SCORE_JOINED_SAME_COUNT}, needs
    assert set(reasons) == set(kernels.similarity.REASONS[1:]) | {"joined"}, reasons


@pytest.mark.parametrize(
    ("query", "listed", "schema"),
    [
        ("Osama bin Laden", "Usama bin Ladin", "Person"),  # fathers' names on both sides
        ("Mohammed bin Salman", "Salman Mohammed", "Person"),  # a father's name on one side only
        # a father's name against a person's own
        ("Abdullah bin Mohammed bin Salem", "Mohammed bin Abdullah bin Salem", "Person"),
        ("Nikolai Patr ushev", "Nikolai Platonovich Patrushev", "Person"),  # glued parts
        ("VladimirPutin", "Vladimir Putin", "Person"),  # joined letters, other part counts
        ("Hon-gsop Kim", "Hong-sop Kim", "Person"),  # the same letters split elsewhere
        ("高市早苗", "高石早苗", "Person"),  # one Han character apart: other names
        ("Siemens AG", "Siemens Aktiengesellschaft", "Company"),  # organisation penalties
        ("Fund IV", "Fund 4", "Company"),  # numbers are never typos
        ("V. Putin", "Vladimir Putin", "Person"),  # an initial
        ("Sergey Sergey Shoigu", "Sergey Shoigu", "Person"),  # a repeated part adds nothing
        ("Sergey Shoigu", "Sergey Kuzhugetovich Sergey Shoigu", "Person"),
        ("Владимир Путин", "Vladimir Putin", "Person"),
        ("", "Vladimir Putin", "Person"),  # no parts
    ],
)
def test_it_gives_the_oracles_score_and_alignment_for_each_kind_of_pair(query, listed, schema):
    query_name, listed_name = normalize_name(query, schema), normalize_name(listed, schema)
    expected = oracle.compare_names(query_name, listed_name)
    got = compare_names(query_name, listed_name)
    assert (got.score, got.alignment) == (expected.score, expected.alignment)
    assert name_score(query_name, listed_name) == expected.score


def test_it_packs_a_name_once():
    name = normalize("Sergei Viktorovich Lavrov", "person")  # not packed before
    first = pair.packed(name)
    assert pair.pair_packings(name, normalize_name("Sergey Lavrov"))[0] is first
    assert pair.packed(name) is first


def test_it_packs_names_again_when_the_number_table_starts_again(monkeypatch):
    """A name packed before the table of numbers started again holds numbers that may now
    mean other strings: it must be packed again, not compared with stale numbers."""
    query = normalize_name("Mohammed Abdallah")
    listed = normalize_name("Muhammad Abdullah")  # variants: their symbol numbers must agree
    expected = oracle.compare_names(query, listed).score
    assert name_score(query, listed) == expected
    before = pair.packed(query).generation
    monkeypatch.setattr(pair, "MAX_NUMBERS", 1)
    pair.packed(normalize("Ivan Petrov", "person"))  # a name not packed yet: the table is full, it starts again
    assert pair._NUMBERS.generation > before
    assert name_score(query, listed) == expected
    assert pair.packed(query).generation == pair.packed(listed).generation == pair._NUMBERS.generation


def test_it_leaves_the_packing_out_of_pickles():
    name = normalize_name("Vladimir Vladimirovich Putin")
    pair.packed(name)
    copy = pickle.loads(pickle.dumps(name))
    assert copy._packed is None
    assert [token.text for token in copy.tokens] == [token.text for token in name.tokens]
    assert name_score(copy, normalize_name("Vladimir Putin")) == name_score(name, normalize_name("Vladimir Putin"))
