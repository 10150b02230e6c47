"""The engine's inner loops, compiled with numba: they run once per query part or query.

Python code decides what to look up and explains the results; these functions do
the counting over index arrays that would otherwise be dozens of small numpy calls
per query (or a Python loop over thousands of candidates). Each mirrors a plain
Python definition elsewhere, named in its docstring, and the tests compare them.

Compiled on first use and cached beside the source (`cache=True`), so a worker
pays the compile time once per install, not once per process.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

PAIR_MIX = np.uint64(0x9E3779B97F4A7C15)
FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)
DELETION_MARK = 126  # "~", as in the former string keys "p~word"
MIN_FUZZY_KEY_LENGTH = 4  # deletions of shorter parts would meet half the list
MIN_DOUBLE_DELETION_LENGTH = 5  # shorter parts are not allowed two typos

# Probe roles, as the blocking kernel sees them.
ROLE_NAME = 0
ROLE_GLUED = 1
ROLE_INITIAL = 2
ROLE_UNCONTRADICTING = 3  # particles and titles
ROLE_OTHER = 4  # legal forms, generic words, numbers

@intrinsic
def prefetch(typingctx, array, index):
    """Ask the processor for the cache line of array[index] now (`llvm.prefetch`, read, keep in
    all levels), so that a loop's scattered reads wait together instead of one after another.
    Only a hint: it never faults and changes no result."""

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, view, [args[1]], wraparound=False)
        bytes_pointer = ir.IntType(8).as_pointer()
        hint = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [bytes_pointer, ir.IntType(32), ir.IntType(32), ir.IntType(32)]),
            "llvm.prefetch.p0",
        )
        read, keep, data = (ir.Constant(ir.IntType(32), value) for value in (0, 3, 1))
        builder.call(hint, [builder.bitcast(pointer, bytes_pointer), read, keep, data])
        return context.get_dummy_value()

    return types.void(array, index), codegen


# What the candidate kernel reads of a name, in one 32-byte record: a candidate costs one
# memory read instead of one per array (the kernel waits on memory, not on arithmetic).
# The blocker keeps a copy in the order of the part postings, which is why the record
# carries its own name number.
NAME_RECORD = np.dtype([
    ("letters", np.uint64),  # bit set of the first letters a-z of its full parts; above bit 32, of its initials
    ("weight", np.float32),  # sum of part weights
    ("contradicting_weight", np.float32),  # the same without particles and titles
    ("name", np.int32),  # its number
    ("repeated_letters", np.uint32),  # first letters that start two or more full name parts
    ("first_part", np.uint32),  # its parts are name_parts[first_part:first_part + length]
    ("part_count", np.int16),  # full name parts
    ("length", np.uint16),  # all parts
], align=True)
assert NAME_RECORD.itemsize == 32

# Bits for the kinds of lookup key that found a part.
SPELLING_HIT = 1
SYMBOL_HIT = 2
PHONETIC_HIT = 4
SKELETON_HIT = 8


# -- sorted 64-bit hashes, found in one or two steps ----------------------------------------------

def hash_buckets(hashes: np.ndarray) -> np.ndarray:
    """Where each run of sorted hashes with the same top bits starts: about one hash per
    bucket, so a lookup reads a bucket instead of binary-searching millions of entries."""
    bits = min(max(int(len(hashes)).bit_length(), 4), 30)
    tops = hashes >> np.uint64(64 - bits)
    return np.searchsorted(tops, np.arange(2**bits + 1, dtype=np.uint64)).astype(np.int32 if len(hashes) < 2**31 else np.int64)


# -- spellings: deletion keys and the typo budget ----------------------------------------------


# Deletion keys live in spaces of their own, so that a key only meets keys that can lead
# to a pair within the typo budget (`edit_similarity`): four-letter parts may differ by
# one edit, longer parts by two when they start with the same letter, parts of ten
# letters and more by two whatever their first letter.
SHORT_SINGLE = 1  # four-letter parts: the part and its one-letter deletions
LONG_SINGLE = 2  # longer parts: the part and its one-letter deletions
LONG_DOUBLE = 3  # longer parts: two-letter deletions, keyed with the part's first letter too
VERY_LONG_DOUBLE = 4  # from ten letters, two typos may include the first letter: the same, unkeyed
VERY_LONG = 10


@njit(cache=True)
def _deletion_hash(kind: int, space: int, first: int, text: np.ndarray, skip_a: int, skip_b: int) -> np.uint64:
    h = FNV_OFFSET
    h = (h ^ np.uint64(kind)) * FNV_PRIME
    h = (h ^ np.uint64(DELETION_MARK + space)) * FNV_PRIME
    h = (h ^ np.uint64(first)) * FNV_PRIME
    for i in range(len(text)):
        if i != skip_a and i != skip_b:
            h = (h ^ np.uint64(text[i])) * FNV_PRIME
    return h


@njit(cache=True)
def _single_level(kind: int, space: int, first: int, text: np.ndarray, out: np.ndarray, n: int) -> int:
    """The part and its one-letter deletions, into out[n:]; the new n."""
    out[n] = _deletion_hash(kind, space, first, text, -1, -1)
    n += 1
    for i in range(len(text)):
        out[n] = _deletion_hash(kind, space, first, text, i, -1)
        n += 1
    return n


@njit(cache=True)
def _double_level(kind: int, space: int, first: int, text: np.ndarray, out: np.ndarray, n: int) -> int:
    """The part's two-letter deletions, into out[n:]; the new n."""
    for i in range(len(text)):
        for j in range(i + 1, len(text)):
            out[n] = _deletion_hash(kind, space, first, text, i, j)
            n += 1
    return n


@njit(cache=True)
def listed_deletion_hashes(kind: int, text: np.ndarray) -> np.ndarray:
    """Deletion keys a list part is stored under (SymSpell): distinct, sorted."""
    length = len(text)
    if length < MIN_FUZZY_KEY_LENGTH:
        return np.empty(0, dtype=np.uint64)
    if length < MIN_DOUBLE_DELETION_LENGTH:
        out = np.empty(length + 1, dtype=np.uint64)
        _single_level(kind, SHORT_SINGLE, 0, text, out, 0)
        return np.unique(out)
    doubles = length * (length - 1) // 2
    out = np.empty(length + 1 + (2 if length >= VERY_LONG else 1) * doubles, dtype=np.uint64)
    n = _single_level(kind, LONG_SINGLE, 0, text, out, 0)
    n = _double_level(kind, LONG_DOUBLE, text[0], text, out, n)
    if length >= VERY_LONG:
        _double_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
    return np.unique(out)


@njit(cache=True)
def query_deletion_hashes(kind: int, text: np.ndarray) -> np.ndarray:
    """Deletion keys a query part looks up: each pair of spellings within the typo budget
    shares one, and few others do."""
    length = len(text)
    if length < MIN_FUZZY_KEY_LENGTH:
        return np.empty(0, dtype=np.uint64)
    if length < MIN_DOUBLE_DELETION_LENGTH:
        # One edit: against four-letter parts and the one-letter deletions of five-letter ones.
        out = np.empty(2 * (length + 1), dtype=np.uint64)
        n = _single_level(kind, SHORT_SINGLE, 0, text, out, 0)
        _single_level(kind, LONG_SINGLE, 0, text, out, n)
        return np.unique(out)
    doubles = length * (length - 1) // 2
    very_long = length >= VERY_LONG
    out = np.empty((4 if very_long else 3) * (length + 1) + (3 if very_long else 2) * doubles, dtype=np.uint64)
    n = _single_level(kind, SHORT_SINGLE, 0, text, out, 0)  # one edit from a four-letter part
    n = _single_level(kind, LONG_SINGLE, 0, text, out, n)  # one or two edits (one deletion each side)
    n = _single_level(kind, LONG_DOUBLE, text[0], text, out, n)  # two insertions, or one and a swap
    n = _double_level(kind, LONG_SINGLE, 0, text, out, n)  # two deletions, or one each side
    n = _double_level(kind, LONG_DOUBLE, text[0], text, out, n)  # two substitutions
    if very_long:  # the same against very long parts, whatever their first letter
        n = _single_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
        _double_level(kind, VERY_LONG_DOUBLE, 0, text, out, n)
    return np.unique(out)


@njit(cache=True)
def all_deletion_hashes(kinds: np.ndarray, texts: np.ndarray, offsets: np.ndarray, eligible: np.ndarray):
    """`listed_deletion_hashes` of every eligible vocabulary part: (hashes, part numbers)."""
    total = 0
    for part in range(len(kinds)):
        if eligible[part]:
            length = offsets[part + 1] - offsets[part]
            total += length + 1 + (2 if length >= VERY_LONG else 1) * (length * (length - 1) // 2)
    hashes = np.empty(total, dtype=np.uint64)
    parts = np.empty(total, dtype=np.int32)
    n = 0
    for part in range(len(kinds)):
        if eligible[part]:
            found = listed_deletion_hashes(kinds[part], texts[offsets[part]:offsets[part + 1]])
            hashes[n:n + len(found)] = found
            parts[n:n + len(found)] = part
            n += len(found)
    return hashes[:n], parts[:n]


# -- the index build: what each name's parts say, in one pass ----------------------------------


@njit(cache=True)
def _name_keys(full: np.ndarray, full_count: int, letters_of: np.ndarray, initials: int,
               initial_codes: int, letter_codes: int, out: np.ndarray, n: int) -> int:
    """Pair keys of one name into out[n:] (or only counted when out is empty); the new n.

    Two full parts together; each full part with each initial; and, when the name has
    more than one full part or an initial, each full part with the first letter of every
    other full part or initial ("J. Garcia" meets "Juan Garcia")."""
    write = len(out) > 0
    for i in range(full_count):
        for j in range(i + 1, full_count):
            if write:
                low, high = min(full[i], full[j]), max(full[i], full[j])
                out[n] = (np.int64(low) << 32) | np.int64(high)
            n += 1
    for letter in range(26):
        if initials & (np.int64(1) << np.int64(letter)):
            for i in range(full_count):
                if write:
                    out[n] = (np.int64(full[i]) << 32) | np.int64(initial_codes + letter)
                n += 1
    if full_count > 1 or initials:
        for i in range(full_count):
            letters = np.int64(initials)
            for j in range(full_count):
                if j != i and letters_of[j] >= 0:
                    letters |= np.int64(1) << np.int64(letters_of[j])
            for letter in range(26):
                if letters & (np.int64(1) << np.int64(letter)):
                    if write:
                        out[n] = (np.int64(full[i]) << 32) | np.int64(letter_codes + letter)
                    n += 1
    return n


@njit(cache=True)
def _full_parts(name_parts, first, last, part_roles, part_letters, full, full_letters):
    """A name's distinct full parts in order, into `full` (their first letters into
    `full_letters`), and the bit set of its initials' letters: (count, initials)."""
    full_count = 0
    initials = np.int64(0)
    for position in range(first, last):
        part = name_parts[position]
        if part_roles[part] == ROLE_NAME:
            known = False
            for i in range(full_count):
                if full[i] == part:
                    known = True
                    break
            if not known:
                full[full_count] = part
                full_letters[full_count] = part_letters[part]
                full_count += 1
        elif part_roles[part] == ROLE_INITIAL and part_letters[part] >= 0:
            initials |= np.int64(1) << np.int64(part_letters[part])
    return full_count, initials


@njit(cache=True)
def name_layout(
    name_start: np.ndarray,  # int64, name n's parts are name_parts[name_start[n]:name_start[n + 1]]
    name_parts: np.ndarray,  # int32
    part_roles: np.ndarray,  # int8, ROLE_* of each vocabulary part
    part_weights: np.ndarray,  # float64
    part_letters: np.ndarray,  # int8, first letter a-z as 0-25, -1 when none
    initial_codes: int,
    letter_codes: int,
):
    """Per name, what the blocking needs (packed by `name_records`), its single full part,
    and its pair keys (`blocking.pair_code`, `initial_code`, `letter_code`): computed from
    the part arrays instead of token by token while names are added.

    Returns (weight, contradicting_weight, part_count, part_letters, repeated_letters,
    initial_letters, single_parts, single_names, pair_codes, pair_names)."""
    n = len(name_start) - 1
    weight = np.empty(n, dtype=np.float32)
    contradicting = np.empty(n, dtype=np.float32)
    part_count = np.empty(n, dtype=np.int16)
    letters = np.empty(n, dtype=np.uint32)
    repeated = np.empty(n, dtype=np.uint32)
    initial_letters = np.empty(n, dtype=np.uint32)
    longest = 1
    for name in range(n):
        longest = max(longest, name_start[name + 1] - name_start[name])
    full = np.empty(longest, dtype=np.int64)
    full_letters = np.empty(longest, dtype=np.int64)
    single_parts = np.empty(n, dtype=np.int32)
    single_names = np.empty(n, dtype=np.int32)
    singles = 0
    key_count = np.zeros(n + 1, dtype=np.int64)
    no_keys = np.empty(0, dtype=np.int64)
    for name in range(n):
        total = 0.0
        contradicting_total = 0.0
        seen = np.int64(0)
        repeats = np.int64(0)
        for position in range(name_start[name], name_start[name + 1]):
            part = name_parts[position]
            role = part_roles[part]
            total += part_weights[part]
            if role != ROLE_UNCONTRADICTING:
                contradicting_total += part_weights[part]
            letter = part_letters[part]
            if role == ROLE_NAME and letter >= 0:
                bit = np.int64(1) << np.int64(letter)
                repeats |= seen & bit
                seen |= bit
        full_count, initials = _full_parts(name_parts, name_start[name], name_start[name + 1], part_roles, part_letters,
                                           full, full_letters)
        weight[name] = total
        contradicting[name] = contradicting_total
        part_count[name] = min(full_count, 32767)
        letters[name] = seen
        repeated[name] = repeats
        initial_letters[name] = initials
        if full_count == 1:
            single_parts[singles] = full[0]
            single_names[singles] = name
            singles += 1
        key_count[name + 1] = key_count[name] + _name_keys(
            full, full_count, full_letters, initials, initial_codes, letter_codes, no_keys, 0)
    pair_codes = np.empty(key_count[n], dtype=np.int64)
    pair_names = np.empty(key_count[n], dtype=np.int32)
    for name in range(n):
        if key_count[name + 1] == key_count[name]:
            continue
        full_count, initials = _full_parts(name_parts, name_start[name], name_start[name + 1], part_roles, part_letters,
                                           full, full_letters)
        _name_keys(full, full_count, full_letters, initials, initial_codes, letter_codes, pair_codes, key_count[name])
        pair_names[key_count[name]:key_count[name + 1]] = name
    return (weight, contradicting, part_count, letters, repeated, initial_letters,
            single_parts[:singles], single_names[:singles], pair_codes, pair_names)


PATTERN_ASCII = 128  # characters whose bit set `osa_pattern` keeps at their own code


@njit(cache=True)
def osa_distance(a: np.ndarray, b: np.ndarray, cutoff: int, rows: np.ndarray) -> int:
    """Optimal string alignment distance (a swap of neighbours is one edit); cutoff + 1
    when it is larger than cutoff. Mirrors rapidfuzz's OSA.distance. `rows` is scratch
    of shape (3, at least len(b) + 1)."""
    la, lb = len(a), len(b)
    if abs(la - lb) > cutoff:
        return cutoff + 1
    if lb + 1 > rows.shape[1]:
        rows = np.empty((3, lb + 1), dtype=np.int32)
    before, previous, current = 0, 1, 2
    for j in range(lb + 1):
        rows[previous, j] = j
    for i in range(1, la + 1):
        rows[current, 0] = i
        row_best = i
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(rows[previous, j] + 1, rows[current, j - 1] + 1, rows[previous, j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, rows[before, j - 2] + 1)
            rows[current, j] = value
            if value < row_best:
                row_best = value
        if row_best > cutoff:
            return cutoff + 1
        before, previous, current = previous, current, before
    return min(rows[previous, lb], cutoff + 1)


@njit(cache=True)
def osa_pattern(a: np.ndarray):
    """What `osa_distance_bits` needs of a text of at most 64 characters: per character,
    the bit set of the positions where it stands. An ASCII character's set is read at its
    code (masks[0:128]), without a search: most texts compared are ASCII, and searching the
    text's distinct characters for each character compared took half the lookup's time.
    Other characters are listed in `chars`, their sets at masks[128 + k]. An empty text
    gives an empty pattern: `typo_similarity` then measures with the table."""
    if len(a) == 0:
        return np.empty(0, dtype=np.uint32), np.empty(0, dtype=np.uint64)
    chars = np.empty(len(a), dtype=np.uint32)
    masks = np.zeros(PATTERN_ASCII + len(a), dtype=np.uint64)
    distinct = 0
    for i in range(len(a)):
        code = a[i]
        if code < PATTERN_ASCII:
            at = code
        else:
            at = -1
            for c in range(distinct):
                if chars[c] == code:
                    at = PATTERN_ASCII + c
                    break
            if at < 0:
                chars[distinct] = code
                at = PATTERN_ASCII + distinct
                distinct += 1
        masks[at] |= np.uint64(1) << np.uint64(i)
    return chars[:distinct], masks[:PATTERN_ASCII + distinct]


@njit(cache=True, inline='always')
def osa_distance_bits(chars: np.ndarray, masks: np.ndarray, length: int, b: np.ndarray, cutoff: int) -> int:
    """`osa_distance` of a text given by `osa_pattern` (1 to 64 characters) and b, one
    machine word per character of b instead of a row of the table (Hyyrö 2003, the
    algorithm rapidfuzz uses for OSA)."""
    one = np.uint64(1)
    vp = ~np.uint64(0)
    vn = np.uint64(0)
    d0 = np.uint64(0)
    pm_old = np.uint64(0)
    distance = length
    last = one << np.uint64(length - 1)
    for j in range(len(b)):
        code = b[j]
        if code < PATTERN_ASCII:
            pm = masks[code]
        else:
            pm = np.uint64(0)
            for c in range(len(chars)):
                if chars[c] == code:
                    pm = masks[PATTERN_ASCII + c]
                    break
        transposed = (((~d0) & pm) << one) & pm_old
        d0 = (((pm & vp) + vp) ^ vp) | pm | vn | transposed
        hp = vn | ~(d0 | vp)
        hn = d0 & vp
        if hp & last:
            distance += 1
        elif hn & last:
            distance -= 1
        hp = (hp << one) | one
        hn = hn << one
        vp = hn | ~(d0 | hp)
        vn = hp & d0
        pm_old = pm
    return distance if distance <= cutoff else cutoff + 1


@njit(cache=True, inline='always')
def typo_budget(a: np.ndarray, b: np.ndarray) -> int:
    """Edits `align.edit_similarity` accepts between a and b; 0 when none, or when their
    lengths alone differ by more."""
    la, lb = len(a), len(b)
    shortest = min(la, lb)
    if shortest <= 3:
        return 0
    if shortest <= 4:
        budget = 1
    else:
        budget = (2 if shortest <= 9 else 3) - (1 if a[0] != b[0] else 0)
    if budget <= 0 or abs(la - lb) > budget:
        return 0
    return budget


@njit(cache=True, inline='always')
def typo_similarity(a: np.ndarray, b: np.ndarray, chars: np.ndarray, masks: np.ndarray, rows: np.ndarray) -> float:
    """`align.edit_similarity` on code point arrays: 1 - edits / length within the typo budget.
    With a's `osa_pattern` (made once by a caller comparing a with many texts) the distance
    is measured bit-parallel, else (empty pattern) with the table of `osa_distance`."""
    budget = typo_budget(a, b)
    if budget == 0:
        return 0.0
    if len(masks) > 0:
        distance = osa_distance_bits(chars, masks, len(a), b, budget)
    else:
        distance = osa_distance(a, b, budget, rows)
    if distance > budget:
        return 0.0
    return 1.0 - distance / max(len(a), len(b))


@njit(cache=True)
def edit_similarity(a: np.ndarray, b: np.ndarray, rows: np.ndarray) -> float:
    """`typo_similarity` without a pattern."""
    return typo_similarity(a, b, np.empty(0, dtype=np.uint32), np.empty(0, dtype=np.uint64), rows)


# Every part's text in a 16-byte slot when it is ASCII and at most 15 letters long (almost
# all name parts): 16 bytes a part, so the lookup's verification of a few hundred hits reads
# one small table, mostly from cache, instead of an offset and the code points of each.
# Byte 0: the length (SHORT_LENGTH: not in the table, read the code points) and whether
# the part was written in an abjad.
SHORT_SLOT = 16
SHORT_LENGTH = 0x7F
SHORT_ABJAD = 0x80


@njit(cache=True)
def short_text_table(codes: np.ndarray, offsets: np.ndarray, abjad: np.ndarray) -> np.ndarray:
    table = np.zeros((len(offsets) - 1, SHORT_SLOT), dtype=np.uint8)
    for part in range(len(offsets) - 1):
        first, last = offsets[part], offsets[part + 1]
        short = last - first < SHORT_SLOT
        for i in range(first, last):
            if codes[i] >= 128:
                short = False
        table[part, 0] = (last - first) if short else SHORT_LENGTH
        if abjad[part]:
            table[part, 0] |= SHORT_ABJAD
        if short:
            for i in range(first, last):
                table[part, 1 + i - first] = codes[i]
    return table


@njit(cache=True, inline='always')
def _hit_similarity(text, other, chars, masks, rows, hit, other_abjad, abjad,
                    variant_similarity, phonetic_similarity, skeleton_similarity) -> float:
    """What `token_similarity` gives a part found under the kinds of key in `hit`."""
    same_first = len(other) > 0 and len(text) > 0 and other[0] == text[0]
    value = typo_similarity(text, other, chars, masks, rows)
    if hit & SYMBOL_HIT:
        value = max(value, variant_similarity)
    if (hit & PHONETIC_HIT) and same_first:
        value = max(value, phonetic_similarity)
    if (hit & SKELETON_HIT) and other_abjad != abjad:
        value = max(value, skeleton_similarity)
    return value


@njit(cache=True)
def similar_parts(
    text: np.ndarray,
    kind: int,
    fuzzy: bool,
    extra_hashes: np.ndarray,
    extra_kinds: np.ndarray,
    abjad: bool,
    exact: int,  # the part with the query part's own key, found or not, or -1
    lookup_hashes: np.ndarray,
    lookup_buckets: np.ndarray,
    lookup_parts: np.ndarray,
    texts: np.ndarray,
    offsets: np.ndarray,
    short_texts: np.ndarray,  # `short_text_table`
    variant_similarity: float,
    phonetic_similarity: float,
    skeleton_similarity: float,
    min_similarity: float,
):
    """`Vocabulary` parts found under a query part's lookup keys, with the similarity
    `token_similarity` gives them, and the `exact` part at 1.0: (parts sorted,
    similarities). `fuzzy` adds the deletion keys; `extra_hashes` are the symbol,
    phonetic and skeleton keys."""
    if fuzzy:
        spelling = query_deletion_hashes(kind, text)
    else:
        spelling = np.empty(0, dtype=np.uint64)
    key_count = len(spelling) + len(extra_hashes)
    keys = np.empty(key_count, dtype=np.uint64)
    bits = np.empty(key_count, dtype=np.uint8)
    for k in range(key_count):
        if k < len(spelling):
            keys[k], bits[k] = spelling[k], np.uint8(SPELLING_HIT)
        else:
            keys[k], bits[k] = extra_hashes[k - len(spelling)], extra_kinds[k - len(spelling)]
    lows, highs = hashed_ranges(lookup_hashes, lookup_buckets, keys)
    total = 0
    for k in range(key_count):
        total += highs[k] - lows[k]
        if highs[k] > lows[k]:
            prefetch(lookup_parts, lows[k])
    # Distinct parts, each with the kinds of key that found it: a sort of the few hundred hits,
    # which stay in cache, instead of marks in per-part arrays (a cache miss a part).
    hits = np.empty(total, dtype=np.int64)
    n = 0
    for k in range(key_count):
        for position in range(lows[k], highs[k]):
            hits[n] = (np.int64(lookup_parts[position]) << 8) | bits[k]
            n += 1
    hits.sort()
    parts = np.empty(total, dtype=np.int32)
    found_by = np.zeros(total, dtype=np.uint8)
    distinct = 0
    for n in range(total):
        part = np.int32(hits[n] >> 8)
        if distinct == 0 or parts[distinct - 1] != part:
            parts[distinct] = part
            distinct += 1
        found_by[distinct - 1] |= np.uint8(hits[n] & 0xFF)
    # Each hit's slot head (length, script) read in a loop of its own: the loads do not wait
    # on each other, so their cache misses overlap, and the loop below finds the slots in cache.
    heads = np.empty(distinct, dtype=np.uint8)
    for position in range(distinct):
        heads[position] = short_texts[parts[position], 0]
    similarity = np.empty(distinct, dtype=np.float64)
    rows = np.empty((3, 64), dtype=np.int32)
    # The query part's bit pattern, made once for all hits (the table beyond 64 characters).
    chars, masks = osa_pattern(text if len(text) <= 64 else text[:0])
    kept = 0
    for position in range(distinct):
        part = parts[position]
        head = heads[position]
        length = head & SHORT_LENGTH
        # Two calls, not one on a chosen array: numba can not unify the slot's bytes with code points.
        if length != SHORT_LENGTH:
            value = _hit_similarity(text, short_texts[part, 1:1 + length], chars, masks, rows, found_by[position],
                                    (head & SHORT_ABJAD) != 0, abjad,
                                    variant_similarity, phonetic_similarity, skeleton_similarity)
        else:
            value = _hit_similarity(text, texts[offsets[part]:offsets[part + 1]], chars, masks, rows,
                                    found_by[position], (head & SHORT_ABJAD) != 0, abjad,
                                    variant_similarity, phonetic_similarity, skeleton_similarity)
        if part == exact:
            value = 1.0
        if value >= min_similarity:
            parts[kept] = part
            similarity[kept] = value
            kept += 1
    if exact >= 0:
        at = np.searchsorted(parts[:kept], exact)
        if at == kept or parts[at] != exact:
            # Not found under any key (parts too short or in a script without deletion keys).
            parts = np.concatenate((parts[:at], np.array([exact], dtype=np.int32), parts[at:kept]))
            similarity = np.concatenate((similarity[:at], np.ones(1), similarity[at:kept]))
            kept += 1
    return parts[:kept], similarity[:kept]


@njit(cache=True, nogil=True)
def similar_parts_of_range(
    first: int,
    last: int,
    kinds: np.ndarray,  # per part: the kind code's character number
    fuzzy: np.ndarray,  # bool per part
    abjad: np.ndarray,  # bool per part
    named: np.ndarray,  # bool per part: a full name part, the only kind a probe looks up
    extra_offsets: np.ndarray,  # per part: where its extra keys start in extra_hashes
    extra_hashes: np.ndarray,
    extra_kinds: np.ndarray,
    lookup_hashes: np.ndarray,
    lookup_buckets: np.ndarray,
    lookup_parts: np.ndarray,
    texts: np.ndarray,
    offsets: np.ndarray,
    short_texts: np.ndarray,
    variant_similarity: float,
    phonetic_similarity: float,
    skeleton_similarity: float,
    min_similarity: float,
):
    """`similar_parts` of the vocabulary's own full name parts first..last - 1, each its
    own exact part: (counts per part, parts, similarities), back to back. Runs without
    the GIL, so a build can share the parts among threads."""
    counts = np.zeros(last - first, dtype=np.int64)
    capacity = 64 * (last - first) + 64
    found_parts = np.empty(capacity, dtype=np.int32)
    found_values = np.empty(capacity, dtype=np.float64)
    n = 0
    for part in range(first, last):
        if not named[part]:
            continue
        parts, values = similar_parts(
            texts[offsets[part]:offsets[part + 1]], kinds[part], fuzzy[part],
            extra_hashes[extra_offsets[part]:extra_offsets[part + 1]],
            extra_kinds[extra_offsets[part]:extra_offsets[part + 1]], abjad[part], part,
            lookup_hashes, lookup_buckets, lookup_parts, texts, offsets, short_texts,
            variant_similarity, phonetic_similarity, skeleton_similarity, min_similarity,
        )
        if n + len(parts) > capacity:
            capacity = 2 * (n + len(parts))
            found_parts = np.concatenate((found_parts[:n], np.empty(capacity - n, dtype=np.int32)))
            found_values = np.concatenate((found_values[:n], np.empty(capacity - n, dtype=np.float64)))
        found_parts[n:n + len(parts)] = parts
        found_values[n:n + len(parts)] = values
        n += len(parts)
        counts[part - first] = len(parts)
    return counts, found_parts[:n], found_values[:n]


# -- the similarity of query parts to the list parts of the names scored in full -------------------

# `align.token_similarity`'s reasons, as the matrix below gives them (`REASONS` names them).
REASON_NONE = 0
REASON_EXACT = 1
REASON_SCRIPT = 2
REASON_INITIAL = 3
REASON_TYPO = 4
REASON_VARIANT = 5
REASON_PHONETIC = 6
REASONS = ("", "exact", "script", "initial", "typo", "variant", "phonetic")

# Part roles as `token_similarity` tells them apart.
SIMILARITY_NAME = 0
SIMILARITY_INITIAL = 1
SIMILARITY_NUMBER = 2
SIMILARITY_OTHER = 3  # particles, titles, legal forms, generic words


@njit(cache=True, inline='always')
def _same_codes(a: np.ndarray, b: np.ndarray) -> bool:
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True


@njit(cache=True, inline='always')
def _share_symbol(a: np.ndarray, b: np.ndarray) -> bool:
    for x in range(len(a)):
        for y in range(len(b)):
            if a[x] == b[y]:
                return True
    return False


@njit(cache=True, inline='always')
def _skeleton_similarity(a: np.ndarray, b: np.ndarray, a_syllabic: bool, b_syllabic: bool, rows: np.ndarray,
                         skeleton_similarity: float, near_skeleton_similarity: float) -> float:
    """`align._skeleton_similarity`'s value."""
    if a_syllabic or b_syllabic or len(a) < 3 or len(b) < 3 or a[0] != b[0]:
        return 0.0
    if _same_codes(a, b):
        return skeleton_similarity
    if min(len(a), len(b)) >= 4 and osa_distance(a, b, 1, rows) <= 1:
        return near_skeleton_similarity
    return 0.0


@njit(cache=True)
def _similarities(a, a_skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad,
                  texts, text_start, text_end, skeletons, skeleton_start, skeleton_end, symbols, symbol_start,
                  symbol_end, syllabic, form, role, phonetic, abjad, scratch,
                  initial_similarity: float, variant_similarity: float, phonetic_similarity: float,
                  skeleton_similarity: float, near_skeleton_similarity: float, min_similarity: float,
                  values: np.ndarray, reasons: np.ndarray, column: int) -> None:
    """`align.token_similarity(a, b)` of one part a against every part b (row r of values and
    reasons, at `column`): the same floats (and REASON_*) in the same order of tests. a: its
    code points, skeleton and symbol numbers, whether Han or Hangul (syllabic), its form's,
    role's (SIMILARITY_*) and phonetic key's numbers (-1: none), whether written in an abjad.
    The b parts: the same, as ranges of `texts`, `skeletons` and `symbols` and arrays of the
    rest. One call per query part, the loop inside: array arguments cost reference counting
    on each call, which per pair of parts took a third of the time."""
    chars, masks = osa_pattern(a if len(a) <= 64 else a[:0])
    for r in range(len(text_start)):
        b = texts[text_start[r]:text_end[r]]
        b_syllabic, b_role = syllabic[r], role[r]
        value, reason = 0.0, REASON_NONE
        if _same_codes(a, b):
            if a_syllabic == b_syllabic and (not a_syllabic or a_form == form[r]):
                value, reason = 1.0, REASON_EXACT
            elif not (a_syllabic and b_syllabic):
                value, reason = 1.0, REASON_SCRIPT
        elif a_syllabic and b_syllabic:
            pass
        elif a_role == SIMILARITY_NUMBER or b_role == SIMILARITY_NUMBER:
            pass
        elif a_role == SIMILARITY_INITIAL or b_role == SIMILARITY_INITIAL:
            if (len(a) > 0 and len(b) > 0 and a[0] == b[0] and a_role <= SIMILARITY_INITIAL
                    and b_role <= SIMILARITY_INITIAL):
                value, reason = initial_similarity, REASON_INITIAL
        else:
            value, reason = typo_similarity(a, b, chars, masks, scratch), REASON_TYPO
            if value < variant_similarity and len(a_symbols) > 0 and _share_symbol(
                    a_symbols, symbols[symbol_start[r]:symbol_end[r]]):
                value, reason = variant_similarity, REASON_VARIANT
            if value < phonetic_similarity and a_phonetic >= 0 and a_phonetic == phonetic[r] and a[0] == b[0]:
                value, reason = phonetic_similarity, REASON_PHONETIC
            if a_abjad != abjad[r] and value < skeleton_similarity:
                other = _skeleton_similarity(a_skeleton, skeletons[skeleton_start[r]:skeleton_end[r]], a_syllabic,
                                             b_syllabic, scratch, skeleton_similarity, near_skeleton_similarity)
                # `max` of (value, reason) tuples: on a tie the greater reason wins, "script" only over "phonetic".
                if other > value or (other == value and reason == REASON_PHONETIC):
                    value, reason = other, REASON_SCRIPT
            if value < min_similarity:
                value, reason = 0.0, REASON_NONE
        values[r, column] = value
        reasons[r, column] = reason


# How `similarity_matrix` reads a query part: these numbers, then the code points of its text
# and of its skeleton and its symbol numbers; the next part follows.
QUERY_TEXT_LENGTH, QUERY_SKELETON_LENGTH, QUERY_SYMBOL_COUNT = 0, 1, 2
QUERY_SYLLABIC, QUERY_FORM, QUERY_ROLE, QUERY_PHONETIC, QUERY_ABJAD = 3, 4, 5, 6, 7
QUERY_HEAD = 8


@njit(cache=True)
def _query_starts(query: np.ndarray, query_count: int) -> np.ndarray:
    """Where each query part's numbers start in `query` (QUERY_*)."""
    starts = np.empty(query_count, dtype=np.int64)
    at = 0
    for i in range(query_count):
        starts[i] = at
        at += QUERY_HEAD + query[at + QUERY_TEXT_LENGTH] + query[at + QUERY_SKELETON_LENGTH] + query[at + QUERY_SYMBOL_COUNT]
    return starts


@njit(cache=True, inline='always')
def _query_ends(query: np.ndarray, at: int):
    """Where the text, the skeleton and the symbols of the part starting at query[at] (QUERY_*) end."""
    text_end = at + QUERY_HEAD + query[at + QUERY_TEXT_LENGTH]
    skeleton_end = text_end + query[at + QUERY_SKELETON_LENGTH]
    return text_end, skeleton_end, skeleton_end + query[at + QUERY_SYMBOL_COUNT]


@njit(cache=True, inline='always')
def _query_part(query: np.ndarray, at: int):
    """The part starting at query[at] (QUERY_*): its code points, skeleton and symbol numbers,
    then whether syllabic, its form, role, phonetic key and whether written in an abjad."""
    text_end, skeleton_end, symbol_end = _query_ends(query, at)
    return (query[at + QUERY_HEAD:text_end], query[text_end:skeleton_end], query[skeleton_end:symbol_end],
            query[at + QUERY_SYLLABIC] != 0, query[at + QUERY_FORM], query[at + QUERY_ROLE],
            query[at + QUERY_PHONETIC], query[at + QUERY_ABJAD] != 0)


# What `similarity_matrix` reads of a vocabulary part, in one 64-byte row (one cache line
# instead of a miss in each of eleven arrays). Bytes 0-15 and 16-31: its text and its
# skeleton as `short_text_table` slots (SHORT_LENGTH: read the arrays instead); then, as
# int32 at these positions of the row's int32 view:
PART_FORM, PART_PHONETIC, PART_SYMBOL_START, PART_SYMBOL_COUNT, PART_ROLE, PART_FLAGS = range(8, 14)
PART_FIRST_SYMBOLS = 14  # its first two symbol numbers, inline
INLINE_SYMBOLS = 2
PART_SYLLABIC, PART_ABJAD = 1, 2  # PART_FLAGS bits
SKELETON_SLOT = 16


@njit(cache=True)
def similarity_matrix(
    rows: np.ndarray,  # int64 list part numbers
    query_count: int,
    query: np.ndarray,  # int64: the query parts one after another, see QUERY_*
    table: np.ndarray,  # uint8 [part, 64], see PART_*
    table_ints: np.ndarray,  # int32 [part, 16]: the same memory
    codes, offsets, symbols, skeletons, skeleton_offsets,  # what does not fit in the rows
    initial_similarity: float, variant_similarity: float, phonetic_similarity: float,
    skeleton_similarity: float, near_skeleton_similarity: float, min_similarity: float,
):
    """`align.similarity_column` of each list part in `rows` against the query parts, compiled:
    (values [row, query part] float64, reasons [row, query part] int8, REASON_*). The same
    floats, in the same order of tests, as `token_similarity(query part, list part)`.
    Numbers (forms, symbols, phonetic keys) are the vocabulary's; -1 is none."""
    count = len(rows)
    values = np.zeros((count, query_count), dtype=np.float64)
    reasons = np.zeros((count, query_count), dtype=np.int8)
    scratch = np.empty((3, 64), dtype=np.int32)
    # The rows' parts copied out first, in loops whose loads do not wait on each other, so
    # that their cache misses overlap.
    text_at = np.empty(count + 1, dtype=np.int64)
    skeleton_at = np.empty(count + 1, dtype=np.int64)
    symbol_at = np.empty(count + 1, dtype=np.int64)
    text_at[0] = skeleton_at[0] = symbol_at[0] = 0
    row_syllabic = np.empty(count, dtype=np.bool_)
    row_abjad = np.empty(count, dtype=np.bool_)
    row_form = np.empty(count, dtype=np.int32)
    row_role = np.empty(count, dtype=np.int32)
    row_phonetic = np.empty(count, dtype=np.int32)
    for r in range(count):
        part = rows[r]
        length = table[part, 0]
        if length == SHORT_LENGTH:
            length = offsets[part + 1] - offsets[part]
        text_at[r + 1] = text_at[r] + length
        length = table[part, SKELETON_SLOT]
        if length == SHORT_LENGTH:
            length = skeleton_offsets[part + 1] - skeleton_offsets[part]
        skeleton_at[r + 1] = skeleton_at[r] + length
        symbol_at[r + 1] = symbol_at[r] + table_ints[part, PART_SYMBOL_COUNT]
        flags = table_ints[part, PART_FLAGS]
        row_syllabic[r], row_abjad[r] = (flags & PART_SYLLABIC) != 0, (flags & PART_ABJAD) != 0
        row_form[r] = table_ints[part, PART_FORM]
        row_role[r], row_phonetic[r] = table_ints[part, PART_ROLE], table_ints[part, PART_PHONETIC]
    row_texts = np.empty(text_at[count], dtype=np.uint32)
    row_skeletons = np.empty(skeleton_at[count], dtype=np.uint32)
    row_symbols = np.empty(symbol_at[count], dtype=np.int64)
    for r in range(count):
        part = rows[r]
        if table[part, 0] == SHORT_LENGTH:
            row_texts[text_at[r]:text_at[r + 1]] = codes[offsets[part]:offsets[part + 1]]
        else:
            for k in range(text_at[r + 1] - text_at[r]):
                row_texts[text_at[r] + k] = table[part, 1 + k]
        if table[part, SKELETON_SLOT] == SHORT_LENGTH:
            row_skeletons[skeleton_at[r]:skeleton_at[r + 1]] = skeletons[skeleton_offsets[part]:skeleton_offsets[part + 1]]
        else:
            for k in range(skeleton_at[r + 1] - skeleton_at[r]):
                row_skeletons[skeleton_at[r] + k] = table[part, SKELETON_SLOT + 1 + k]
        symbol_count = symbol_at[r + 1] - symbol_at[r]
        if symbol_count <= INLINE_SYMBOLS:
            for k in range(symbol_count):
                row_symbols[symbol_at[r] + k] = table_ints[part, PART_FIRST_SYMBOLS + k]
        else:
            start = table_ints[part, PART_SYMBOL_START]
            row_symbols[symbol_at[r]:symbol_at[r + 1]] = symbols[start:start + symbol_count]
    starts = _query_starts(query, query_count)
    for i in range(query_count):
        text, skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad = _query_part(query, starts[i])
        a, a_skeleton = text.astype(np.uint32), skeleton.astype(np.uint32)
        _similarities(a, a_skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad,
                      row_texts, text_at[:-1], text_at[1:], row_skeletons, skeleton_at[:-1], skeleton_at[1:],
                      row_symbols, symbol_at[:-1], symbol_at[1:], row_syllabic, row_form, row_role, row_phonetic,
                      row_abjad, scratch, initial_similarity, variant_similarity, phonetic_similarity,
                      skeleton_similarity, near_skeleton_similarity, min_similarity, values, reasons, i)
    return values, reasons


# -- blocking: candidate names of a query and their estimated scores ----------------------------


@njit(cache=True)
def bucket_shift(buckets: np.ndarray) -> np.uint64:
    """How far a hash is shifted to give its bucket: tables have 2**bits + 1 entries."""
    bits, size = 0, len(buckets) - 1
    while size > 1:
        size >>= 1
        bits += 1
    return np.uint64(64 - bits)


@njit(cache=True)
def hashed_range(hashes: np.ndarray, buckets: np.ndarray, shift: np.uint64, key: np.uint64):
    """(first, end) of the entries equal to key in sorted, evenly spread 64-bit hashes;
    `buckets` (see `hash_buckets`) narrows the search to a cache line or two."""
    bucket = key >> shift
    first, end = buckets[bucket], buckets[bucket + 1]
    while first < end and hashes[first] < key:
        first += 1
    last = first
    while last < end and hashes[last] == key:
        last += 1
    return first, last


@njit(cache=True)
def hashed_ranges(hashes: np.ndarray, buckets: np.ndarray, keys: np.ndarray):
    """`hashed_range` of many keys: (firsts, ends). Every key's bucket is read first, in a
    loop of independent loads whose cache misses overlap, then every key's hashes. One key
    at a time, each miss waited on the one before: together with the slot heads read the
    same way in `similar_parts`, a spelling lookup with a cold cache took 1.45x as long."""
    shift = bucket_shift(buckets)
    firsts = np.empty(len(keys), dtype=np.int64)
    ends = np.empty(len(keys), dtype=np.int64)
    for k in range(len(keys)):
        bucket = keys[k] >> shift
        firsts[k] = buckets[bucket]
        ends[k] = buckets[bucket + 1]
    for k in range(len(keys)):
        prefetch(hashes, firsts[k])  # the scans below would each wait on their first line in turn
    for k in range(len(keys)):
        first, end, key = firsts[k], ends[k], keys[k]
        while first < end and hashes[first] < key:
            first += 1
        last = first
        while last < end and hashes[last] == key:
            last += 1
        firsts[k], ends[k] = first, last
    return firsts, ends


@njit(cache=True)
def pair_hash(a: int, b: int) -> np.uint64:
    """Key of two parts appearing in one name, in either order (b may stand for a letter),
    spread over 64 bits: multiplying by an odd constant is one-to-one."""
    low, high = min(a, b), max(a, b)
    code = (np.uint64(low) << np.uint64(32)) | np.uint64(high)
    return code * PAIR_MIX


@njit(cache=True)
def _find_pair(pair_keys: np.ndarray, pair_buckets: np.ndarray, shift: np.uint64, a: int, b: int) -> int:
    """Row of the pair of parts a and b, or -1."""
    first, end = hashed_range(pair_keys, pair_buckets, shift, pair_hash(a, b))
    return first if end > first else -1


@njit(cache=True)
def _closest(values: np.ndarray, most: int) -> np.ndarray:
    """Positions of the `most` largest values, largest first (stable)."""
    order = np.argsort(-values, kind="mergesort")
    return order[:most]


# Candidate names and their similarity per probe are kept through a small open-addressing
# hash table (keys: name, rows: its row): it stays in cache, where per-name marks over the
# whole list would not.


@njit(cache=True)
def _table(capacity: int, probes: int, record_type):
    size = 64
    while size < 2 * capacity:
        size *= 2
    keys = np.full(size, -1, dtype=np.int32)
    rows = np.empty(size, dtype=np.int32)
    similarity = np.zeros((size // 2, probes), dtype=np.float64)
    records = np.empty(size // 2, dtype=record_type)  # a row's name is its record's
    return keys, rows, similarity, records


FROM_POSTINGS = 0  # part postings, through their copy of the records (`posting_records`)
FROM_SINGLES = 1  # single-part names
FROM_PAIRS = 2  # names with a pair of parts


# A range of postings to gather, with the probe (and its spelling's similarity) that brings it.
GATHER_RANGE = np.dtype([
    ("start", np.int64), ("end", np.int64), ("probe", np.int32), ("value", np.float64), ("source", np.int8),
], align=True)


@njit(cache=True)
def _add_range(ranges, count: int, source: int, start: int, end: int, probe: int, value: float) -> int:
    """Appends a non-empty range; the new count."""
    if end <= start:
        return count
    if count == len(ranges):
        raise IndexError("more ranges of postings than the candidate kernel's bound")
    entry = ranges[count]
    entry.source, entry.start, entry.end = source, start, end
    entry.probe, entry.value = probe, value
    return count + 1


@njit(cache=True)
def candidates(
    probe_offsets: np.ndarray,  # int64, probe k's found parts are found_parts[probe_offsets[k]:probe_offsets[k + 1]]
    found_parts: np.ndarray,  # int32, sorted within each probe
    found_values: np.ndarray,  # float64
    probe_weights: np.ndarray,  # float64
    probe_roles: np.ndarray,  # int8, ROLE_*
    probe_letters: np.ndarray,  # int8, first letter a-z as 0-25, -1 when none
    common_part_names: int,
    paired_spellings: int,
    initial_codes: int,
    letter_codes: int,
    initial_similarity: float,
    role_weights: np.ndarray,  # weight of a full name part, of an initial
    penalties: np.ndarray,  # conflict, query_extra, list_extra
    floor: float,  # names estimated below it may be left out (0: none)
    part_starts: np.ndarray,
    single_starts: np.ndarray,
    single_names: np.ndarray,
    pair_keys: np.ndarray,  # uint64 `pair_hash`es, sorted
    pair_buckets: np.ndarray,  # `hash_buckets` of pair_keys
    pair_starts: np.ndarray,
    pair_names: np.ndarray,
    name_parts: np.ndarray,
    name_records: np.ndarray,  # NAME_RECORD per name
    posting_records: np.ndarray,  # name_records[part postings' names]: the same, in postings order (part_starts)
    part_first_letters: np.ndarray,  # int8 per vocabulary part: its first letter a-z as 0-25, else -1
    part_value: np.ndarray,  # float64 per vocabulary part: scratch, zero between calls
):
    """Candidate names (unordered) and their estimated scores; `blocking.Blocker` describes
    the strategy. Which probes bring names:

    - a rare part (in at most `common_part_names` names), or the only full part: all its names,
      except, when the query has another full part or an initial, names that show nothing
      another query part could match (`_rare_part_evidence`);
    - a common part: names that have no other full part, names with it and an initial
      of another query part, and names with it and another common query part (each
      spelling of one with the closest `paired_spellings` of the other).
    """
    probe_count = len(probe_weights)
    pair_shift = bucket_shift(pair_buckets)

    # Which probes bring names, and how.
    volume = np.zeros(probe_count, dtype=np.int64)
    for f in range(probe_offsets[probe_count]):
        prefetch(part_starts, found_parts[f])
    brings = np.zeros(probe_count, dtype=np.bool_)
    named = 0
    for k in range(probe_count):
        if probe_roles[k] == ROLE_NAME or probe_roles[k] == ROLE_GLUED:
            if probe_offsets[k + 1] > probe_offsets[k]:
                brings[k] = True
                if probe_roles[k] == ROLE_NAME:
                    named += 1
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part = found_parts[f]
            volume[k] += part_starts[part + 1] - part_starts[part]
    query_initials = False
    for k in range(probe_count):
        if probe_roles[k] == ROLE_INITIAL and probe_letters[k] >= 0:
            query_initials = True
    opened = np.zeros(probe_count, dtype=np.bool_)
    common = np.zeros(probe_count, dtype=np.bool_)
    for k in range(probe_count):
        if brings[k]:
            # The only full part opens all its names, unless initials can narrow it down.
            if volume[k] <= common_part_names or (named == 1 and not query_initials):
                opened[k] = True
            else:
                common[k] = True

    needed = _rare_part_evidence(probe_offsets, found_parts, probe_roles, probe_letters, opened, named, query_initials,
                                 part_first_letters)

    # Rare full parts and nothing else that could match (no initials, no common part, no
    # particle found in the list): a name that only one of them brings is estimated on that one
    # alone (`_single_estimate`), mostly a third of its similarity or less (another full part
    # is a conflict). The full part with the most postings has its ranges gathered last and
    # leaves out a new name estimated below `floor` that way: no name it leaves out could reach
    # the floor, as every name another probe brings is in the table by then.
    skipping = -1
    if floor > 0 and named >= 2 and not query_initials:
        for k in range(probe_count):
            if probe_roles[k] == ROLE_INITIAL:
                skipping = -2
                break
            if probe_offsets[k + 1] == probe_offsets[k]:
                continue  # found nothing: matches nothing
            if not opened[k]:
                skipping = -2
                break
            if probe_roles[k] == ROLE_NAME and (skipping == -1 or volume[k] > volume[skipping]):
                skipping = k
        skipping = max(skipping, -1)

    # Where the candidates come from: ranges of postings, each for one probe, collected first,
    # so that the table is sized once and one loop gathers them all. (A helper called per
    # posting cost more than the gathering itself: numba passes each array argument with
    # reference counting.)
    # At most, per spelling: its own range, one pair per other probe (its letter or initial)
    # and `paired_spellings` pairs per other common probe.
    most_ranges = probe_offsets[probe_count] * (1 + probe_count * (1 + paired_spellings))
    ranges = np.empty(most_ranges, dtype=GATHER_RANGE)
    range_count = 0
    for step in range(probe_count):
        k = step
        if skipping >= 0:  # the skipping probe's ranges last
            k = skipping if step == probe_count - 1 else (step + 1 if step >= skipping else step)
        if not (opened[k] or common[k]):
            continue
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part = found_parts[f]
            if opened[k]:
                # The postings' own copy of the records: read in order, not name by name.
                range_count = _add_range(ranges, range_count, FROM_POSTINGS, part_starts[part], part_starts[part + 1],
                                         k, found_values[f])
            else:
                range_count = _add_range(ranges, range_count, FROM_SINGLES, single_starts[part], single_starts[part + 1],
                                         k, found_values[f])

    # Pairs: a common part with an initial of another query part, or with another common part.
    for k in range(probe_count):
        if not common[k]:
            continue
        for j in range(probe_count):
            letter = probe_letters[j]
            if j == k or probe_roles[j] != ROLE_NAME or letter < 0:
                continue
            if letter == probe_letters[k]:
                # Its own letter stands for another part only when two query parts share it.
                shared = 0
                for m in range(probe_count):
                    if probe_roles[m] == ROLE_NAME and probe_letters[m] == letter:
                        shared += 1
                if shared < 2:
                    continue
            for f in range(probe_offsets[k], probe_offsets[k + 1]):
                row = _find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], initial_codes + letter)
                if row >= 0:
                    range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                             k, found_values[f])
        if named == 1:
            # "J. Garcia": names with a Garcia and another part or an initial starting with J.
            for j in range(probe_count):
                if probe_roles[j] != ROLE_INITIAL or probe_letters[j] < 0:
                    continue
                for f in range(probe_offsets[k], probe_offsets[k + 1]):
                    row = _find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], letter_codes + probe_letters[j])
                    if row >= 0:
                        range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                                 k, found_values[f])
    for one in range(probe_count):
        if not common[one]:
            continue
        for other in range(probe_count):
            if other == one or not common[other]:
                continue
            # Every spelling of `one` with the closest few of `other`.
            other_values = found_values[probe_offsets[other]:probe_offsets[other + 1]]
            closest = _closest(other_values, paired_spellings)
            for f in range(probe_offsets[one], probe_offsets[one + 1]):
                for c in closest:
                    g = probe_offsets[other] + c
                    row = _find_pair(pair_keys, pair_buckets, pair_shift, found_parts[f], found_parts[g])
                    if row >= 0:
                        range_count = _add_range(ranges, range_count, FROM_PAIRS, pair_starts[row], pair_starts[row + 1],
                                                 one, found_values[f])

    # Gather. A name met again keeps each probe's best similarity; a new name's row gets its
    # NAME_RECORD. The insertion is written out here, once, for the reason above.
    upper = 0
    for r in range(range_count):
        upper += ranges[r].end - ranges[r].start
        # Every range's first postings asked for at once: their cache misses overlap.
        if ranges[r].source == FROM_POSTINGS:
            for p in range(ranges[r].start, min(ranges[r].end, ranges[r].start + 8), 2):
                prefetch(posting_records, p)
        elif ranges[r].source == FROM_SINGLES:
            prefetch(single_names, ranges[r].start)
        else:
            prefetch(pair_names, ranges[r].start)
    for r in range(range_count):
        if ranges[r].source == FROM_SINGLES:
            for p in range(ranges[r].start, ranges[r].end):
                prefetch(name_records, single_names[p])
        elif ranges[r].source == FROM_PAIRS:
            for p in range(ranges[r].start, ranges[r].end):
                prefetch(name_records, pair_names[p])
    keys, rows, similarity, records = _table(max(upper, 32), probe_count, name_records.dtype)
    mask = len(keys) - 1
    count = 0
    query_weight, query_contradicting = _query_weights(probe_weights, probe_roles)
    for r in range(range_count):
        entry = ranges[r]
        source, probe, value = entry.source, entry.probe, entry.value
        need = needed[probe] if source == FROM_POSTINGS else np.uint64(0)
        skips = probe == skipping
        for p in range(entry.start, entry.end):
            if source == FROM_POSTINGS:
                name = posting_records[p].name
                # A name with a single full part always counts (`_rare_part_evidence`).
                if need != 0 and posting_records[p].part_count > 1 and (posting_records[p].letters & need) == 0:
                    continue
            elif source == FROM_SINGLES:
                name = single_names[p]
            else:
                name = pair_names[p]
            slot = (name * 2654435761) & mask
            while True:
                key = keys[slot]
                if key == name:
                    row = rows[slot]
                    break
                if key == -1:
                    # (Listed initials may stand for the other part: such names always go in.)
                    if (skips and source == FROM_POSTINGS and (posting_records[p].letters >> np.uint64(32)) == 0
                            and _single_estimate(value, probe_weights[probe], query_weight, query_contradicting,
                                                 np.float64(posting_records[p].weight),
                                                 np.float64(posting_records[p].contradicting_weight),
                                                 penalties[0], penalties[1], penalties[2]) < floor):
                        row = -1
                        break
                    row = count
                    keys[slot] = name
                    rows[slot] = row
                    records[row] = posting_records[p] if source == FROM_POSTINGS else name_records[name]
                    count += 1
                    break
                slot = (slot + 1) & mask
            if row >= 0 and value > similarity[row, probe]:
                similarity[row, probe] = value

    similarity = similarity[:count]
    records = records[:count]
    names = np.empty(count, dtype=np.int32)
    for row in range(count):
        names[row] = records[row].name

    # Probes that brought no names (initials, particles) and common parts, whatever brought
    # their names, are read off each candidate's own parts, through a per-part table of their
    # values: a pair's other part gets its value here.
    pending = False
    for k in range(probe_count):
        if not opened[k] and probe_offsets[k + 1] > probe_offsets[k]:
            pending = True
    if pending:
        for row in range(count):
            prefetch(name_parts, records[row].first_part)
    for k in range(probe_count):
        if opened[k] or probe_offsets[k + 1] == probe_offsets[k]:
            continue
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part_value[found_parts[f]] = found_values[f]
        for row in range(count):
            first = records[row].first_part
            for position in range(first, first + records[row].length):
                value = part_value[name_parts[position]]
                if value > similarity[row, k]:
                    similarity[row, k] = value
        for f in range(probe_offsets[k], probe_offsets[k + 1]):
            part_value[found_parts[f]] = 0.0

    by_initial = _match_initials(probe_roles, probe_letters, initial_similarity, similarity, records)
    estimates = _estimate(probe_weights, probe_roles, role_weights, penalties, similarity, by_initial, records)
    return names, estimates


@njit(cache=True)
def _rare_part_evidence(probe_offsets, found_parts, probe_roles, probe_letters, opened, named, query_initials,
                        part_first_letters):
    """What a name brought in by a rare part must show to reach the threshold, per probe, in
    the layout of `NAME_RECORD.letters` (letters one of its other full parts may start with,
    and above them letters its initials may have), or 0 when every name counts. A name with
    a single full part always counts.

    With two or more full parts in the query, a name that matches one of them and has a
    different other full part is a conflict (score at most 1 / 3), the rule that already
    keeps common parts from bringing all their names. A rare part's name therefore counts
    only when it has a single full part, or a full part starting as another query part or
    one of its spellings does (or as a query initial), or an initial of a query part's
    letter. Reading these letters is one look per name, instead of the part reads and the
    estimate that a candidate costs; most of a typo-rich list's names fail it. Scripts
    without Latin first letters are not checked."""
    probe_count = len(probe_roles)
    needed = np.zeros(probe_count, dtype=np.uint64)
    if named < 2 and not (named == 1 and query_initials):
        return needed
    spelled = np.zeros(probe_count, dtype=np.uint32)  # first letters of a probe's own and its spellings' texts
    full_letters = np.uint32(0)
    initial_letters = np.uint32(0)
    for j in range(probe_count):
        letter = probe_letters[j]
        if probe_roles[j] == ROLE_INITIAL and letter >= 0:
            initial_letters |= np.uint32(1) << np.uint32(letter)
        if probe_roles[j] != ROLE_NAME:
            continue
        if letter < 0:
            return needed
        spelled[j] = np.uint32(1) << np.uint32(letter)
        full_letters |= spelled[j]
        for f in range(probe_offsets[j], probe_offsets[j + 1]):
            first = part_first_letters[found_parts[f]]
            if first < 0:
                return needed
            spelled[j] |= np.uint32(1) << np.uint32(first)
    for k in range(probe_count):
        if not opened[k] or probe_roles[k] != ROLE_NAME:
            continue
        others = initial_letters
        for j in range(probe_count):
            if j != k and probe_roles[j] == ROLE_NAME:
                others |= spelled[j]
        needed[k] = np.uint64(others) | (np.uint64(full_letters | initial_letters) << np.uint64(32))
    return needed


def name_records(
    name_start: np.ndarray,
    weight: np.ndarray,
    contradicting_weight: np.ndarray,
    part_count: np.ndarray,
    part_letters: np.ndarray,
    repeated_letters: np.ndarray,
    initial_letters: np.ndarray,
) -> np.ndarray:
    """`name_layout`'s per-name arrays as one `NAME_RECORD` per name."""
    lengths = np.diff(name_start)
    if len(name_start) and (name_start[-1] >= 2**32 or (len(lengths) and lengths.max() >= 2**16)):
        raise ValueError("too many name parts for the index layout: at most 65,535 a name and 2**32 in all")
    records = np.zeros(len(weight), dtype=NAME_RECORD)
    records["letters"] = part_letters.astype(np.uint64) | (initial_letters.astype(np.uint64) << np.uint64(32))
    records["weight"] = weight
    records["contradicting_weight"] = contradicting_weight
    records["name"] = np.arange(len(weight), dtype=np.int32)
    records["repeated_letters"] = repeated_letters
    records["first_part"] = name_start[:-1]
    records["part_count"] = part_count
    records["length"] = lengths
    return records


@njit(cache=True)
def _match_initials(
    probe_roles, probe_letters, initial_similarity, similarity, records,
) -> np.ndarray:
    """An initial stands for one unmatched full part with its letter on the other side
    ("R. Rivas" against "Salma Rivas": the R of Rivas is taken by Rivas itself). Returns,
    per candidate, a bit set of the probes matched so (probes past the 63rd are not marked)."""
    probe_count = len(probe_roles)
    by_initial = np.zeros(len(records), dtype=np.int64)
    query_initials = False
    for k in range(probe_count):
        if probe_roles[k] == ROLE_INITIAL:
            query_initials = True
    for row in range(len(records)):
        record = records[row]
        listed_initials = np.uint32(record.letters >> np.uint64(32))
        if not query_initials and listed_initials == 0:
            continue
        matched = 0
        for k in range(probe_count):
            if probe_roles[k] == ROLE_NAME and similarity[row, k] > 0:
                matched += 1
        free_parts = np.int64(record.part_count) - matched
        free_initials = np.uint32(listed_initials)
        for k in range(probe_count):
            letter = probe_letters[k]
            if letter < 0 or similarity[row, k] != 0:
                continue
            bit = np.uint32(1) << np.uint32(letter)
            if probe_roles[k] == ROLE_INITIAL:
                taken = False
                for j in range(probe_count):
                    if probe_roles[j] == ROLE_NAME and probe_letters[j] == letter and similarity[row, j] > 0:
                        taken = True
                letters = record.repeated_letters if taken else np.uint32(record.letters & np.uint64(0xFFFFFFFF))
                if free_parts > 0 and (np.uint32(letters) & bit) != 0:
                    free_parts -= 1
                    similarity[row, k] = initial_similarity
                    if k < 63:
                        by_initial[row] |= np.int64(1) << np.int64(k)
            elif (free_initials & bit) != 0:
                free_initials &= ~bit
                similarity[row, k] = initial_similarity
                if k < 63:
                    by_initial[row] |= np.int64(1) << np.int64(k)
    return by_initial


@njit(cache=True)
def _query_weights(probe_weights, probe_roles):
    """The query's weight and contradicting weight as `_estimate` counts them (glued parts aside)."""
    query_weight = 0.0
    query_contradicting = 0.0
    for k in range(len(probe_weights)):
        if probe_roles[k] != ROLE_GLUED:
            query_weight += probe_weights[k]
            if probe_roles[k] != ROLE_UNCONTRADICTING:
                query_contradicting += probe_weights[k]
    return query_weight, query_contradicting


@njit(cache=True)
def _single_estimate(value: float, weight: float, query_weight: float, query_contradicting: float,
                     listed_weight: float, listed_contradicting: float, conflict: float, query_extra: float,
                     list_extra: float) -> float:
    """`_estimate` of a name that one full query part of `weight` matches at `value` and no other
    part or initial does: the same operations, so the same float."""
    pair = (weight + weight) / 2
    return _estimate_of(pair, pair * value, weight, weight, weight, weight, False, query_weight, query_contradicting,
                        listed_weight, listed_contradicting, conflict, query_extra, list_extra)


@njit(cache=True)
def _estimate_of(evidence: float, achieved: float, query_mass: float, listed_mass: float,
                 query_contradicting_mass: float, listed_contradicting_mass: float, by_initial: bool,
                 query_weight: float, query_contradicting: float, listed_weight: float, listed_contradicting: float,
                 conflict: float, query_extra: float, list_extra: float) -> float:
    """`score.alignment_score`'s formula on the matched parts' sums (see `_estimate`)."""
    # Several probes may claim the same listed part: never count more than there is.
    if not by_initial:
        evidence = query_mass = listed_mass = min(evidence, min(query_weight, listed_weight))
    else:
        query_mass = min(query_mass, query_weight)
        listed_mass = min(listed_mass, listed_weight)
        evidence = min(evidence, (query_weight + listed_weight) / 2)
    achieved = min(achieved, evidence)
    conflicting = max(min(query_contradicting - query_contradicting_mass,
                          listed_contradicting - listed_contradicting_mass), 0.0)
    denominator = (
        evidence
        + conflict * conflicting
        + query_extra * max(query_weight - query_mass - conflicting, 0.0)
        + list_extra * max(listed_weight - listed_mass - conflicting, 0.0)
    )
    return achieved / denominator if denominator > 0 else 0.0


@njit(cache=True)
def _estimate(probe_weights, probe_roles, role_weights, penalties, similarity, by_initial, records):
    """`score.alignment_score` with each query part aligned to its best match in the name.

    A pair weighs the mean of its two parts' weights. Both parts weigh the same except
    where an initial stands for a full part (`by_initial`): "K." for "Kristina" weighs
    (0.5 + 1) / 2 and uses up the whole of "Kristina", as the scorer counts it."""
    probe_count = len(probe_weights)
    query_weight, query_contradicting = _query_weights(probe_weights, probe_roles)
    full_weight, initial_weight = role_weights[0], role_weights[1]
    conflict, query_extra, list_extra = penalties[0], penalties[1], penalties[2]
    estimates = np.zeros(len(records), dtype=np.float64)
    for row in range(len(records)):
        evidence = achieved = query_mass = listed_mass = query_contradicting_mass = listed_contradicting_mass = 0.0
        initials = by_initial[row]
        for k in range(probe_count):
            value = similarity[row, k]
            if value > 0:
                query_part = probe_weights[k]
                listed_part = query_part
                if k < 63 and (initials >> np.int64(k)) & 1:
                    listed_part = full_weight if probe_roles[k] == ROLE_INITIAL else initial_weight
                pair = (query_part + listed_part) / 2
                evidence += pair
                achieved += pair * value
                query_mass += query_part
                listed_mass += listed_part
                if probe_roles[k] != ROLE_UNCONTRADICTING:
                    query_contradicting_mass += query_part
                    listed_contradicting_mass += listed_part
        estimates[row] = _estimate_of(
            evidence, achieved, query_mass, listed_mass, query_contradicting_mass, listed_contradicting_mass,
            initials != 0, query_weight, query_contradicting, np.float64(records[row].weight),
            np.float64(records[row].contradicting_weight), conflict, query_extra, list_extra)
    return estimates


@njit(cache=True)
def shortlist(
    names: np.ndarray,
    estimates: np.ndarray,
    name_entity: np.ndarray,
    threshold: float,
    wanted: int,
    long_shots: int,
    margin: float,
    floor: float,
) -> np.ndarray:
    """The best-estimated name of the most promising entities, an entity's runner-up alias
    when estimated about as well, and the best names of a few long shots below the margin."""
    keep = np.flatnonzero(estimates >= floor)
    most = 4 * wanted
    if len(keep) > most:
        # Only names estimated at least as well as the most-th best can be among the first
        # most in (estimate, name) order: select those before sorting (thousands -> ~most).
        negated = -estimates[keep]
        cutoff = np.partition(negated, most - 1)[most - 1]
        keep = keep[negated <= cutoff]
    by_name = keep[np.argsort(names[keep])]
    order = by_name[np.argsort(-estimates[by_name], kind="mergesort")][:most]
    n = len(order)
    entities = name_entity[names[order]]
    # Each entity's first (best-estimated) name, through a small hash set of the entities.
    first = np.zeros(n, dtype=np.bool_)
    size = 16
    while size < 2 * n:
        size *= 2
    seen = np.full(size, -1, dtype=np.int64)
    slot_of = np.empty(n, dtype=np.int64)  # the entity's slot
    for i in range(n):
        entity = entities[i]
        slot = (entity * 2654435761) & (size - 1)
        while seen[slot] != -1 and seen[slot] != entity:
            slot = (slot + 1) & (size - 1)
        if seen[slot] == -1:
            seen[slot] = entity
            first[i] = True
        slot_of[i] = slot
    chosen = np.empty(n, dtype=np.int64)
    shots = np.empty(n, dtype=np.int64)
    is_chosen = np.zeros(size, dtype=np.bool_)  # per entity slot
    has_runner = np.zeros(size, dtype=np.bool_)
    chosen_count = shot_count = 0
    for i in range(n):
        if not first[i]:
            continue
        if estimates[order[i]] >= threshold - margin:
            if chosen_count < wanted - long_shots:
                chosen[chosen_count] = i
                chosen_count += 1
                is_chosen[slot_of[i]] = True
        elif shot_count < long_shots:
            shots[shot_count] = i
            shot_count += 1
    runners = np.empty(n, dtype=np.int64)
    runner_count = 0
    for i in range(n):
        if first[i] or estimates[order[i]] < threshold - margin:
            continue
        slot = slot_of[i]
        if is_chosen[slot] and not has_runner[slot]:
            # The entity's second name in estimate order, once.
            has_runner[slot] = True
            runners[runner_count] = i
            runner_count += 1
    out = np.empty(chosen_count + runner_count + shot_count, dtype=np.int32)
    for c in range(chosen_count):
        out[c] = names[order[chosen[c]]]
    for r in range(runner_count):
        out[chosen_count + r] = names[order[runners[r]]]
    for s in range(shot_count):
        out[chosen_count + runner_count + s] = names[order[shots[s]]]
    return out


@njit(cache=True)
def shortlisted_names(names: np.ndarray, name_entity: np.ndarray, name_weak: np.ndarray, text_offsets: np.ndarray,
                      text_blob: np.ndarray):
    """Each name's entity, weak flag and text (`MatchIndex._names`): rows [name, (entity, weak,
    end of its text)] and the UTF-8 texts back to back. The index's arrays are far apart in
    memory; read here, one name's waits overlap the next's, which a Python loop's do not."""
    count = len(names)
    rows = np.empty((count, 3), dtype=np.int64)
    for k in range(count):
        prefetch(name_entity, names[k])
        prefetch(name_weak, names[k])
    total = 0
    for k in range(count):
        total += text_offsets[names[k] + 1] - text_offsets[names[k]]
        prefetch(text_blob, text_offsets[names[k]])
    texts = np.empty(total, dtype=np.uint8)
    end = 0
    for k in range(count):
        name = names[k]
        start = end
        end += text_offsets[name + 1] - text_offsets[name]
        texts[start:end] = text_blob[text_offsets[name]:text_offsets[name + 1]]
        rows[k, 0] = name_entity[name]
        rows[k, 1] = name_weak[name]
        rows[k, 2] = end
    return rows, texts


@njit(cache=True)
def shortlisted_candidates(
    name_entity: np.ndarray, name_weak: np.ndarray, text_offsets: np.ndarray, text_blob: np.ndarray,
    threshold: float, wanted: int, long_shots: int, margin: float, floor: float, *candidate_arguments,
):
    """`candidates`, `shortlist` and `shortlisted_names` in one call: the shortlisted names and
    their entities, weak flags and texts. The thousands of candidates and their estimates stay
    here instead of going to Python and back (two calls fewer, two arrays not made objects)."""
    names, estimates = candidates(*candidate_arguments)
    chosen = shortlist(names, estimates, name_entity, threshold, wanted, long_shots, margin, floor)
    rows, texts = shortlisted_names(chosen, name_entity, name_weak, text_offsets, text_blob)
    return chosen, rows, texts


# -- comparison: the scores of the shortlisted names ----------------------------------------------

# What a name's score in `alignment_scores` still needs from Python.
SCORE_DONE = 0
SCORE_JOINED_OTHER_COUNT = 1  # below JOINED_SIMILARITY, part counts differ: `joined_similarity`
SCORE_JOINED_SAME_COUNT = 2  # below it, same part and letter counts: the same letters split elsewhere?
SCORE_IN_PYTHON = 3  # parts left over on both sides glue together (`_glues`): `align` pairs them

# Part roles, as the scorer tells them apart.
PART_NAME = 0
PART_UNCONTRADICTING = 1  # particles and titles
PART_OTHER = 2  # initials, legal forms, generic words, numbers

LONGEST_GLUED_RUN = 4  # align.LONGEST_GLUED_RUN
LARGEST_TYPO_BUDGET = 3  # align.edit_similarity's, for the longest parts


@njit(cache=True)
def distinct_parts(names: np.ndarray, name_start: np.ndarray, name_parts: np.ndarray) -> np.ndarray:
    """The parts of the names, sorted, each once."""
    total = 0
    for name in names:
        total += name_start[name + 1] - name_start[name]
    found = np.empty(total, dtype=np.int64)
    n = 0
    for name in names:
        for position in range(name_start[name], name_start[name + 1]):
            found[n] = name_parts[position]
            n += 1
    return np.unique(found)


@njit(cache=True)
def _could_glue(free_one, roles_one, letters_one, free_other, letters_other) -> bool:
    """Whether a free full part of one side could equal a run of adjacent free parts of the
    other glued together (`align._glue_runs`): only if their lengths are within a typo budget."""
    for i in range(len(free_one)):
        if not free_one[i] or roles_one[i] != PART_NAME:
            continue
        for start in range(len(free_other)):
            if not free_other[start]:
                continue
            length = letters_other[start]
            end = start + 1
            while end - start < LONGEST_GLUED_RUN and end < len(free_other) and free_other[end]:
                length += letters_other[end]
                end += 1
                if abs(length - letters_one[i]) <= LARGEST_TYPO_BUDGET:
                    return True
    return False


@njit(cache=True)
def _glues(one_codes, one_at, one_roles, one_syllabic, free_one, other_codes, other_at, other_syllabic, free_other,
           glued, rows, min_similarity: float) -> bool:
    """Whether `align._glue_runs` glues anything: a free full part of one side equal, or
    similar enough, to a run of adjacent free parts of the other glued together. Parts'
    code points are one_codes[one_at[i]:one_at[i + 1]]; `glued` is scratch, long enough."""
    for i in range(len(free_one)):
        if not free_one[i] or one_roles[i] != PART_NAME:
            continue
        token = one_codes[one_at[i]:one_at[i + 1]]
        for start in range(len(free_other)):
            if not free_other[start]:
                continue
            length = other_at[start + 1] - other_at[start]
            glued[:length] = other_codes[other_at[start]:other_at[start + 1]]
            syllabic = one_syllabic[i] or other_syllabic[start]
            end = start + 1
            while end - start < LONGEST_GLUED_RUN and end < len(free_other) and free_other[end]:
                part = other_codes[other_at[end]:other_at[end + 1]]
                glued[length:length + len(part)] = part
                length += len(part)
                syllabic = syllabic or other_syllabic[end]
                end += 1
                if _same_codes(token, glued[:length]):
                    return True
                if not syllabic and edit_similarity(token, glued[:length], rows) >= min_similarity:
                    return True
    return False


@njit(cache=True)
def _glue_either_way(query_codes, query_at, query_roles, query_syllabic, free_query,
                     listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
                     rows, min_similarity: float) -> bool:
    """`_glues` of a free query part with list parts, or of a free list part with query parts.
    query_at and listed_at: where each part's code points start, and the end."""
    glued = np.empty(max(query_at[len(query_at) - 1], listed_at[len(listed_at) - 1]), dtype=np.int64)
    return (
        _glues(query_codes, query_at, query_roles, query_syllabic, free_query,
               listed_codes, listed_at, listed_syllabic, free_listed, glued, rows, min_similarity)
        or _glues(listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
                  query_codes, query_at, query_syllabic, free_query, glued, rows, min_similarity)
    )


@njit(cache=True, inline='always')
def _pair_up(query_count, listed_count, listed_rows, similarity, query_weights, listed_weights,
             values, weights, queries, listeds, order, free_query, free_listed, pairs, pair_values) -> int:
    """`align.align`'s pairing over columns (list part j's column is similarity[listed_rows[j]]):
    the candidate pairs sorted best first, (similarity, weight, -distance, i, j) descending as
    `align` sorts its tuples, then each part used once. Fills pairs [pair, (query part, list
    part)], pair_values and the free flags; returns the number of pairs. values, weights,
    queries, listeds and order are scratch of query_count * listed_count."""
    candidates = 0
    for j in range(listed_count):
        for i in range(query_count):
            value = similarity[listed_rows[j], i]
            if value > 0.0:
                values[candidates] = value
                weights[candidates] = query_weights[i] + listed_weights[j]
                queries[candidates] = i
                listeds[candidates] = j
                candidates += 1
    for a in range(candidates):
        order[a] = a
    for a in range(1, candidates):  # insertion sort: a few dozen pairs
        c = order[a]
        b = a - 1
        while b >= 0 and _pair_before(c, order[b], values, weights, queries, listeds):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = c
    free_query[:] = True
    free_listed[:] = True
    pair_count = 0
    for a in range(candidates):
        c = order[a]
        i, j = queries[c], listeds[c]
        if free_query[i] and free_listed[j]:
            free_query[i] = False
            free_listed[j] = False
            pairs[pair_count, 0], pairs[pair_count, 1] = i, j
            pair_values[pair_count] = values[c]
            pair_count += 1
    return pair_count


@njit(cache=True, inline='always')
def _aligned_score(pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
                   query_weights, query_roles, query_texts, query_letter_total,
                   listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap,
                   joined_score):
    """After `_pair_up` (and no glued parts): `align`'s dropping of repeated parts, then
    `score.alignment_score`; (score, SCORE_*: what `score.compare_names` still does with it).
    any_query and any_listed: whether parts were left free before the repeats went."""
    if not any_listed and any_query:
        _drop_repeats(free_query, query_texts, pairs, pair_count, 0)
    if not any_query and any_listed:
        _drop_repeats(free_listed, listed_texts, pairs, pair_count, 1)
    score = _alignment_score(pair_count, pairs, pair_values, query_weights, query_roles,
                             listed_weights, listed_roles, free_query, free_listed, penalties,
                             without_full_part_cap)
    need = SCORE_DONE
    if score < joined_score:
        if len(listed_weights) != len(query_weights):
            need = SCORE_JOINED_OTHER_COUNT
        elif letter_total == query_letter_total:
            need = SCORE_JOINED_SAME_COUNT
    return score, need


@njit(cache=True)
def alignment_scores(
    query_weights: np.ndarray,  # float64 per query part
    query_roles: np.ndarray,  # int8, PART_*
    query_texts: np.ndarray,  # int64: equal for query parts of equal text
    query_letters: np.ndarray,  # int64: letters in each query part
    names: np.ndarray,  # int64 name numbers
    name_start: np.ndarray,  # name n's parts are name_parts[name_start[n]:name_start[n + 1]]
    name_parts: np.ndarray,
    rows: np.ndarray,  # int64 `distinct_parts` of the names: the rows of `similarity`
    similarity: np.ndarray,  # float64 [row, query part]: a `similarity_column` per row
    part_weights: np.ndarray,  # per vocabulary part
    part_roles: np.ndarray,  # int8, PART_*
    part_letters: np.ndarray,
    part_texts: np.ndarray,  # equal for parts of equal text
    penalties: np.ndarray,  # conflict, query_extra, list_extra
    without_full_part_cap: float,
    joined_score: float,  # JOINED_SIMILARITY
    query: np.ndarray,  # the query parts as `similarity_matrix` reads them (QUERY_*)
    part_syllabic: np.ndarray,  # bool per vocabulary part: Han or Hangul, kept as written
    codes: np.ndarray,  # uint32, the vocabulary parts' texts back to back
    offsets: np.ndarray,
    min_similarity: float,  # align.MIN_SIMILARITY
):
    """`score.compare_names` of the query against many names, compiled. The alignment is
    `align.align`'s over columns (the caller checks that the query has no patronymic
    markers), the score `score.alignment_score`'s in the same order of operations, so the
    same floats. Returns (scores, what each still needs: SCORE_*, and the alignments:
    pair_count [name], pairs [name, pair, (query part, list part)] in `align`'s order, and
    flags of the parts left over, unmatched_query [name, query part] and unmatched_listed
    [name, list part]). A name whose need is SCORE_IN_PYTHON has no score or alignment."""
    count = len(names)
    query_count = len(query_weights)
    query_letter_total = 0
    for i in range(query_count):
        query_letter_total += query_letters[i]
    longest = 0
    for n in range(count):
        longest = max(longest, name_start[names[n] + 1] - name_start[names[n]])
    scores = np.zeros(count, dtype=np.float64)
    needs = np.zeros(count, dtype=np.int8)
    pair_counts = np.zeros(count, dtype=np.int64)
    pairs_out = np.zeros((count, query_count, 2), dtype=np.int64)
    unmatched_query = np.zeros((count, query_count), dtype=np.bool_)
    unmatched_listed = np.zeros((count, longest), dtype=np.bool_)
    # Scratch for one name at a time, allocated once.
    values = np.empty(query_count * longest, dtype=np.float64)
    weights = np.empty(query_count * longest, dtype=np.float64)
    queries = np.empty(query_count * longest, dtype=np.int64)
    listeds = np.empty(query_count * longest, dtype=np.int64)
    order = np.empty(query_count * longest, dtype=np.int64)
    free_query = np.empty(query_count, dtype=np.bool_)
    pair_values = np.empty(query_count, dtype=np.float64)
    listed_rows = np.empty(longest, dtype=np.int64)
    listed_weights_scratch = np.empty(longest, dtype=np.float64)
    listed_roles_scratch = np.empty(longest, dtype=np.int8)
    listed_letters_scratch = np.empty(longest, dtype=np.int64)
    listed_texts_scratch = np.empty(longest, dtype=np.int64)
    # For the test of glued parts: the query parts' code points, and a list name's when asked.
    query_codes, query_at, query_syllabic = _query_texts(query, query_count)
    listed_at = np.zeros(longest + 1, dtype=np.int64)
    listed_syllabic = np.empty(longest, dtype=np.bool_)
    glue_rows = np.empty((3, 64), dtype=np.int32)
    for n in range(count):
        first = name_start[names[n]]
        listed_count = name_start[names[n] + 1] - first
        listed_weights = listed_weights_scratch[:listed_count]
        listed_roles = listed_roles_scratch[:listed_count]
        listed_letters = listed_letters_scratch[:listed_count]
        listed_texts = listed_texts_scratch[:listed_count]
        letter_total = 0
        for k in range(listed_count):
            part = name_parts[first + k]
            listed_rows[k] = np.searchsorted(rows, part)
            listed_weights[k] = part_weights[part]
            listed_roles[k] = part_roles[part]
            listed_letters[k] = part_letters[part]
            listed_texts[k] = part_texts[part]
            letter_total += part_letters[part]
        free_listed = unmatched_listed[n, :listed_count]
        pairs = pairs_out[n]
        pair_count = _pair_up(query_count, listed_count, listed_rows, similarity, query_weights, listed_weights,
                              values, weights, queries, listeds, order, free_query, free_listed, pairs, pair_values)
        pair_counts[n] = pair_count
        any_query, any_listed = free_query.any(), free_listed.any()
        if any_query and any_listed and (
            _could_glue(free_query, query_roles, query_letters, free_listed, listed_letters)
            or _could_glue(free_listed, listed_roles, listed_letters, free_query, query_letters)
        ):
            # Lengths allow it: do the texts? (Rarely: 25 of 1,660 such names in the benchmark.)
            for k in range(listed_count):
                part = name_parts[first + k]
                listed_at[k + 1] = listed_at[k] + offsets[part + 1] - offsets[part]
                listed_syllabic[k] = part_syllabic[part]
            listed_codes = _part_codes(name_parts, first, first + listed_count, codes, offsets)
            if _glue_either_way(query_codes, query_at, query_roles, query_syllabic, free_query,
                                listed_codes, listed_at[:listed_count + 1], listed_roles, listed_syllabic,
                                free_listed, glue_rows, min_similarity):
                needs[n] = SCORE_IN_PYTHON
                continue
        scores[n], needs[n] = _aligned_score(
            pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
            query_weights, query_roles, query_texts, query_letter_total,
            listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap, joined_score,
        )
        unmatched_query[n] = free_query
    return scores, needs, pair_counts, pairs_out, unmatched_query, unmatched_listed


@njit(cache=True)
def _query_texts(query: np.ndarray, query_count: int):
    """The query parts' texts (QUERY_*) as `_glues` reads them: code points back to back
    (int64), where each starts, and whether each is syllabic."""
    starts = _query_starts(query, query_count)
    at = np.zeros(query_count + 1, dtype=np.int64)
    syllabic = np.empty(query_count, dtype=np.bool_)
    for i in range(query_count):
        at[i + 1] = at[i] + query[starts[i] + QUERY_TEXT_LENGTH]
        syllabic[i] = query[starts[i] + QUERY_SYLLABIC] != 0
    codes = np.empty(at[query_count], dtype=np.int64)
    for i in range(query_count):
        text = starts[i] + QUERY_HEAD
        codes[at[i]:at[i + 1]] = query[text:text + at[i + 1] - at[i]]
    return codes, at, syllabic


@njit(cache=True)
def _texts_and_fathers(query: np.ndarray, starts: np.ndarray, markers: np.ndarray):
    """Of packed parts (QUERY_*): a number per part, equal for parts of equal text (the
    first such part's position), and whether each is a father's name (the part after a
    patronymic marker, `align._patronymic_positions`)."""
    count = len(starts)
    texts = np.empty(count, dtype=np.int64)
    fathers = np.zeros(count, dtype=np.bool_)
    for k in range(count):
        texts[k] = k
        for before in range(k):
            if _same_codes(_query_part(query, starts[k])[0], _query_part(query, starts[before])[0]):
                texts[k] = before
                break
        fathers[k] = k > 0 and markers[k - 1] != 0
    return texts, fathers


@njit(cache=True)
def pair_score(query_packed, query_weights, listed_packed, listed_weights, penalties, constants):
    """`score.compare_names(query, listed).score` of one pair, compiled: `similarity_matrix`'s
    part similarities and `alignment_scores`' alignment and score, for two names packed alike
    (`pair.PackedName`: per part its PART_* role, letters and whether a patronymic marker,
    then the parts as QUERY_*; and the parts' weights). `constants`: `score.PAIR_CONSTANTS`.
    Returns (score, SCORE_*); with SCORE_IN_PYTHON (parts glue) `align` finds the score."""
    initial_similarity, variant_similarity, phonetic_similarity = constants[0], constants[1], constants[2]
    skeleton_similarity, near_skeleton_similarity, min_similarity = constants[3], constants[4], constants[5]
    role_mismatch_factor, without_full_part_cap, joined_score = constants[6], constants[7], constants[8]
    query_count, listed_count = len(query_weights), len(listed_weights)
    query, listed = query_packed[3 * query_count:], listed_packed[3 * listed_count:]
    query_roles, query_letters = query_packed[0:3 * query_count:3], query_packed[1:3 * query_count:3]
    listed_roles, listed_letters = listed_packed[0:3 * listed_count:3], listed_packed[1:3 * listed_count:3]
    query_starts = _query_starts(query, query_count)
    listed_starts = _query_starts(listed, listed_count)
    query_texts, query_fathers = _texts_and_fathers(query, query_starts, query_packed[2:3 * query_count:3])
    listed_texts, listed_fathers = _texts_and_fathers(listed, listed_starts, listed_packed[2:3 * listed_count:3])
    similarity = np.zeros((listed_count, query_count), dtype=np.float64)
    reasons = np.zeros((listed_count, query_count), dtype=np.int8)
    scratch = np.empty((3, 64), dtype=np.int32)
    # The list name's parts as `_similarities` reads them: ranges of `listed` and arrays.
    text_start, text_end = np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64)
    skeleton_end, symbol_end = np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64)
    syllabic, abjad = np.empty(listed_count, dtype=np.bool_), np.empty(listed_count, dtype=np.bool_)
    form, role, phonetic = (np.empty(listed_count, dtype=np.int64), np.empty(listed_count, dtype=np.int64),
                            np.empty(listed_count, dtype=np.int64))
    for j in range(listed_count):
        at = listed_starts[j]
        text_start[j] = at + QUERY_HEAD
        text_end[j], skeleton_end[j], symbol_end[j] = _query_ends(listed, at)
        syllabic[j], abjad[j] = listed[at + QUERY_SYLLABIC] != 0, listed[at + QUERY_ABJAD] != 0
        form[j], role[j], phonetic[j] = listed[at + QUERY_FORM], listed[at + QUERY_ROLE], listed[at + QUERY_PHONETIC]
    for i in range(query_count):
        a, a_skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad = _query_part(query, query_starts[i])
        _similarities(a, a_skeleton, a_symbols, a_syllabic, a_form, a_role, a_phonetic, a_abjad,
                      listed, text_start, text_end, listed, text_end, skeleton_end, listed, skeleton_end, symbol_end,
                      syllabic, form, role, phonetic, abjad, scratch, initial_similarity, variant_similarity,
                      phonetic_similarity, skeleton_similarity, near_skeleton_similarity, min_similarity,
                      similarity, reasons, i)
    if query_fathers.any() and listed_fathers.any():
        # `align`: with fathers' names on both sides, a father's name stands weaker against a person's own.
        for j in range(listed_count):
            for i in range(query_count):
                if similarity[j, i] > 0.0 and query_fathers[i] != listed_fathers[j]:
                    similarity[j, i] *= role_mismatch_factor
    size = query_count * listed_count
    values, weights = np.empty(size, dtype=np.float64), np.empty(size, dtype=np.float64)
    queries, listeds = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    order = np.empty(size, dtype=np.int64)
    free_query, free_listed = np.empty(query_count, dtype=np.bool_), np.empty(listed_count, dtype=np.bool_)
    pairs = np.empty((min(query_count, listed_count), 2), dtype=np.int64)
    pair_values = np.empty(min(query_count, listed_count), dtype=np.float64)
    pair_count = _pair_up(query_count, listed_count, np.arange(listed_count), similarity, query_weights,
                          listed_weights, values, weights, queries, listeds, order, free_query, free_listed,
                          pairs, pair_values)
    any_query, any_listed = free_query.any(), free_listed.any()
    if any_query and any_listed and (
        _could_glue(free_query, query_roles, query_letters, free_listed, listed_letters)
        or _could_glue(free_listed, listed_roles, listed_letters, free_query, query_letters)
    ):
        query_codes, query_at, query_syllabic = _query_texts(query, query_count)
        listed_codes, listed_at, listed_syllabic = _query_texts(listed, listed_count)
        if _glue_either_way(query_codes, query_at, query_roles, query_syllabic, free_query,
                            listed_codes, listed_at, listed_roles, listed_syllabic, free_listed,
                            scratch, min_similarity):
            return 0.0, SCORE_IN_PYTHON
    query_letter_total, letter_total = 0, 0
    for i in range(query_count):
        query_letter_total += query_letters[i]
    for j in range(listed_count):
        letter_total += listed_letters[j]
    return _aligned_score(
        pair_count, pairs, pair_values, any_query, any_listed, free_query, free_listed,
        query_weights, query_roles, query_texts, query_letter_total,
        listed_weights, listed_roles, listed_texts, letter_total, penalties, without_full_part_cap, joined_score,
    )


@njit(cache=True)
def _part_codes(name_parts: np.ndarray, first: int, last: int, codes: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The texts of parts name_parts[first:last] as code points, back to back."""
    total = 0
    for k in range(first, last):
        total += offsets[name_parts[k] + 1] - offsets[name_parts[k]]
    out = np.empty(total, dtype=np.int64)
    at = 0
    for k in range(first, last):
        part = name_parts[k]
        out[at:at + offsets[part + 1] - offsets[part]] = codes[offsets[part]:offsets[part + 1]]
        at += offsets[part + 1] - offsets[part]
    return out


@njit(cache=True)
def joined_scores(
    scores: np.ndarray,
    needs: np.ndarray,  # as `alignment_scores` gives them: changed in place
    names: np.ndarray,
    text_offsets: np.ndarray,  # the names' texts, `PackedStrings.arrays`
    text_bytes: np.ndarray,  # uint8, UTF-8 back to back
    query_joined: np.ndarray,  # code points of the query's `NormalizedName.joined`
    name_start: np.ndarray,
    name_parts: np.ndarray,
    part_syllabic: np.ndarray,  # bool per vocabulary part: its form is not its text
    codes: np.ndarray,  # uint32, the vocabulary parts' texts back to back
    offsets: np.ndarray,
    joined_score: float,  # score.JOINED_SIMILARITY
    joined_typo_score: float,  # score.JOINED_TYPO_SIMILARITY
    joined_typo_min_length: int,
) -> int:
    """What Python's `MatchIndex._score_names` did for names left needing SCORE_JOINED_*;
    each becomes SCORE_DONE. Their joined letters (`normalize.joined_letters`): for a name
    written in ASCII, its letters and digits in lower case, read off the text's bytes; for
    others, its parts' forms, which are their texts unless Han or Hangul. A name with Han or
    Hangul parts keeps its need, for Python. Returns how many names still need Python."""
    rows = np.empty((3, 64), dtype=np.int32)
    listed = np.empty(64, dtype=np.int64)
    query_length = len(query_joined)
    for n in range(len(names)):
        need = needs[n]
        if need != SCORE_JOINED_OTHER_COUNT and need != SCORE_JOINED_SAME_COUNT:
            continue
        first, last = text_offsets[names[n]], text_offsets[names[n] + 1]
        if last - first > len(listed):
            listed = np.empty(last - first, dtype=np.int64)
        length = 0
        ascii = True
        for i in range(first, last):
            byte = text_bytes[i]
            if byte >= 128:
                ascii = False
                break
            if 65 <= byte <= 90:
                byte += 32
            if 97 <= byte <= 122 or 48 <= byte <= 57:
                listed[length] = byte
                length += 1
        joined = listed[:length]
        if not ascii:
            first_part, last_part = name_start[names[n]], name_start[names[n] + 1]
            if part_syllabic[name_parts[first_part:last_part]].any():
                continue  # joined by the forms, which are not in `codes`: left to Python
            joined = _part_codes(name_parts, first_part, last_part, codes, offsets)
            length = len(joined)
        same = _same_codes(joined, query_joined)
        if need == SCORE_JOINED_SAME_COUNT:
            if same:
                scores[n] = joined_score  # "Hon-gsop" / "Hong-sop"
        else:  # score.joined_similarity
            value = 0.0
            if same and length > 0:
                value = joined_score
            elif (min(length, query_length) >= joined_typo_min_length and abs(length - query_length) <= 1
                  and osa_distance(query_joined, joined, 1, rows) <= 1):
                value = joined_typo_score
            if value > scores[n]:
                scores[n] = value
        needs[n] = SCORE_DONE
    left = 0
    for n in range(len(names)):
        if needs[n] != SCORE_DONE:
            left += 1
    return left


@njit(cache=True)
def _drop_repeats(free: np.ndarray, texts: np.ndarray, pairs: np.ndarray, pair_count: int, side: int) -> None:
    """`align._drop_repeats`: a part left over on one side (0 the query's, 1 the list name's)
    whose text is aligned already adds nothing."""
    for k in range(len(free)):
        if free[k]:
            for p in range(pair_count):
                if texts[pairs[p, side]] == texts[k]:
                    free[k] = False
                    break


@njit(cache=True, inline='always')
def _pair_before(a: int, b: int, values, weights, queries, listeds) -> bool:
    """Whether candidate pair a sorts before b in `align`'s descending tuple order."""
    if values[a] != values[b]:
        return values[a] > values[b]
    if weights[a] != weights[b]:
        return weights[a] > weights[b]
    distance_a, distance_b = abs(queries[a] - listeds[a]), abs(queries[b] - listeds[b])
    if distance_a != distance_b:
        return distance_a < distance_b
    if queries[a] != queries[b]:
        return queries[a] > queries[b]
    return listeds[a] > listeds[b]


@njit(cache=True)
def _leftover(free: np.ndarray, weights: np.ndarray, roles: np.ndarray):
    left = 0.0
    contradicting = 0.0
    for position in range(len(free)):
        if free[position]:
            left += weights[position]
            if roles[position] != PART_UNCONTRADICTING:
                contradicting += weights[position]
    return left, contradicting


@njit(cache=True)
def _alignment_score(pair_count, pairs, pair_values, query_weights, query_roles, listed_weights, listed_roles,
                     free_query, free_listed, penalties, without_full_part_cap) -> float:
    """`score.alignment_score`, operation for operation."""
    achieved = 0.0
    evidence = 0.0
    full_part_aligned = False
    for p in range(pair_count):
        weight = 0.0
        weight += query_weights[pairs[p, 0]]
        weight += listed_weights[pairs[p, 1]]
        weight /= 2
        achieved += pair_values[p] * weight
        evidence += weight
        full_part_aligned = full_part_aligned or (
            query_roles[pairs[p, 0]] == PART_NAME and listed_roles[pairs[p, 1]] == PART_NAME
        )
    if achieved == 0.0:
        return 0.0
    if not full_part_aligned:
        achieved = min(achieved, evidence * without_full_part_cap)
    query_left, query_contradicting = _leftover(free_query, query_weights, query_roles)
    listed_left, listed_contradicting = _leftover(free_listed, listed_weights, listed_roles)
    conflicting = min(query_contradicting, listed_contradicting)
    denominator = (
        evidence
        + penalties[0] * conflicting
        + penalties[1] * (query_left - conflicting)
        + penalties[2] * (listed_left - conflicting)
    )
    return achieved / denominator
