"""Usernames that read alike: "ilse", "ılse" (a dotless ı), "ІLSE" (a Cyrillic І) and "ｉｌｓｅ" are one name to
a person reading a staff list, so they are one name here too.

`username_key` is Unicode's skeleton (UTS #39), kept simple: the name in NFKC and case-folded, then each
character replaced by one member of its class of look-alikes, the classes of Unicode's confusables table
(from the `confusable-homoglyphs` package, which Django sites use to refuse such names). "i", "l", "1" and
"I" share a class, so do "0", "o" and "O"; letters of other scripts join the Latin letter they pass for.
"""

import json
import unicodedata
from functools import cache
from importlib import resources


@cache
def _classes() -> dict[str, str]:
    """Each character that has look-alikes, mapped to one member of its class (the lowest: the ASCII one)."""
    table = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    for char, alikes in table.items():
        if len(char) != 1:
            continue
        for alike in alikes:
            other = alike["c"].replace("\u200e", "")  # the table marks right-to-left letters
            if len(other) == 1:
                join(char, other)
    # Names are compared case-folded: a class that holds a capital Latin letter holds its small one too
    # ("O" passes for "0", so "o" does; "I" for "l", so "i" does).
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if letter in parent:
            join(letter, letter.lower())
    return {c: find(c) for c in parent}


def username_key(name: str) -> str:
    """What two usernames share when a reader could take one for the other (case, width, look-alikes)."""
    classes = _classes()
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # invisible joiners and marks
    return "".join(classes.get(c, c) for c in text.casefold())
