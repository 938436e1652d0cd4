"""How players are named on pages and in exports.

A name is shown as typed; when two players of an event share a name (ignoring case and spacing), each of them
is shown with their player number, "Alex Kim (#4)", wherever a name appears: pairings, slips, standings and the
screen. Exports always carry the number in a column of its own.
"""

from collections import Counter

from django.utils.translation import gettext

from swiss.names import stored_name
from tournament.models import Player
from tournament.records.validators import check_player_name


def clean_player_name(raw: str) -> str:
    """A player's name as stored: runs of whitespace made one space, bidi controls dropped, half-width katakana
    as full-width (`swiss.names.stored_name`).

    Refused (ValidationError) when it holds a control character (NUL, escape sequences: a name is printed on
    terminals and slips) or nothing visible (only spaces or zero-width characters), or is longer than NAME_MAX
    (`validators.check_player_name`). Every way in (forms, paste, CSV, event files) goes through here.
    """
    name = stored_name(raw)
    check_player_name(name)
    return name


def fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def numbered(name: str, number: int | None) -> str:
    if number is None:
        return name
    return gettext("%(name)s (#%(number)s)") % {"name": name, "number": number}


class Names:
    """The display names of one event's players (one query)."""

    def __init__(self, rows):
        """`rows`: (pk, key, name, number) of every player of the event."""
        self.by_pk: dict[int, tuple[str, int]] = {}
        self.by_key: dict[str, tuple[str, int]] = {}
        seen: Counter[str] = Counter()
        for pk, key, name, number in rows:
            self.by_pk[pk] = self.by_key[key] = (name, number)
            seen[fold(name)] += 1
        self.clashing = {n for n, count in seen.items() if count > 1}

    @classmethod
    def of(cls, event_id: int) -> "Names":
        return cls(Player.objects.filter(event_id=event_id).values_list("pk", "key", "name", "number"))

    def clash(self, name: str) -> bool:
        return fold(name) in self.clashing

    def number(self, who) -> int | None:
        """The player number of a Player, a player's pk, a player's key, or a standings row (by its player_id)."""
        if isinstance(who, Player):
            # From the event's list, not the instance: a page may have loaded its players without the number.
            return self.by_pk[who.pk][1] if who.pk in self.by_pk else who.number
        if isinstance(who, int):
            return self.by_pk.get(who, (None, None))[1]
        key = who if isinstance(who, str) else getattr(who, "player_id", None)
        return self.by_key.get(key, (None, None))[1]

    def label(self, who, name: str | None = None) -> str:
        """The name to show: with the number when another player has the same name."""
        if name is None:
            if isinstance(who, int):
                name = self.by_pk.get(who, ("", None))[0]
            elif isinstance(who, str):
                name = self.by_key.get(who, (who, None))[0]
            else:
                name = who.name
        return numbered(name, self.number(who)) if self.clash(name) else name
