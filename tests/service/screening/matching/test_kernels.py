"""The compiled kernels agree with the plain definitions of the rules (`oracle`).

Typo finding rests on one promise: any two spellings the scorer accepts as typos of
each other (within the budget of `oracle.edit_similarity`) and at most two edits apart
share a deletion key. (Parts of ten letters or more may be three edits apart; those
the search reaches as long shots, see `MatchIndex._shortlist`.)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from service.screening.matching import kernels
from service.screening.matching.vocabulary import code_points

from .oracle import edit_similarity, token_similarity

LETTERS = "abdeilmnorsu"  # few letters, so that random spellings often come close
words = st.text(alphabet=LETTERS, min_size=1, max_size=12)


def _edited(word: str, edits: list[tuple[int, int, str]]) -> str:
    for kind, at, letter in edits:
        at = at % (len(word) + 1)
        if kind == 0:
            word = word[:at] + letter + word[at:]
        elif kind == 1 and at < len(word):
            word = word[:at] + word[at + 1:]
        elif kind == 2 and at < len(word):
            word = word[:at] + letter + word[at + 1:]
        elif kind == 3 and at + 1 < len(word):
            word = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    return word


edits = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 20), st.sampled_from(LETTERS)), max_size=3)


@settings(max_examples=400, deadline=None)
@given(words, words, st.integers(0, 4))
def test_it_measures_osa_distance_as_rapidfuzz_does(a, b, cutoff):
    rows = np.empty((3, 4), dtype=np.int32)  # too small on purpose: the kernel must make its own
    expected = OSA.distance(a, b)
    got = kernels.spelling.osa_distance(code_points(a), code_points(b), cutoff, rows)
    assert got == (expected if expected <= cutoff else cutoff + 1)


@settings(max_examples=600, deadline=None)
@given(words, st.one_of(words, st.builds(_edited, words, edits)), st.integers(0, 4))
def test_it_measures_osa_distance_bit_parallel_as_rapidfuzz_does(a, b, cutoff):
    chars, masks = kernels.spelling.osa_pattern(code_points(a))
    expected = OSA.distance(a, b)
    assert kernels.spelling.osa_distance_bits(chars, masks, len(a), code_points(b), cutoff) == min(expected, cutoff + 1)


def test_it_measures_osa_distance_bit_parallel_on_64_characters_and_other_scripts():
    a = "abcdefghijklmnopqrstuvwxyz" * 2 + "áé中文ÆØÅ…xyzw"
    assert len(a) == 64
    for b in (a, a[1:], a[:-1] + "z", a[:10] + a[11] + a[10] + a[12:], "владимир", ""):
        chars, masks = kernels.spelling.osa_pattern(code_points(a))
        assert kernels.spelling.osa_distance_bits(chars, masks, len(a), code_points(b), 100) == OSA.distance(a, b)
    chars, masks = kernels.spelling.osa_pattern(code_points("владимир"))
    assert kernels.spelling.osa_distance_bits(chars, masks, 8, code_points("вальдимир"), 3) == OSA.distance("владимир", "вальдимир")


@settings(max_examples=400, deadline=None)
@given(words, edits)
def test_it_gives_the_typo_similarity_the_scorer_gives(word, changes):
    other = _edited(word, changes)
    rows = np.empty((3, 64), dtype=np.int32)
    # int64 code points, as the glued parts' test passes them: the engine's one compiled copy.
    codes, other_codes = code_points(word).astype(np.int64), code_points(other).astype(np.int64)
    assert kernels.spelling.edit_similarity(codes, other_codes, rows) == edit_similarity(word, other)
    chars, masks = kernels.spelling.osa_pattern(code_points(word))  # the lookups' bit-parallel path
    assert kernels.spelling.typo_similarity(code_points(word), code_points(other), chars, masks, rows) == edit_similarity(word, other)



def test_it_keeps_short_ascii_parts_in_slots_and_marks_the_others():
    texts = ["putin", "a" * 15, "a" * 16, "владимир", ""]
    codes = np.concatenate([code_points(text) for text in texts])
    offsets = np.cumsum([0] + [len(text) for text in texts]).astype(np.int64)
    table = kernels.packing.short_text_table(codes, offsets, np.array([False, False, False, True, False]))
    assert bytes(table[0, 1:1 + table[0, 0]]) == b"putin"
    assert table[1, 0] == 15 and bytes(table[1, 1:]) == b"a" * 15
    assert table[2, 0] == kernels.packing.SHORT_LENGTH  # too long: read from the code points
    assert table[3, 0] == kernels.packing.SHORT_LENGTH | kernels.packing.SHORT_ABJAD  # not ASCII
    assert table[4, 0] == 0


def test_it_finds_spellings_with_the_similarity_the_scorer_gives_short_long_or_abjad():
    from service.screening.matching.normalize import normalize
    from service.screening.matching.vocabulary import VocabularyBuilder

    listed = ["Mohammed", "Muhammad", "Mohamad", "Abdulrahmanovichev", "Abdulrahmanowichev", "محمد", "Mohamedou"]
    builder = VocabularyBuilder()
    for text in listed:
        for token in normalize(text, "person").tokens:
            builder.number("p", token)
    vocabulary = builder.finish()
    for query, at_least in [("Mohamed", 4), ("Abdulrahmanovichef", 2), ("محمد", 2)]:
        [token] = normalize(query, "person").tokens
        parts, values = vocabulary.similar("p", token)
        assert len(parts) >= at_least, query
        for part, value in zip(parts.tolist(), values.tolist()):
            assert value == token_similarity(token, vocabulary.parts[part])[0], (query, vocabulary.parts[part].text)

@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=LETTERS, min_size=4, max_size=12), edits)
def test_it_gives_every_accepted_typo_a_shared_deletion_key(listed, changes):
    query = _edited(listed, changes)
    if len(query) < 4 or edit_similarity(query, listed) == 0.0 or OSA.distance(query, listed) > 2:
        return  # the scorer would not call these typos of each other, or they are three edits apart
    shared = np.intersect1d(
        kernels.spelling.query_deletion_hashes(ord("p"), code_points(query)),
        kernels.spelling.listed_deletion_hashes(ord("p"), code_points(listed)),
    )
    assert len(shared), f"{query!r} and {listed!r} share no deletion key"


def test_it_keeps_keys_of_other_kinds_of_name_apart():
    person = kernels.spelling.listed_deletion_hashes(ord("p"), code_points("petrov"))
    organisation = kernels.spelling.query_deletion_hashes(ord("o"), code_points("petrov"))
    assert not len(np.intersect1d(person, organisation))


def test_it_does_not_let_a_short_key_meet_every_long_part():
    # "maria" minus two letters is "mar"; "mark" minus one letter is "mar" too, but a
    # four-letter part may differ by one edit only, so the two must not meet.
    assert not len(np.intersect1d(
        kernels.spelling.query_deletion_hashes(ord("p"), code_points("maria")),
        kernels.spelling.listed_deletion_hashes(ord("p"), code_points("mark")),
    ))


def test_it_finds_sorted_hashes_through_their_buckets():
    rng = np.random.default_rng(7)
    hashes = np.sort(rng.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64) * np.uint64(2))
    hashes = np.sort(np.concatenate([hashes, hashes[:10]]))  # some repeated keys
    buckets = kernels.hashes.hash_buckets(hashes)
    shift = np.uint64(kernels.hashes.bucket_shift(buckets))  # back in Python an int: uint64, as the kernels pass it
    for key in list(hashes[::97]) + [np.uint64(1), np.uint64(2**64 - 1)]:
        first, end = kernels.hashes.hashed_range(hashes, buckets, shift, np.uint64(key))
        assert (first, end) == (np.searchsorted(hashes, key, "left"), np.searchsorted(hashes, key, "right"))


def test_it_finds_many_keys_at_once_as_one_by_one():
    rng = np.random.default_rng(11)
    hashes = np.sort(rng.integers(0, 2**63, 5000, dtype=np.int64).astype(np.uint64) * np.uint64(2))
    hashes = np.sort(np.concatenate([hashes, hashes[:10], hashes[:3]]))  # keys held two and three times
    buckets = kernels.hashes.hash_buckets(hashes)
    keys = np.concatenate([hashes[::41], hashes[:3], [np.uint64(1), np.uint64(2**64 - 1)]]).astype(np.uint64)
    firsts, ends = kernels.hashes.hashed_ranges(hashes, buckets, keys)
    assert firsts.tolist() == np.searchsorted(hashes, keys, "left").tolist()
    assert ends.tolist() == np.searchsorted(hashes, keys, "right").tolist()
    assert (ends - firsts)[-5:].tolist() == [3, 3, 3, 0, 0]  # repeated keys; odd keys are absent


# The index build derives each name's shapes and pair keys from its part numbers in one
# compiled pass; this is the token-by-token definition it replaced.
LAYOUT_NAMES = [
    ("Person", "Vladimir Vladimirovich Putin"), ("Person", "V. V. Putin"), ("Person", "J. Garcia"),
    ("Person", "Juan Jose Garcia"), ("Person", "Sergey Sergey Shoigu"), ("Person", "Abu Bakr al-Baghdadi"),
    ("Person", "Dr. Ayman al-Zawahiri"), ("Person", "Mohammed bin Salman"), ("Person", "Putin"),
    ("Person", "习近平"), ("Person", "Владимир Путин"), ("Person", "A. B. C."), ("Person", "Hans Otto Friedrich"),
    ("Organization", "Rosneft Oil Company"), ("Organization", "Fund IV Holding AG"), ("Person", "Ole Ole"),
]


def _expected_layout(names):
    from service.screening.matching.blocking import initial_code, letter_code, pair_code
    from service.screening.matching.normalize import INITIAL, NAME, PARTICLE, TITLE

    def letters(tokens, role):
        return sum({1 << (ord(t.text[0]) - 97) for t in tokens if t.role == role and "a" <= t.text[0] <= "z"})

    rows, singles, codes = [], [], set()
    for name, (tokens, parts) in enumerate(names):
        full = list(dict.fromkeys(p for t, p in zip(tokens, parts) if t.role == NAME))
        seen = repeated = 0
        for t in tokens:
            if t.role == NAME and "a" <= t.text[0] <= "z":
                bit = 1 << (ord(t.text[0]) - 97)
                repeated |= seen & bit
                seen |= bit
        rows.append((
            np.float32(sum(t.weight for t in tokens)),
            np.float32(sum(t.weight for t in tokens if t.role not in (PARTICLE, TITLE))),
            len(full), letters(tokens, NAME), repeated, letters(tokens, INITIAL),
        ))
        if len(full) == 1:
            singles.append((full[0], name))
        initials = {ord(t.text) - 97 for t in tokens if t.role == INITIAL and "a" <= t.text <= "z"}
        codes.update((pair_code(a, b), name) for i, a in enumerate(full) for b in full[i + 1:])
        codes.update(((p << 32) | initial_code(letter), name) for letter in initials for p in full)
        if len(full) > 1 or initials:
            firsts = {p: ord(tokens[parts.index(p)].text[0]) - 97 for p in full}
            for p in full:
                others = set(initials) | {f for q, f in firsts.items() if q != p and 0 <= f < 26}
                codes.update(((p << 32) | letter_code(letter), name) for letter in others)
    return rows, singles, codes


def test_it_lays_out_names_as_the_token_by_token_definition_does():
    from service.screening.matching.blocking import INITIAL_CODES, LETTER_CODES, ROLE_CODES
    from service.screening.matching.normalize import normalize
    from service.screening.matching.vocabulary import VocabularyBuilder

    vocabulary = VocabularyBuilder()
    names = []
    for schema, text in LAYOUT_NAMES:
        tokens = normalize(text, "person" if schema == "Person" else "organization").tokens
        names.append((tokens, [vocabulary.number(schema[0].lower(), token) for token in tokens]))
    parts = vocabulary.parts
    start = np.cumsum([0] + [len(p) for _, p in names]).astype(np.int64)
    layout = kernels.packing.name_layout(
        start, np.array([p for _, ps in names for p in ps], dtype=np.int32),
        np.array([ROLE_CODES.get(t.role, kernels.packing.ROLE_OTHER) for t in parts], dtype=np.int8),
        np.array([t.weight for t in parts], dtype=np.float64),
        np.array([ord(t.text[0]) - 97 if "a" <= t.text[0] <= "z" else -1 for t in parts], dtype=np.int8),
        INITIAL_CODES, LETTER_CODES,
    )
    rows, singles, codes = _expected_layout(names)
    assert list(zip(*[array.tolist() for array in layout[:6]])) == [tuple(float(v) if i < 2 else v for i, v in enumerate(row)) for row in rows]
    assert list(zip(layout[6].tolist(), layout[7].tolist())) == singles
    got = list(zip(layout[8].tolist(), layout[9].tolist()))
    assert len(got) == len(set(got)) and set(got) == codes
    assert any(code & 0xFFFFFFFF >= LETTER_CODES for code, _ in got)  # "J. Garcia" got its letter keys



def test_it_packs_each_name_into_one_record_of_its_layout():
    from service.screening.matching.blocking import INITIAL_CODES, LETTER_CODES, ROLE_CODES
    from service.screening.matching.normalize import normalize
    from service.screening.matching.vocabulary import VocabularyBuilder

    vocabulary = VocabularyBuilder()
    numbers = [[vocabulary.number("p", token) for token in normalize(text, "person").tokens]
               for schema, text in LAYOUT_NAMES if schema == "Person"]
    parts = vocabulary.parts
    start = np.cumsum([0] + [len(p) for p in numbers]).astype(np.int64)
    layout = kernels.packing.name_layout(
        start, np.array([p for ps in numbers for p in ps], dtype=np.int32),
        np.array([ROLE_CODES.get(t.role, kernels.packing.ROLE_OTHER) for t in parts], dtype=np.int8),
        np.array([t.weight for t in parts], dtype=np.float64),
        np.array([ord(t.text[0]) - 97 if "a" <= t.text[0] <= "z" else -1 for t in parts], dtype=np.int8),
        INITIAL_CODES, LETTER_CODES,
    )
    weight, contradicting, count, letters, repeated, initials = layout[:6]
    records = kernels.packing.name_records(start, *layout[:6])
    assert records.dtype.itemsize == 32
    for field, expected in [("weight", weight), ("contradicting_weight", contradicting), ("part_count", count),
                            ("repeated_letters", repeated), ("first_part", start[:-1]), ("length", np.diff(start)),
                            ("name", np.arange(len(numbers)))]:
        assert records[field].tolist() == expected.tolist(), field
    assert (records["letters"] & np.uint64(0xFFFFFFFF)).tolist() == letters.tolist()
    assert (records["letters"] >> np.uint64(32)).tolist() == initials.tolist()


def test_it_refuses_a_name_too_long_for_its_record():
    start = np.array([0, 70_000], dtype=np.int64)
    one = np.zeros(1)
    with pytest.raises(ValueError, match="65,535"):
        kernels.packing.name_records(start, one, one, one.astype(np.int16), *(one.astype(np.uint32),) * 3)

def _plain_shortlist(names, estimates, entity, threshold, wanted, long_shots, margin, floor):
    """The shortlist's definition: names by estimate (ties by name number), the first 4 x wanted;
    each entity's best name within the margin (up to wanted - long_shots), its runner-up
    within the margin, and the best names of up to long_shots entities below it."""
    order = sorted((i for i in range(len(names)) if estimates[i] >= floor), key=lambda i: (-estimates[i], names[i]))
    order = order[:4 * wanted]
    firsts, seen = [], set()
    for i in order:
        firsts.append(entity[names[i]] not in seen)
        seen.add(entity[names[i]])
    chosen = [i for i, first in zip(order, firsts) if first and estimates[i] >= threshold - margin][:wanted - long_shots]
    shots = [i for i, first in zip(order, firsts) if first and estimates[i] < threshold - margin][:long_shots]
    chosen_entities = {entity[names[i]] for i in chosen}
    runners, taken = [], set()
    for i, first in zip(order, firsts):
        e = entity[names[i]]
        if not first and estimates[i] >= threshold - margin and e in chosen_entities and e not in taken:
            runners.append(i)
            taken.add(e)
    return [int(names[i]) for i in chosen + runners + shots]


ESTIMATES = st.sampled_from([0.2, 0.3, 0.35, 0.5, 0.55, 0.6, 0.75, 0.9, 1.0])  # few values: many ties


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 40).flatmap(lambda entities: st.lists(st.tuples(st.integers(0, entities), ESTIMATES), max_size=300)),
       st.integers(1, 12), st.integers(0, 3), st.randoms(use_true_random=False))
def test_it_shortlists_as_the_plain_definition_does(rows, wanted, long_shots, rng):
    # Name numbers are distinct and arrive unordered, as the candidate table gives them.
    numbers = rng.sample(range(1000), len(rows))
    names = np.array(numbers, dtype=np.int32)
    estimates = np.array([value for _, value in rows], dtype=np.float64)
    entity = np.zeros(1000, dtype=np.int32)
    for number, (owner, _) in zip(numbers, rows):
        entity[number] = owner
    wanted = max(wanted, long_shots + 1)
    got = kernels.shortlist.shortlist(names, estimates, entity, 0.75, wanted, long_shots, 0.2, 0.3).tolist()
    assert got == _plain_shortlist(names, estimates, entity, 0.75, wanted, long_shots, 0.2, 0.3)


def test_it_rules_out_glued_parts_by_the_scorers_own_limits():
    # The compiled scorer tries to glue parts only when a left-over part could equal adjacent
    # left-over parts glued together: within the typo budget of the longest parts.
    long = "abcdefghijkl"
    assert edit_similarity(long, long + "mno") > 0  # three typos apart: similar
    assert edit_similarity(long, long + "mnop") == 0  # four: never
    assert kernels.alignment.LARGEST_TYPO_BUDGET == 3


def test_it_gives_every_part_pair_the_similarity_and_reason_the_scorer_gives(un_persons):
    """`kernels.similarity.similarity_matrix` against `oracle.token_similarity`, on the name_bench pairs
    (many scripts, initials, numbers, particles, Han and Hangul) and UN names, with list parts
    that do not fit the kernel's table: long or non-ASCII texts, many symbols."""
    import csv
    import random
    from collections import Counter

    from service.screening.matching.normalize import normalize
    from service.screening.matching.vocabulary import VocabularyBuilder

    from .conftest import shared_data

    rows = list(csv.DictReader(open(shared_data("matching/name_bench_cases.csv"), encoding="utf-8")))
    pairs = [(row["name1"], row["name2"]) for row in rows if row["schema"] == "Person"]
    listed_names = [name2 for _, name2 in pairs] + [name.name for entity in un_persons[:400] for name in entity.names]
    listed_names += ["Abdulrahmanovichevskiyev Abdulrahmanovichevskaya", "ព្រះបាទ", "Muhammad Mohammed Mahmoud"]
    builder = VocabularyBuilder()
    listed_tokens = []
    for text in listed_names:
        tokens = normalize(text, "person").tokens
        listed_tokens.append([builder.number("p", token) for token in tokens])
    vocabulary = builder.finish()
    rng = random.Random(5)
    reasons, fallbacks = Counter(), Counter()
    queries = [name1 for name1, _ in pairs] + ["Abdulrahmanovichevskiyew", "V Putin", "ព្រះបាទ", "Mohamad 2"]
    for position, query in enumerate(queries):
        query_tokens = normalize(query, "person").tokens
        if not query_tokens:
            continue
        own = listed_tokens[position] if position < len(pairs) else []
        parts = sorted(set(own + rng.sample(range(len(vocabulary)), 40)))
        values, codes = vocabulary.similarity_matrix(vocabulary.query_parts(query_tokens), len(query_tokens),
                                                     np.array(parts, dtype=np.int64))
        for row, part in enumerate(parts):
            token = vocabulary.parts[part]
            fallbacks["long text"] += len(token.text) > 15 or not token.text.isascii()
            fallbacks["many symbols"] += len(token.symbols) > kernels.packing.INLINE_SYMBOLS
            for column, query_token in enumerate(query_tokens):
                got = (values[row, column], kernels.similarity.REASONS[codes[row, column]])
                assert got == token_similarity(query_token, token), (query_token.text, token.text)
                reasons[got[1]] += 1
    assert set(reasons) == set(kernels.similarity.REASONS), reasons  # every branch of the scorer was taken
    assert fallbacks["long text"] and fallbacks["many symbols"], fallbacks


def test_it_reads_shortlisted_names_as_the_index_arrays_give_them():
    from service.screening.matching.packed import PackedStringsBuilder

    texts = ["Vladimir Putin", "", "Владимир Путин", "习近平", "O'Brien, John"]
    builder = PackedStringsBuilder()
    for text in texts:
        builder.append(text)
    packed = builder.finish()
    entity = np.array([7, 3, 7, 0, 12], dtype=np.int32)
    weak = np.array([False, True, False, True, False])
    names = np.array([2, 0, 4, 1, 3, 2], dtype=np.int32)  # unordered, one twice
    rows, text_bytes = kernels.shortlist.shortlisted_names(names, entity, weak, *packed.arrays())
    ends = [0] + [end for _, _, end in rows.tolist()]
    got = [(e, bool(w), text_bytes.tobytes()[start:end].decode())
           for (e, w, _), start, end in zip(rows.tolist(), ends, ends[1:])]
    assert got == [(int(entity[n]), bool(weak[n]), packed[n]) for n in names.tolist()]
