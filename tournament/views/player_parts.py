"""The parts of the player's page that hold whoever asks: a result in the player's own words, the one-tap result
buttons, and their standing and earlier rounds, which hold for the whole round being played (read and rendered
once per round, not for every phone's poll)."""

import math

from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from standings.divisions import Division
from tournament.models import Event, Match, Player, Round
from tournament.services import reports
from tournament.services.divisions import division_standings
from tournament.services.results import Outcome
from tournament.services.standings import settled_marker
from tournament.services.top_cut import stage_names
from tournament.text import game_words, l10n
from tournament.text.results import CHESS_RESULTS, result_label
from tournament.views.public_cache import BUILD, cached, event_standings
from tournament.views.public_rows import _player_line


def said(
    games: tuple[int, int, int] | None, result: str, match: Match, player: Player, named: bool = False, chess=False
) -> str:
    """A result as this player says it, from their own side: "you lost 1-2" ("to Anna" when `named`).

    `chess`: one game written as chess writes it, White's first ("you won 0-1" with Black, "a draw, ½-½")."""
    opponent = match.player_b if match.player_a_id == player.pk else match.player_a
    name = {"name": opponent.name if opponent else ""}
    if result == Match.Result.DOUBLE_LOSS:
        return _("a double loss with %(name)s") % name if named else _("a double loss")
    if games is None:
        return ""
    a, b, drawn = games
    mine, theirs = (a, b) if match.player_a_id == player.pk else (b, a)
    score = (
        CHESS_RESULTS[games]
        if chess and games in CHESS_RESULTS
        else f"{mine}-{theirs}" + (f"-{drawn}" if drawn else "")
    )
    values = {"score": score, **name}
    if mine > theirs:
        return (_("you won %(score)s against %(name)s") if named else _("you won %(score)s")) % values
    if mine < theirs:
        return (_("you lost %(score)s to %(name)s") if named else _("you lost %(score)s")) % values
    return (
        game_words.gettext("a draw, %(score)s, with %(name)s") if named else game_words.gettext("a draw, %(score)s")
    ) % values


def sent_message(sent: reports.Sent, player: Player, outcome: Outcome, chess: bool = False) -> str:
    m = sent.match
    if sent.state == reports.STORED:
        stored = said(m.games, m.result, m, player, named=True, chess=chess) or result_label(m, chess)
        return _("Result stored: %(result)s. Thank you!") % {"result": stored}
    opponent = m.player_b if m.player_a_id == player.pk else m.player_a
    return _("Reported: %(result)s. %(name)s confirms it on their phone.") % {
        "result": said(outcome.games, outcome.result, m, player, chess=chess),
        "name": opponent.name,
    }


def disputed_message(sent: reports.Sent, player: Player, action: str) -> str:
    opponent = sent.match.player_b if sent.match.player_a_id == player.pk else sent.match.player_a
    if action == "dispute":
        return _("You said %(name)s's report is not right: a judge will come to your table.") % {"name": opponent.name}
    return _("Your report differs from %(name)s's: a judge will come to your table.") % {"name": opponent.name}


def quick_results(
    best_of: int, elimination: bool, white: bool | None = None, opponent: str = "", draws: bool = True
) -> list[tuple[str, str]]:
    """The common results from the player's own side, one tap each: wins, losses, then draws.

    `white`: in a chess event, whether the player has White. The buttons are then the game's outcomes as
    chess writes them, White's first, each saying in words who won with which colour ("Anna (White) won 1-0",
    "Draw ½-½", "You (Black) won 0-1"; `opponent` is the other player's name), and each sends the result from
    the player's side: a tap says what is stored, whichever colour taps it. `draws=False`: a game that has
    none (backgammon) offers none.
    """
    elimination = elimination or not draws
    if white is not None and best_of == 1:
        names = {"name": opponent}
        if white:
            white_won, black_won = _("You (White) won 1-0"), _("%(name)s (Black) won 0-1") % names
        else:
            white_won, black_won = _("%(name)s (White) won 1-0") % names, _("You (Black) won 0-1")
        # Sent from the player's side: "1-0" is "I won".
        white_sends, black_sends = ("1-0", "0-1") if white else ("0-1", "1-0")
        draw = [] if elimination else [("0-0-1", game_words.gettext("Draw %(score)s") % {"score": "½-½"})]
        return [(white_sends, white_won), *draw, (black_sends, black_won)]
    if best_of == 1:
        choices = [("1-0", _("I won")), ("0-1", _("I lost"))]
        return choices if elimination else [*choices, ("0-0-1", game_words.gettext("Draw"))]
    need = math.ceil(best_of / 2)
    wins = [(f"{need}-{j}", _("Won %(score)s") % {"score": f"{need}-{j}"}) for j in range(need)]
    losses = [(f"{j}-{need}", _("Lost %(score)s") % {"score": f"{j}-{need}"}) for j in reversed(range(need))]
    choices = wins + losses
    if not elimination:
        if best_of == 3:
            choices.append(("1-1-1", game_words.gettext("Draw %(score)s") % {"score": "1-1-1"}))
        choices.append(("1-1", game_words.gettext("Draw %(score)s") % {"score": "1-1"}))
    return choices


def finished(rnd: Round | None) -> int:
    """The last finished round while `rnd` is the one being played (0 before the first is finished)."""
    if rnd is None:
        return 0
    return rnd.number if rnd.state == Round.State.COMPLETE else rnd.number - 1


def standing_of(event: Event, player: Player, rnd: Round | None) -> tuple[int, object, str, str] | None:
    """The player's rank, points, record and division ("" without divisions) after the last finished round.

    It holds still while a round's results come in, so it is keyed not on the event's version (which
    every stored result bumps) but on what the standings after that round are made of.
    """
    after = finished(rnd)
    if after < 1:
        return None

    key = f"me-standing:{event.pk}.{int(event.created_at.timestamp())}:{after}:{settled_marker(event, after)}"

    def make() -> dict:
        result = event_standings(event, after_round=after)
        # Divisions ranked apart: the rank is the player's division's (services/divisions.py).
        divisions = division_standings(event, result) or [Division("", result)]
        return {
            r.player_id: (r.rank, r.points, (r.wins, r.losses, r.draws), d.name)
            for d in divisions
            for r in d.standings.rows
        }

    # Kept as figures and worded for each page: one entry serves every language.
    found = cached(key, make, keep=True).get(player.key)
    if found is None:
        return None
    rank, points, record, division = found
    return rank, l10n.points(points), l10n.record(*record), division


def past_lines(event: Event, player: Player, rnd: Round | None) -> list[dict]:
    """The player's matches of the other published rounds, newest first, as their page words them.

    Those rounds are finished while `rnd` is played, so the lines are kept on what the standings after
    them are made of (`services.settled_marker`: their matches, results and the roster's names), not read
    again for every poll while the round's results come in. Every player's lines are read at once, in one
    query per round and language: a round's first minutes load every player's page.
    """
    after = finished(rnd)

    def make() -> dict[int, list[dict]]:
        past = (
            Match.objects.filter(round__event=event)
            .exclude(round__state=Round.State.DRAFT)
            .exclude(round=rnd)
            .select_related("round", "player_a", "player_b")
            .order_by("-round__number", "table")
        )
        stages = stage_names(event) if any(m.round.kind == Round.Kind.ELIMINATION for m in past) else {}
        lines: dict[int, list[dict]] = {}
        for m in past:
            for person in (m.player_a, m.player_b):
                if person is not None:
                    person.event = event  # read already: the line asks it about colours, once per match
                    line = _player_line(m, person, stages)
                    if "opponent" in line:  # the name is all the page shows of them
                        line["opponent"] = {"name": line["opponent"].name}
                    lines.setdefault(person.pk, []).append(line)
        return lines

    marker = settled_marker(event, after)
    created = int(event.created_at.timestamp())
    key = f"me-lines:{event.pk}.{created}:{rnd.pk if rnd else 0}:{marker}:{get_language()}"
    return cached(key, make, keep=True).get(player.pk, [])


# Each player's standing and earlier rounds as their page shows them, rendered: in each process, emptied when it
# grows past HISTORY_MEMO (a round of 2048 players in three languages is ~6000).
_histories: dict[str, str] = {}
HISTORY_MEMO = 20_000


def history(event: Event, player: Player, rnd: Round | None, standing: tuple | None) -> str:
    """The player's rank, points and record and their earlier rounds, rendered (the page's `history` part).

    Both are read after the last finished round, so they hold for the whole round being played: rendered once
    per player, round and language, not again for every poll and report that redraws the page's live part
    (a round's clock started redraws every player's). Keyed on what they are made of, as `standing_of` and
    `past_lines` are (`services.settled_marker`).
    """
    after = finished(rnd)
    marker = settled_marker(event, after)
    key = f"{BUILD}:{get_language()}:{event.pk}.{int(event.created_at.timestamp())}:{rnd.pk if rnd else 0}:{after}:{marker}:{player.pk}"
    html = _histories.get(key)
    if html is None:
        context = {
            "standing": standing,
            "points": standing[1] if standing else "",
            "lines": past_lines(event, player, rnd),
            **game_words.context(None),
        }
        html = render_to_string("player/me.html#history", context)
        if len(_histories) >= HISTORY_MEMO:
            _histories.clear()
        _histories[key] = html
    return html
