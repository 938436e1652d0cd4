"""Names as people type, find and sort them, in Latin and Japanese script (docs/languages.md).

`fold` is what every search compares, organiser's and public (static/js/public.js folds the same way for the
filter that runs as you type, with the tables of this module: `browser_line`). It is one folding for every
language, a superset of what each needs:

- Unicode NFKC (full-width "ＡＢＣ" and half-width katakana "ﾀﾛｳ" become "ABC" and "タロウ"), case folding,
  katakana folded into hiragana (タロウ = たろう); the kana voicing marks stay (が is not か);
- no spaces: a full name typed without one (やまだたろう, 山田太郎, sorenkirk) finds it;
- the variant kanji that name registers mix up (髙橋 = 高橋, 渡邊 = 渡邉 = 渡辺, 齋藤 = 齊藤 = 斉藤 = 斎藤, …);
- Latin accents dropped ("José" finds "jose") and the Danish letters folded as a Dane types them on a
  keyboard without them: ø → o, æ → ae, å and aa → a (soren finds Søren, aero finds Ærø, Aase is Åse,
  Nørgaard is Nørgård);
- every apostrophe the same (O’Brien).

`sort_key` is the order of every sorted list (roster, pairings, cards, players tied in the standings), chosen
by the event's language: Danish puts Æ, Ø, Å (and Aa) after Z; Japanese sorts by the reading (furigana) in
the order of the kana, voiced after unvoiced; English drops accents. A player's optional reading orders the
lists and is searched as well; without one, a name entered in two parts ("Hellström, Viktor") is listed by
its family name.

Why tables of our own rather than ICU: PyICU is published as source only, so `make test` on a fresh machine
would need a C++ compiler and libicu-dev; what these two languages need is the short lists below.
"""

import dataclasses
import json
import re
import unicodedata

from swiss.names import sort_form

_KATAKANA = range(0x30A1, 0x30F7)  # ァ..ヶ; ヷ-ヺ and the iteration marks have no hiragana twin
_KANA_MARKS = {"\u3099", "\u309a"}  # combining voiced / semi-voiced sound marks
# A phone keyboard types ' where the registration has ’ (O’Brien): every apostrophe is the same.
APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'"})
# Kanji that one family writes one way and a registration desk types another: each maps to the form a
# Japanese keyboard offers first. (The compatibility ideographs, 﨑 and the like, NFKC maps already.)
VARIANT_KANJI = str.maketrans(
    {
        "髙": "高",
        "邊": "辺",
        "邉": "辺",
        "齋": "斎",
        "齊": "斎",
        "斉": "斎",
        "嵜": "崎",
        "﨑": "崎",
        "濵": "浜",
        "濱": "浜",
        "澤": "沢",
        "櫻": "桜",
        "廣": "広",
        "國": "国",
        "嶋": "島",
        "嶌": "島",
        "冨": "富",
        "惠": "恵",
        "藏": "蔵",
        "眞": "真",
        "瀨": "瀬",
        "德": "徳",
        "彌": "弥",
        "龍": "竜",
        "實": "実",
        "淺": "浅",
        "曾": "曽",
        "栁": "柳",
        "籠": "篭",
        "槇": "槙",
    }
)
# The Danish letters as typed without them. Before accents are dropped: ø and æ do not decompose.
DANISH_TYPED = str.maketrans({"ø": "o", "æ": "ae", "å": "a", "ö": "o", "ä": "ae"})
_SPACES = re.compile(r"\s+")


def _base(text: str) -> str:
    """NFKC, case folded, katakana as hiragana, variant kanji unified, every apostrophe the same."""
    text = unicodedata.normalize("NFKC", text.translate(APOSTROPHES)).casefold()
    text = "".join(chr(ord(c) - 0x60) if ord(c) in _KATAKANA else c for c in text)
    return text.translate(VARIANT_KANJI)


def _strip_accents(text: str, keep=_KANA_MARKS) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c) or c in keep))


def fold(text: str) -> str:
    """The form every search compares (see the module's docstring)."""
    text = _SPACES.sub("", _base(text)).translate(DANISH_TYPED)
    return _strip_accents(text).replace("aa", "a")


# What a browser's toLowerCase leaves and Python's casefold folds, among the letters names are written in.
_CASEFOLD_BEYOND_LOWER = {"ß": "ss"}
# The line of static/js/public.js that carries the tables below to the filter that runs as you type.
BROWSER_LINE = "  var FOLD = {table};"


def browser_table() -> dict[str, object]:
    """The tables `fold` uses, for static/js/public.js: the apostrophes, and each letter that folds to
    another (variant kanji, the Danish letters as typed, and what the browser's lower case does not fold)."""
    letters = {chr(k): v for k, v in {**VARIANT_KANJI, **DANISH_TYPED}.items()} | _CASEFOLD_BEYOND_LOWER
    return {"apostrophes": "".join(sorted(chr(k) for k in APOSTROPHES)), "letters": dict(sorted(letters.items()))}


def browser_line() -> str:
    """The line of static/js/public.js that holds `browser_table` (`manage.py fold_table` writes it)."""
    return BROWSER_LINE.format(table=json.dumps(browser_table(), ensure_ascii=True, separators=(", ", ": ")))


def matches(query: str, name: str, reading: str = "") -> bool:
    q = fold(query)
    return q in fold(name) or (bool(reading) and q in fold(reading))


def ties_by_name(table, players, language: str):
    """Standings whose players equal on every figure (one rank) are listed as a person sorts names in
    `language`, not in the engine's code-point order. `players`: the event file's players (name, reading)."""
    keys = {p.id: sort_key(p.name, p.reading, language, p.family_name, p.given_name) for p in players}
    first: dict[int, int] = {}
    for i, r in enumerate(table.rows):
        first.setdefault(r.rank, i)
    rows = sorted(table.rows, key=lambda r: (first[r.rank], keys.get(r.player_id, ("", ""))))
    return dataclasses.replace(table, rows=tuple(rows))


# Danish order: the three letters after z, "aa" as å (Aalborg after Zealand), ä and ö as æ and ø, ü as y.
_DANISH_ORDER = str.maketrans({"æ": "{", "ä": "{", "ø": "|", "ö": "|", "å": "}", "ü": "y"})


def sort_key(name: str, reading: str = "", language: str = "en", family: str = "", given: str = "") -> tuple[str, str]:
    """Alphabetical order in `language`: by the reading when there is one (a kanji name sorts by how it is
    read), else by the family name when the name's parts are known (Viktor Hellström under H, as Danish lists
    are sorted: swiss/names.py), then by the name itself so that equal keys still sort the same way every time."""
    text = _SPACES.sub(" ", _base(reading or sort_form(name, family, given))).strip()
    if language == "da":
        text = text.replace("aa", "å").translate(_DANISH_ORDER)
    # Accents, and the kana voicing marks, matter only between otherwise equal names: Japanese order
    # (gojūon) puts が right after か, as a dictionary does, not after every word in か.
    return _strip_accents(text, keep=()), text


def player_key(player, language: str) -> tuple[str, str]:
    """A player's place in alphabetical order in the event's language: by the reading when there is one, else
    by the family name when it is known."""
    return sort_key(player.name, player.reading, language, player.family_name, player.given_name)
