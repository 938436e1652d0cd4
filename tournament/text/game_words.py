"""The words of the game an event plays: a chess player says remis, partier and oversidder where a Magic player
says uafgjort, kampe and BYE (Danish), 対局 where a card player says マッチ (Japanese).

Those messages have a second translation in the message context "chess" (`wording.CHESS_WORDS`). Which one a
page reads is chosen explicitly: an event's page says which game it speaks of (`i18n.use_event`, inside the
request's `playing` scope that `i18n.LanguageMiddleware` opens), and the messages that have a chess word are
translated with this module's `gettext`, `gettext_lazy` and `ngettext` in Python and with
`{% translate "…" context game_words %}` in templates (`game_words` is "chess" on a chess event's page and
empty elsewhere, `context`). Every other message is Django's own. A Pokémon event's page reads no other words,
but writes a record as wins-losses-ties (`l10n.record`).
"""

import contextlib
from contextvars import ContextVar

from django.utils.functional import lazy
from django.utils.translation import gettext as _plain
from django.utils.translation import ngettext as _plain_plural

# The games whose pages speak otherwise: chess (its words) and Pokémon (its record).
GAMES = ("chess", "pokemon")
CHESS = "chess"
_SEPARATOR = "\x04"  # gettext's: the context, then the message (what `pgettext` looks up)
_game: ContextVar[str] = ContextVar("game", default="")


def game() -> str:
    """The game this page speaks of ("chess", "pokemon"), or "" for every other page."""
    return _game.get()


@contextlib.contextmanager
def playing(preset: str | None):
    """Speak of the game an event's `preset` plays (none for anything else) until the block ends."""
    token = _game.set(preset if preset in GAMES else "")
    try:
        yield
    finally:
        _game.reset(token)


def use_game(preset: str | None) -> None:
    """Speak of `preset`'s game for the rest of the enclosing `playing` block (an event's page, once it is known)."""
    _game.set(preset if preset in GAMES else "")


def gettext(message: str) -> str:
    """`message` in the active language, in a chess player's words on a chess event's page where it has them."""
    if _game.get() == CHESS:
        chess = _plain(f"{CHESS}{_SEPARATOR}{message}")
        if _SEPARATOR not in chess:
            return chess
    return _plain(message)


def ngettext(singular: str, plural: str, number: int) -> str:
    """`ngettext` in a chess player's words on a chess event's page where the message has them."""
    if _game.get() == CHESS:
        key = f"{CHESS}{_SEPARATOR}{singular}"
        chess = _plain_plural(key, plural, number)
        if chess not in (key, plural):
            return chess
    return _plain_plural(singular, plural, number)


gettext_lazy = lazy(gettext, str)


def context(request) -> dict:
    """The template context's `game_words`: the message context a chess event's page translates its words in
    (`{% translate "Byes" context game_words %}`), empty elsewhere, which reads the plain translation."""
    return {"game_words": CHESS if _game.get() == CHESS else ""}
