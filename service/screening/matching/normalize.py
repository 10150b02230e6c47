"""Names to comparable tokens.

A name becomes a tuple of `NameToken`: ASCII text in one case, with the role the
token plays (a given or family name, an initial, a particle such as "al" or
"van", a title, a legal form, a generic company word, a number) and a weight
that says how much evidence it carries. Other scripts are transliterated to
Latin; Han and Hangul keep their characters too, because there one different
character is a different name, not a typo.

Work is cached per whitespace-separated chunk: real lists repeat the same
given and family names endlessly, so each spelling is analysed once.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from rigour._core import person_name_prefixes_list, text_scripts
from rigour.names import (
    NameTypeTag,
    analyze_names,
    remove_obj_prefixes,
    remove_person_prefixes,
    replace_org_types_compare,
    tokenize_name,
)
from rigour.text import ascii_text, metaphone

PERSON = "person"
ORGANIZATION = "organization"
OBJECT = "object"

# Token roles.
NAME = "name"
INITIAL = "initial"
PARTICLE = "particle"
TITLE = "title"
LEGAL = "legal"
GENERIC = "generic"
NUMBER = "number"

# How much a token of each role counts as evidence, relative to a full name part.
ROLE_WEIGHTS = {
    NAME: 1.0,
    INITIAL: 0.5,
    PARTICLE: 0.2,
    TITLE: 0.1,
    LEGAL: 0.25,
    GENERIC: 0.5,
    NUMBER: 0.3,  # series numbers ("Fund IV", "Trust 2004-1") tell sister entities apart, weakly
}

# Joiners inside personal names: articles, "son of", nobiliary particles.
PERSON_PARTICLES = frozenset(
    "al el ul bin ibn ben bint binti abu abou umm ould "
    "van von der den de del della di da dos das du la le zu ter y".split()
)
# Titles and honorifics that may stand anywhere in a name, in several languages.
PERSON_TITLES = frozenset(
    "mr mrs ms miss dr prof sir dame lord lady sheikh shaikh shaykh sheik haji hajji hadji alhaji "
    "mullah mulla maulvi mawlawi maulana mufti qari imam sayyed sayyid syed hazrat "
    "president presidente presidenta praesident prasident presiden predsjednik presedintele "
    "prezident prezydent elnok general colonel gen col capt captain excellency".split()
)
# Legal forms a person's name sometimes carries when it names their company.
PERSON_LEGAL_SUFFIXES = frozenset("sa llc ltd inc gmbh ag plc bv nv srl sarl spa oy ab as".split())
# Symbols from rigour's organisation vocabulary that mark generic company words.
GENERIC_ORG_SYMBOLS = frozenset(
    "CO CORP INTL GRP HOLDING ORG TRUST FUND PARTNER INDUSTRIES ENTERPRISE SOLUTIONS "
    "SERVICES SYSTEMS TECH ASSOC FOUNDATION".split()
)
ABJAD_SCRIPTS = frozenset({"Arabic", "Hebrew", "Syriac"})
# Scripts where each character is a syllable or a morpheme; compared character for character.
SYLLABIC_SCRIPTS = frozenset({"Han", "Hangul"})
LEET_DIGITS = str.maketrans("0134578", "oieastb") | {ord("9"): "g"}
ROMAN_NUMERAL = re.compile(r"^(?=[ivx]+$)x{0,3}(ix|iv|v?i{0,3})$")
# Abjads write consonants only, so Latin vowels (and the vowel letters w/y) are dropped.
SKELETON_TABLE = str.maketrans({"p": "b", "v": "f", "q": "k", "c": "k", "a": None, "e": None,
                                "i": None, "o": None, "u": None, "y": None, "w": None})
DOUBLED = re.compile(r"(.)\1+")
# ASCII characters other than letters and digits (what [\W_] matches among them): left out of joined names.
ASCII_NOT_ALPHANUMERIC = bytes(code for code in range(128) if not chr(code).isalnum())
# "-owitsch", "-ovitch", "-owicz", "-ovics", "-ovych": one Slavic patronymic suffix, spelt per language.
SLAVIC_PATRONYMIC = re.compile(r"([aeo])[vw](?:itsch|itsj|itch|itj|itx|ich|ych|icz|ics|ici|ic)$")
PERSON_PREFIXES = person_name_prefixes_list()  # rigour's honorifics ("Mr", "Dr.", "His Excellency")
# The first word of each prefix, lower case, without a final dot: a name whose first word is
# not one of them has no prefix to remove (`_without_person_prefixes`).
PERSON_PREFIX_FIRST_WORDS = frozenset(prefix.split()[0].lower().rstrip(".") for prefix in PERSON_PREFIXES)
# A word only in scripts with no Latin letters (and no characters that match one when case is
# ignored): Greek, Cyrillic, Armenian, Hebrew, Arabic, Devanagari, Thai, Georgian, Hangul Jamo,
# Hiragana and Katakana, CJK, Hangul syllables.
NON_LATIN_WORD = re.compile(
    "[\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u0590-\u05ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f"
    "\u10a0-\u10ff\u1100-\u11ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]+"
)
# True of rigour's list today; should a later version add a prefix in such a script, every
# name goes through its expression again.
PERSON_PREFIXES_LATIN = not any(NON_LATIN_WORD.search(prefix) for prefix in PERSON_PREFIXES)
MIDDLE_DOTS = re.compile("[\u00b7\u30fb\u2022\u2027]")
# Apostrophes and the Arabic ayn/hamza marks transliteration leaves inside words.
APOSTROPHES = re.compile("['\u02bb\u02bc\u02be\u02bf\u2018\u2019`]")


@dataclass(frozen=True, slots=True)
class NameToken:
    """One comparable part of a name."""

    text: str  # lowercase ASCII comparison form
    form: str  # original characters for Han/Hangul tokens, else the same as text
    role: str
    weight: float
    phonetic: str  # metaphone key, "" when the token is too short or not alphabetic
    skeleton: str  # consonant skeleton, compared when one side was written in an abjad
    abjad: bool
    symbols: frozenset[str]  # rigour name/variant/number symbols shared by spellings of one name

    @property
    def syllabic(self) -> bool:
        return self.form != self.text


class NormalizedName:
    """A name as comparable tokens, keeping the original for explanations."""

    __slots__ = ("original", "kind", "tokens", "_joined", "_packed")

    def __init__(self, original: str, kind: str, tokens: tuple[NameToken, ...]) -> None:
        self.original = original
        self.kind = kind  # PERSON | ORGANIZATION | OBJECT
        self.tokens = tokens
        self._joined: str | None = None
        self._packed = None  # `pair.pair_packings`: numbers of this process, never pickled

    def __reduce__(self):
        return NormalizedName, (self.original, self.kind, self.tokens)

    @property
    def joined(self) -> str:
        """Every letter and digit of the name, for "SiemensAG" vs "Siemens AG"; computed when asked."""
        if self._joined is None:
            self._joined = joined_letters(self.original, self.tokens)
        return self._joined

    def __repr__(self) -> str:
        return f"NormalizedName({self.original!r}, {[token.text for token in self.tokens]})"


def name_kind(schema: str) -> str:
    """Person names and organisation names are normalised differently; vessels are objects."""
    if schema == "Person":
        return PERSON
    if schema in ("Vessel", "Airplane"):
        return OBJECT
    return ORGANIZATION


def normalize_name(name: str, schema: str = "Person") -> NormalizedName:
    """Tokens of a name, cached: screening asks for the same names over and over."""
    return _normalize_cached(name, name_kind(schema))


@lru_cache(maxsize=100_000)
def _normalize_cached(name: str, kind: str) -> NormalizedName:
    return normalize(name, kind)


def normalize(name: str, kind: str) -> NormalizedName:
    """Uncached normalisation, for index builds that see each name once."""
    if name.isascii():  # NFKC leaves ASCII as it is, and middle dots are not ASCII
        text, foreign_name = name.strip(), False
    else:
        text = unicodedata.normalize("NFKC", name).strip()
        # Chinese and Japanese separate the parts of foreign names with a middle dot.
        foreign_name = bool(MIDDLE_DOTS.search(text))
        text = MIDDLE_DOTS.sub(" ", text)
    if kind == PERSON:
        text = _family_name_last(_without_person_prefixes(text))
    elif kind == ORGANIZATION:
        text = _canonical_org_types(text)
    else:
        text = remove_obj_prefixes(text)
    chunks = text.split()
    # "习近平": family and given name written together; "민석 백" is already split.
    whole_name = len(chunks) == 1 and not foreign_name
    tokens: list[NameToken] = []
    for chunk in chunks:
        tokens.extend(_chunk_tokens(chunk, kind, whole_name))
    if kind == PERSON:
        tokens = _mark_person_legal_suffix(tokens)
    else:
        tokens = _merge_number_words(tokens)
    return NormalizedName(name, kind, tuple(tokens))


def joined_letters(name: str, tokens: list[NameToken] | tuple[NameToken, ...]) -> str:
    """The name's letters without spaces or punctuation, before legal forms are rewritten."""
    if name.isascii():
        # Deleted as bytes: a sixth of a regular expression's time, for ~7 shortlisted names a search.
        return name.lower().encode().translate(None, ASCII_NOT_ALPHANUMERIC).decode()
    return "".join(token.form for token in tokens)


def split_alternatives(name: str, schema: str) -> list[str]:
    """Organisation lists write alternative names with a slash: "Al-Qa'ida/Islamic Army"."""
    if name_kind(schema) == PERSON or "/" not in name:
        return [name]
    parts = [part.strip() for part in name.split("/")]
    if all(sum(c.isalpha() for c in part) >= 3 for part in parts):
        return parts
    return [name]


def _without_person_prefixes(text: str) -> str:
    """rigour's `remove_person_prefixes` ("Mr", "Dr.", "His Excellency" and leading
    punctuation off), called only when the name could start with one: its expression tries
    135 prefixes at the head of every name, and most names start with none of them."""
    head = text[:1]
    if head.isalnum() or head == "_":  # else rigour strips the leading punctuation or spaces
        first = text.split(maxsplit=1)[0]
        if first.isascii():
            if first.lower().rstrip(".") not in PERSON_PREFIX_FIRST_WORDS:
                return text
        elif PERSON_PREFIXES_LATIN and NON_LATIN_WORD.fullmatch(first):
            return text  # every prefix is written in Latin letters
    return remove_person_prefixes(text)


def _family_name_last(text: str) -> str:
    """"PUTIN, Vladimir" is the list convention for "Vladimir PUTIN"."""
    family, comma, given = text.partition(",")
    if comma and given.strip() and "," not in given:
        return f"{given.strip()} {family.strip()}"
    return text.replace(",", " ")


def _canonical_org_types(text: str) -> str:
    """Legal forms become one compare class ("Aktiengesellschaft", "AG", "SA" -> "jsc")."""
    # Series numbers ("Fund II") first, so they are not mistaken for legal forms.
    words = [str(_roman_value(w)) if ROMAN_NUMERAL.match(w.lower()) else w for w in text.split()]
    text = replace_org_types_compare(" ".join(words), generic=True)
    if not text.isascii() and not _is_syllabic(text):
        text = replace_org_types_compare(ascii_text(text), generic=True)
    return text


def _roman_value(numeral: str) -> int:
    values = {"i": 1, "v": 5, "x": 10}
    total = 0
    digits = [values[c] for c in numeral.lower()]
    for position, value in enumerate(digits):
        following = digits[position + 1] if position + 1 < len(digits) else 0
        total += -value if value < following else value
    return total


def _is_syllabic(text: str) -> bool:
    return not SYLLABIC_SCRIPTS.isdisjoint(text_scripts(text))


@lru_cache(maxsize=500_000)
def _chunk_tokens(chunk: str, kind: str, whole_name: bool = False) -> tuple[NameToken, ...]:
    """Tokens of one whitespace-separated piece of a name."""
    chunk = chunk.casefold()
    if chunk.isascii():
        return tuple(_tokens_from_ascii(tokenize_name(chunk), kind, abjad=False, script_form=None))
    scripts = text_scripts(chunk)
    if not SYLLABIC_SCRIPTS.isdisjoint(scripts):
        return tuple(_syllabic_tokens(chunk, kind, split_family_name=whole_name))
    # "?" stands for characters without a Latin equivalent (the Arabic ayn, joiners).
    latin = APOSTROPHES.sub("", ascii_text(chunk).lower().replace("?", ""))
    abjad = not ABJAD_SCRIPTS.isdisjoint(scripts)
    parts = tokenize_name(latin)
    if not parts or not latin.isascii():
        # No transliteration for this script (e.g. Khmer): compare the letters themselves.
        parts = ["".join(c for c in chunk if unicodedata.category(c)[0] in "LN")]
    if abjad:
        parts = _split_attached_article(parts)
    return tuple(_tokens_from_ascii(parts, kind, abjad=abjad, script_form=chunk if len(parts) == 1 else None))


def _split_attached_article(parts: list[str]) -> list[str]:
    """Arabic writes the article joined to the word: "alsysy" is "al" + "sysy"."""
    out: list[str] = []
    for part in parts:
        if part.startswith("al") and len(part) > 4:
            out.extend(("al", part[2:]))
        else:
            out.append(part)
    return out


def _syllabic_tokens(chunk: str, kind: str, split_family_name: bool) -> list[NameToken]:
    """Han and Hangul: keep the characters, romanise for comparison with Latin spellings.

    A Chinese or Korean personal name of two to four characters is one syllable of
    family name followed by the given name, which Latin spellings write as one word
    ("习近平" -> "xi" + "jinping").
    """
    chars = [c for c in chunk if unicodedata.category(c)[0] in "LN"]
    if not chars:
        return []
    pieces = ["".join(chars)]
    if kind == PERSON and split_family_name and 2 <= len(chars) <= 4:
        pieces = [chars[0], "".join(chars[1:])]
    tokens = []
    for piece in pieces:
        text = "".join(tokenize_name(ascii_text(piece).lower()))
        if text:
            tokens.append(_make_token(text, kind, NAME, abjad=False, form=piece, symbol_source=piece))
    return tokens


def _tokens_from_ascii(parts: list[str], kind: str, abjad: bool, script_form: str | None) -> list[NameToken]:
    tokens: list[NameToken] = []
    for part in parts:
        if kind == PERSON and not part.isalpha() and not part.isdigit():
            part = part.translate(LEET_DIGITS)  # "Sech1n": digits standing in for letters
        if kind == PERSON and len(part) > 7:
            part = SLAVIC_PATRONYMIC.sub(r"\1vich", part)
        role = _role(part, kind)
        if role is None:
            continue
        if kind == PERSON and role == NAME and not abjad and _looks_like_initials(part):
            tokens.extend(_make_token(letter, kind, INITIAL, abjad=False) for letter in part)
            continue
        tokens.append(_make_token(part, kind, role, abjad=abjad, symbol_source=script_form))
    return tokens


def _looks_like_initials(part: str) -> bool:
    """"JC Juncker": two or three consonants standing alone are initials, not a name."""
    return 2 <= len(part) <= 3 and part.isascii() and part.isalpha() and not any(c in "aeiouy" for c in part)


def _role(part: str, kind: str) -> str | None:
    """The role a token plays; None for words that carry no identity ("the", "of")."""
    if part.isdigit():
        return NUMBER
    if kind == PERSON:
        if len(part) == 1:
            return INITIAL if part.isalpha() else None
        if part in PERSON_TITLES:
            return TITLE
        if part in PERSON_PARTICLES:
            return PARTICLE
        return NAME
    symbols = _org_symbols(part)
    if "STOP" in symbols:
        return None
    if "LEGAL" in symbols:
        return LEGAL
    if any(s.startswith("NUM:") for s in symbols):
        return NUMBER
    if any(s.removeprefix("SYMBOL:") in GENERIC_ORG_SYMBOLS for s in symbols):
        return GENERIC
    return NAME


def _make_token(
    text: str,
    kind: str,
    role: str,
    abjad: bool,
    form: str | None = None,
    symbol_source: str | None = None,
) -> NameToken:
    if role == NUMBER and kind != PERSON:
        text = _number_text(text)
    symbols = _person_symbols(text) if kind == PERSON else _org_symbols(text)
    if symbol_source and symbol_source != text:
        extra = _person_symbols(symbol_source) if kind == PERSON else _org_symbols(symbol_source)
        symbols = symbols | extra
    phonetic = metaphone(text) if text.isalpha() and len(text) > 1 else ""
    return NameToken(
        text=sys.intern(text),
        form=sys.intern(form) if form else sys.intern(text),
        role=role,
        weight=ROLE_WEIGHTS[role],
        phonetic=sys.intern(phonetic),
        skeleton=sys.intern(_skeleton(text)),
        abjad=abjad,
        symbols=_meaningful_symbols(symbols, role),
    )


def _meaningful_symbols(symbols: frozenset[str], role: str) -> frozenset[str]:
    """Particles keep only their function ("bin" = "ibn"), not the given names they resemble."""
    if role == PARTICLE:
        return frozenset(s for s in symbols if s.startswith("SYMBOL:"))
    return frozenset(s for s in symbols if s not in ("STOP", "LEGAL"))


def _number_text(text: str) -> str:
    """"1st", "first" and "1" are all the number 1."""
    if text.isdigit():
        return str(int(text))
    for symbol in _org_symbols(text):
        if symbol.startswith("NUM:"):
            return symbol[4:]
    return text


def _skeleton(text: str) -> str:
    return DOUBLED.sub(r"\1", text.translate(SKELETON_TABLE))


@lru_cache(maxsize=500_000)
def _person_symbols(text: str) -> frozenset[str]:
    """rigour's name database: spellings of one given or family name share a symbol."""
    symbols: set[str] = set()
    for name in analyze_names(NameTypeTag.PER, [text], consolidate=False, phonetics=False):
        for span in name.spans:
            if len(span.parts) == 1:
                symbols.add(sys.intern(f"{span.symbol.category.value}:{span.symbol.id}"))
    return frozenset(symbols)


@lru_cache(maxsize=200_000)
def _org_symbols(text: str) -> frozenset[str]:
    """Organisation vocabulary: legal forms, generic words, numbers, stopwords."""
    symbols: set[str] = set()
    for name in analyze_names(NameTypeTag.ORG, [text], consolidate=False, phonetics=False):
        for part in name.parts:
            if part.tag.value in ("STOP", "LEGAL"):
                symbols.add(part.tag.value)
        for span in name.spans:
            category = span.symbol.category.value
            if category != "NAME" and len(span.parts) == 1:
                symbols.add(sys.intern(f"{category}:{span.symbol.id}"))
    return frozenset(symbols)


def _mark_person_legal_suffix(tokens: list[NameToken]) -> list[NameToken]:
    """"Nicolás Maduro SA": a trailing legal form on a person's name weighs little."""
    if len(tokens) >= 3 and tokens[-1].text in PERSON_LEGAL_SUFFIXES:
        last = tokens[-1]
        tokens[-1] = NameToken(last.text, last.form, LEGAL, ROLE_WEIGHTS[LEGAL], last.phonetic,
                               last.skeleton, last.abjad, frozenset())
    return tokens


def _merge_number_words(tokens: list[NameToken]) -> list[NameToken]:
    """"Forty Four" is 44: a tens word followed by a unit word is one number."""
    merged: list[NameToken] = []
    for token in tokens:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and previous.role == NUMBER
            and token.role == NUMBER
            and previous.text.isdigit()
            and token.text.isdigit()
            and len(previous.text) == 2
            and previous.text.endswith("0")
            and len(token.text) == 1
        ):
            value = str(int(previous.text) + int(token.text))
            merged[-1] = _make_token(value, ORGANIZATION, NUMBER, abjad=False)
            continue
        merged.append(token)
    return merged
