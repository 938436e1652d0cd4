"""A person's name in two parts, as entered, and the one string everybody reads.

A name that comes in two parts (typed "Family, Given" in the add box, a pasted list or a CSV cell; a CSV's
last name/first name or 姓/名 columns; a TRF's "Surname, First name"; the swiss-event file's `family_name` and
`given_name`) keeps both parts, and its display name is written as that name's own culture writes it:

- family name first for a name in Chinese characters, kana or Hangul: 木村, 拓也 is shown 木村 拓也;
- given name first otherwise: Hellström, Viktor is shown Viktor Hellström.

A name typed as one string ("Viktor Hellström", "木村 拓也") has no parts: it is shown as typed and written
to a TRF as it is. The rules are here, in one place, for every way a name comes in or goes out: the web
app's add box, paste and CSV (`tournament.files.csv_rosters`), its player form, the event file and the TRF.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Scripts that write the family name first: CJK ideographs (with 々 and 〆), kana (full- and half-width)
# and Hangul.
_FAMILY_FIRST = re.compile(
    "[\u3005\u3006\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u1100-\u11ff"
    "\u3130-\u318f\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff]"
)
# A family or given name typed before or after the comma: letters (any script), with spaces, apostrophes,
# hyphens or periods between them. "Andersen, Player007" or "Smith, John, 1500" is not a name in two parts.
_PART = re.compile(r"[^\W\d_]+(?:[ '’.\-]+[^\W\d_]+)*\.?")
# "Davis, Jr." is a name and its suffix, not a family name and a given name.
_SUFFIXES = {"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"}


def _plain(text: str) -> str:
    return " ".join(text.split())


def family_first(*parts: str) -> bool:
    """Whether a name in these parts is written family name first: it is in Chinese characters, kana or Hangul."""
    return any(_FAMILY_FIRST.search(p) for p in parts)


def display_name(family: str, given: str) -> str:
    """The name as its culture writes it: 木村 拓也, Viktor Hellström; one part alone as it is."""
    family, given = _plain(family), _plain(given)
    if not (family and given):
        return family or given
    return f"{family} {given}" if family_first(family, given) else f"{given} {family}"


def split_typed(text: str) -> tuple[str, str] | None:
    """`Family, Given` as (family, given); None for a name typed as one string ("Viktor Hellström", "Davis, Jr.")."""
    family, comma, given = (_plain(p) for p in text.partition(","))
    if not (comma and _PART.fullmatch(family) and _PART.fullmatch(given)) or given.casefold() in _SUFFIXES:
        return None
    return family, given


def agrees(name: str, family: str, given: str) -> bool:
    """Whether `name` is these parts, in either order or typed "Family, Given" (case and spacing aside)."""
    name = _plain(name).casefold()
    family, given = _plain(family).casefold(), _plain(given).casefold()
    return name in (f"{given} {family}", f"{family} {given}", f"{family}, {given}") or split_typed(name) == (
        family,
        given,
    )


@dataclass(frozen=True)
class Name:
    """A name as stored: the display name, and its family and given names (both, or neither)."""

    name: str
    family: str = ""
    given: str = ""


class Disagree(ValueError):
    """The name and the parts given with it are two different names."""


def entered(name: str = "", family: str = "", given: str = "") -> Name:
    """A name from what was given: a name alone (split when typed "Family, Given"), its two parts alone (the
    display name made from them), or both (which must agree: `Disagree` otherwise). One part without the
    other is a name in one part. Spaces are collapsed; nothing else is cleaned here."""
    name = _plain(name)
    if family or given:
        family, given = _plain(family), _plain(given)
        if family and given:
            if not name or split_typed(name) == (family, given):
                return Name(display_name(family, given), family, given)
            if not agrees(name, family, given):
                raise Disagree(name)
            return Name(name, family, given)
        if not name:
            return Name(family or given)
    parts = split_typed(name) if "," in name else None
    if parts:
        return Name(display_name(*parts), *parts)
    return Name(name)


def trf_name(name: str, family: str, given: str) -> str:
    """The name a TRF player line writes, as FIDE's rating lists do: "Hellström, Viktor" (the name as it is
    when its parts are not known)."""
    return f"{family}, {given}" if family and given else name


def sort_form(name: str, family: str, given: str) -> str:
    """The name as an alphabetical list orders it: by family name when the parts are known ("Hellström Viktor"),
    else as it is written."""
    return f"{family} {given}" if family and given else name


# Cleaning a name as typed into the name stored: every way in (forms, paste, CSV, event files, TRF) goes
# through `stored_name`, and a name is refused for the `name_fault` it has (tournament/text/names.py says it).
NAME_MAX = 200
# Bidirectional embeddings, overrides, isolates and marks: invisible, and they reorder what follows them
# (a name can make the rest of a line read backwards). Dropped from names, never stored.
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
_HALF_WIDTH_KANA = re.compile(r"[\uff61-\uff9f]+")


def half_width_kana_to_full(text: str) -> str:
    """ｻｲﾄｳ → サイトウ: what a registration stores and shows (the rest of the name is kept as typed)."""
    return _HALF_WIDTH_KANA.sub(lambda m: unicodedata.normalize("NFKC", m[0]), text)


def stored_name(raw: str) -> str:
    """A player's name as stored: runs of whitespace made one space, bidi controls dropped, half-width katakana
    (ｻｲﾄｳ, from an old keyboard or a spreadsheet) as the full-width a list shows."""
    return half_width_kana_to_full(" ".join(str(raw).translate(BIDI_CONTROLS).split()))


def stored_reading(raw: str | None) -> str:
    """A reading as stored: one space between words, half-width katakana as full-width (ｻｲﾄｳ → サイトウ)."""
    return half_width_kana_to_full(" ".join(str(raw or "").split()))


def name_fault(name: str) -> str | None:
    """Why a stored name is refused: "control" when it holds a control character (NUL, escape sequences: a name
    is printed on terminals and slips), "surrogate" when it holds half of a character (a lone surrogate, which
    no database stores), "invisible" when nothing of it is visible (only spaces or zero-width characters),
    "too_long" past NAME_MAX; None for a good name."""
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "control"
    if _LONE_SURROGATE.search(name):
        return "surrogate"
    if not any(unicodedata.category(c)[0] in "LNPS" for c in name):
        return "invisible"
    if len(name) > NAME_MAX:
        return "too_long"
    return None


def printable(text: str) -> str:
    """`text` with control characters shown as \\xNN and lone surrogates as \\udXXX, for messages about them."""
    return "".join(
        c if unicodedata.category(c) not in ("Cc", "Cs") else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
        for c in text
    )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
