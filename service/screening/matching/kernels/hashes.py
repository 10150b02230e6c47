"""Sorted 64-bit hashes found in one or two reads, and the prefetch hint.

Lookup keys and pair keys are stored as sorted hashes with a bucket table over their top
bits (`hash_buckets`), so that a lookup reads a cache line or two instead of binary-searching
millions of entries. Compiled because the candidate and lookup kernels call these per key.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic


PAIR_MIX = np.uint64(0x9E3779B97F4A7C15)

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


# -- sorted 64-bit hashes, found in one or two steps ----------------------------------------------

def hash_buckets(hashes: np.ndarray) -> np.ndarray:
    """Where each run of sorted hashes with the same top bits starts: about one hash per
    bucket, so a lookup reads a bucket instead of binary-searching millions of entries."""
    bits = min(max(int(len(hashes)).bit_length(), 4), 30)
    tops = hashes >> np.uint64(64 - bits)
    return np.searchsorted(tops, np.arange(2**bits + 1, dtype=np.uint64)).astype(np.int32 if len(hashes) < 2**31 else np.int64)


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
def find_pair(pair_keys: np.ndarray, pair_buckets: np.ndarray, shift: np.uint64, a: int, b: int) -> int:
    """Row of the pair of parts a and b, or -1."""
    first, end = hashed_range(pair_keys, pair_buckets, shift, pair_hash(a, b))
    return first if end > first else -1
