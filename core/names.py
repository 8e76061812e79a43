"""One way to find and order the names people type, in every script the championships use.

`fold` is how a typed name is compared: case, accents, Arabic and Hebrew vowel marks, width and spacing
ignored, the Arabic and Persian forms of the same letter made one (ي and ی, ك and ک), and the Latin letters that
do not decompose written plain (ł as l, ø as o, æ as ae), so "tomas" finds "Tomás", "علي" finds "علی" and "lukasz"
finds "Łukasz". Players keep it in an indexed column (`Player.search_name`), so a search compares stored strings.
`sort_key` orders names by the Unicode Collation Algorithm (pyuca, the root collation: one order for Latin, Arabic,
Persian, Hebrew and the rest), so "Émile" sits next to "Emile" and not after "Z", and Persian پ comes after ب rather
than after every Arabic letter; players keep it too (`Player.sort_key`) for the database to order by.
"""
import functools
import struct
import unicodedata
from typing import Protocol

FOLD_MAX = 400
"""The longest fold kept: a name has at most 200 characters, but a few (ligatures such as ﷺ) unfold to many;
a database index takes at most about 2,700 bytes a row."""
SORT_KEY_MAX = 1024
"""Bytes of a collation key kept (an index row's limit again): the whole key of any ordinary name."""

_SCRIPT_VARIANTS = {
    "\u0640": None,  # Arabic tatweel (a stretching stroke, not a letter)
    "\u064a": "\u06cc", "\u0649": "\u06cc",  # Arabic yeh and alef maksura read as the Persian yeh
    "\u0643": "\u06a9",  # Arabic kaf as the Persian keheh
    "\u0629": "\u0647",  # teh marbuta as heh, as many type it
}
"""Letters of one script written in two ways, made one."""
LATIN_LETTERS = {
    "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "þ": "th", "ı": "i", "ħ": "h", "ŋ": "n", "ŧ": "t",
}
"""Latin letters that Unicode does not decompose into a base letter and a mark, as people type them without the
keyboard for them ("soren" for Søren, "lukasz" for Łukasz, "aegir" for Ægir). Only the small letters: `fold`
casefolds first, and every capital folds to its small letter (Ø to ø, Đ to đ, Ð to ð); ß and ẞ need nothing here,
casefolding writes them ss, and İ decomposes to i and a dot. Kept here, beside the script variants, rather than in a
data file: a dozen letters, read by the one translation below with nothing to load. Changing either table changes
`Player.search_name`: a data migration recomputes it (as championships' `refold_latin_letters` did)."""
_FOLDED_LETTERS = str.maketrans({**_SCRIPT_VARIANTS, **LATIN_LETTERS})


def fold(text: str) -> str:
    """The text as names are compared (NFKD, combining marks dropped, casefolded, letter variants made one, Latin
    letters without a decomposition written plain, spaces collapsed), at most FOLD_MAX characters."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.translate(_FOLDED_LETTERS).split())[:FOLD_MAX]


class _Collator(Protocol):
    def sort_key(self, text: str) -> tuple[int, ...]: ...


@functools.cache
def _collator() -> _Collator:
    from pyuca import Collator  # reads its table (about 0.1 s) on first use only

    collator: _Collator = Collator()
    return collator


def sort_key(text: str) -> bytes:
    """The name's collation key as bytes that sort as the key does (each weight big-endian in two bytes), so the
    database orders by it; at most SORT_KEY_MAX bytes."""
    weights = _collator().sort_key(" ".join(text.split()))
    return struct.pack(f">{len(weights)}H", *(min(w, 0xFFFF) for w in weights))[:SORT_KEY_MAX]
