"""Names as people type and sort them, in Latin and Japanese script (issue 14).

`fold` is what search and alphabetical order compare: Unicode NFKC (full-width "ＡＢＣ" and half-width
katakana "ﾀﾛｳ" become "ABC" and "タロウ"), case folding, katakana folded into hiragana (タロウ = たろう),
Latin accents dropped ("José" finds "jose") and every apostrophe the same (O’Brien); the kana voicing
marks stay (が is not か). A player's
optional reading (furigana, or a sort name) orders alphabetical lists and is searched as well.
static/js/public.js folds the same way for the filter that runs as you type.
"""

import unicodedata

_KATAKANA = range(0x30A1, 0x30F7)  # ァ..ヶ; ヷ-ヺ and the iteration marks have no hiragana twin
_KANA_MARKS = {"\u3099", "\u309a"}  # combining voiced / semi-voiced sound marks
# A phone keyboard types ' where the registration has ’ (O’Brien): every apostrophe is the same.
APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'"})


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text.translate(APOSTROPHES)).casefold()
    text = "".join(chr(ord(c) - 0x60) if ord(c) in _KATAKANA else c for c in text)
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c) or c in _KANA_MARKS)
    return unicodedata.normalize("NFC", kept)


def sort_key(name: str, reading: str = "") -> str:
    """Alphabetical order: by the reading when there is one (a kanji name sorts by how it is read)."""
    return fold(reading or name)


def matches(query: str, name: str, reading: str = "") -> bool:
    q = fold(query)
    return q in fold(name) or (bool(reading) and q in fold(reading))
