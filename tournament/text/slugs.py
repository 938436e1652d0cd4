"""An event's address as its name reads: `京都オープン-2026-12-05-3fa9c1`, `aarhus-open-2026-12-05-…`.

Django's `slugify` keeps ASCII only, so a Japanese name left nothing (`5-2026-11-28-550c72`), and it wrote
Å as "a" where Danes write "aa" (Aarhus). Here the Danish and German letters are spelled out as their own
languages do without them, other Latin letters lose their accents, and every other script (kana, kanji,
hangul…) stays as written: the address is an IRI, which browsers show as typed and send percent-encoded.
"""

import re
import unicodedata

from django.utils.text import slugify

SPELLED = str.maketrans(
    {"æ": "ae", "Æ": "Ae", "ø": "oe", "Ø": "Oe", "å": "aa", "Å": "Aa", "ä": "ae", "Ä": "Ae", "ö": "oe", "Ö": "Oe"}
    | {"ü": "ue", "Ü": "Ue", "ß": "ss", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ł": "l", "Ł": "L"}
)
# What a URL path converter and the swiss-event file accept: word characters of any script, digits, - and _.
SLUG = re.compile(r"[-\w]+")


def _plain_latin(char: str) -> str:
    if "LATIN" not in unicodedata.name(char, ""):
        return char
    return "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))


def slug_text(text: str, max_length: int = 60) -> str:
    """`text` as an address part: lower case, words joined by -, at most `max_length` characters."""
    text = unicodedata.normalize("NFKC", text).translate(SPELLED)
    text = "".join(_plain_latin(c) for c in text)
    return slugify(text, allow_unicode=True)[:max_length].strip("-_")


class SlugConverter:
    """`<eventslug:slug>` in the URLs: a slug in any script."""

    regex = r"[-\w]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
