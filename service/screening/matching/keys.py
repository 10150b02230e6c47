"""Keys under which spellings of a name part meet in the index.

A list part is stored under its exact key and under lookup keys; a query part
looks up its own lookup keys, and every hit is then verified with the scorer's
part similarity. Lookup keys:

- the part and its one- and (from five letters) two-letter deletions (SymSpell):
  spellings up to two typos apart share a key; these are hashed in `kernels`;
- its metaphone key, when at least three letters long;
- its rigour name symbols (Suhail / Sukhail / Suhayl);
- its consonant skeleton, bridging abjads (Arabic, Hebrew) and Latin spellings.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

from .kernels.spelling import MIN_FUZZY_KEY_LENGTH
from .normalize import NAME, NameToken

MIN_PHONETIC_KEY_LENGTH = 3  # two-letter metaphone keys ("JN") gather too many names
MIN_SKELETON_KEY_LENGTH = 3


def part_key(kind_code: str, token: NameToken) -> str:
    """Exact identity of a part: kind of name, role, characters."""
    return form_key(kind_code, token.role, token.form)


def form_key(kind_code: str, role: str, form: str) -> str:
    """`part_key` of a part not made into a token (yet)."""
    return f"{kind_code}{role[0]}{form}"


def fuzzy(token: NameToken) -> bool:
    """Whether the part is stored and looked up under its deletion keys (see `kernels`)."""
    return (
        token.role == NAME and not token.syllabic and len(token.text) >= MIN_FUZZY_KEY_LENGTH and token.text.isascii()
    )


def indexed_keys(kind_code: str, token: NameToken) -> list[str]:
    """Lookup keys other than deletions that a list part is stored under."""
    if token.role != NAME:
        return []
    keys = _symbol_keys(kind_code, token)
    if token.syllabic:
        return keys
    if len(token.phonetic) >= MIN_PHONETIC_KEY_LENGTH:
        keys.append(f"{kind_code}#{token.phonetic}")
    if len(token.skeleton) >= MIN_SKELETON_KEY_LENGTH:
        keys.append(f"{kind_code}%{'a' if token.abjad else 'l'}{token.skeleton}")
    return keys


class QueryKeys(NamedTuple):
    """A query part's lookup keys other than deletions, by what a hit on them means."""

    symbol: list[str]  # the hit is a known variant of the same name
    phonetic: list[str]  # the hit has the same metaphone key
    skeleton: list[str]  # the hit has the same consonants, in another script


def query_keys(kind_code: str, token: NameToken) -> QueryKeys:
    """Lookup keys a query part looks up, besides its deletions."""
    if token.role != NAME:
        return QueryKeys([], [], [])
    if token.syllabic:
        return QueryKeys(_symbol_keys(kind_code, token), [], [])
    phonetic = [f"{kind_code}#{token.phonetic}"] if len(token.phonetic) >= MIN_PHONETIC_KEY_LENGTH else []
    skeleton = []
    if len(token.skeleton) >= MIN_SKELETON_KEY_LENGTH:
        # Skeletons only bridge scripts: a Latin part meets abjad parts and vice versa.
        skeleton.append(f"{kind_code}%a{token.skeleton}")
        if token.abjad:
            skeleton.append(f"{kind_code}%l{token.skeleton}")
    return QueryKeys(symbol=_symbol_keys(kind_code, token), phonetic=phonetic, skeleton=skeleton)


def stable_hash(key: str) -> int:
    """64-bit hash that is the same in every process (Python's own is salted per process)."""
    data = key.encode()
    return (zlib.crc32(data) << 32) | zlib.adler32(data)


def _symbol_keys(kind_code: str, token: NameToken) -> list[str]:
    return [f"{kind_code}${symbol}" for symbol in token.symbols if symbol.startswith(("NAME:", "NICK:"))]
