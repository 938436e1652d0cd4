"""The pieces the public pages and the player's page are made of: published rounds and their titles, the
round clock, QR codes, the pairings' rows (with the players who sit out), points, the standings table,
a player's line per round and the bracket's matches. Pure reads of one event; no request."""

from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import NamedTuple

import segno
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext

from standings.divisions import Division
from tournament.models import Event, Match, Player, Round
from tournament.pages.memo import cached, event_key, event_standings
from tournament.pages.why import all_reasons
from tournament.services.cut import cut_made, line_in, line_of, requirement_text
from tournament.services.divisions import division_standings
from tournament.services.prizes import prize_column
from tournament.services.standings import chess_idents, settled_marker, standings_shown, tiebreak_rules
from tournament.services.top_cut import stage_name
from tournament.text import game_words, l10n, name_search
from tournament.text.results import CHESS_RESULTS, UNPLAYED_LABELS


def published_rounds(event: Event) -> list[Round]:
    return list(event.rounds.exclude(state=Round.State.DRAFT).order_by("number"))


def round_title(rnd: Round) -> str:
    if rnd.kind == Round.Kind.SWISS:
        return gettext("Round %(number)s") % {"number": rnd.number}
    return gettext("Top cut: %(stage)s") % {"stage": stage_name(rnd.matches.count())}


@dataclass(frozen=True)
class Clock:
    """The round clock as the browser counts it: from the server's deadline, or frozen while paused."""

    deadline_ms: int | None  # running: when it reaches zero (epoch milliseconds)
    seconds_left: int | None  # paused: what is left
    deadline: datetime | None = None  # running: the aware datetime, for the page without JavaScript

    @property
    def paused(self) -> bool:
        return self.deadline_ms is None

    @property
    def text(self) -> str:
        left = self.seconds_left or 0
        sign = "−" if left < 0 else ""
        return f"{sign}{abs(left) // 60}:{abs(left) % 60:02d}"


def clock_of(rnd: Round | None) -> Clock | None:
    if rnd is None or rnd.clock_started is None or rnd.state == Round.State.COMPLETE:
        return None
    deadline = rnd.clock_deadline
    if deadline is None:
        return Clock(deadline_ms=None, seconds_left=rnd.seconds_left())
    return Clock(deadline_ms=int(deadline.timestamp() * 1000), seconds_left=None, deadline=deadline)


def qr_svg(url: str) -> str:
    # segno writes only path data (no text from the URL), so the markup is ours to trust.
    svg = segno.make(url, error="m").svg_inline(scale=1, omitsize=True, dark="#000", light="#fff", border=2)
    return mark_safe(svg)  # noqa: S308


@dataclass(frozen=True)
class PairingRow:
    name: str
    pk: int
    table: int | None
    points: str
    opponent: str = ""
    opponent_pk: int | None = None
    opponent_points: str = ""
    note: str = ""  # bye, unpaired loss, ...
    result: str = ""  # from this player's side: "won 2-1", "lost", "draw"
    # The score in its own column between the two players, this row's player first: 2-1, 0-1, ½-½, +/−; and
    # what happened in words, naming the winner ("Søren won"), for a pointer or a screen reader.
    score: str = ""
    score_said: str = ""
    reading: str = ""  # furigana / sort name: orders the list and is searched
    colour: str = ""  # "w" or "b" in an event with colours
    ident: tuple = ()  # a chess event's (start number, title, rating) of the player, and of the opponent
    opponent_ident: tuple = ()
    division: str = ""  # where divisions are paired together: the player's, and the opponent's
    opponent_division: str = ""
    # Why the table is paired so (pages/why.py): (name, their reasons) for this row's player and their opponent.
    why: tuple[tuple[str, str], ...] = ()


class _Played(NamedTuple):
    """What a row shows of a match's result (`_side_result` reads a Match or this)."""

    result: str
    games_a: int | None
    games_b: int | None
    games_drawn: int | None


@dataclass(frozen=True)
class _Seated:
    name: str
    reading: str
    points: str
    byes: int
    order: tuple
    ident: tuple = ()  # a chess event's (start number, title, rating): `services.chess_idents`
    division: str = ""


def _roster(event: Event, rnd: Round) -> dict[int, _Seated]:
    """Each player's name, reading, points going into `rnd` (worded) and sort key: what the rows need of them.

    Cached on what it is made of (the roster and the standings after the round before:
    `services.settled_marker`), so a round whose results pour in reads and words it once, not per result.
    """
    after = max(rnd.number - 1, 0)
    key = f"pairings-roster:{event.pk}.{event.created_at.timestamp()}:{rnd.pk}:{settled_marker(event, after)}"

    def make() -> dict[int, _Seated]:
        points = points_before(event, rnd)
        players = list(event.players.order_by())
        idents = chess_idents(event, players)
        return {
            p.pk: _Seated(
                p.name,
                p.reading,
                points_text(points.get(p.key, Fraction(0))),
                p.byes,
                name_search.sort_key(p.name, p.reading, event.language, p.family_name, p.given_name),
                idents.get(p.pk, ()),
                p.division,
            )
            for p in players
        }

    return cached(f"{key}:{get_language()}", make, keep=True)


def pairing_rows(event: Event, rnd: Round) -> list[PairingRow]:
    """Every player of the round, sorted by name (a venue's pairings): one row per player, not per table.

    Per event version only the round's matches are read (one query of plain values); the players' side
    comes from `_roster`, computed once while the round's results come in.
    """

    def make() -> list[PairingRow]:
        roster = _roster(event, rnd)
        matches = rnd.matches.order_by().values_list(
            "white_id", "table", "player_a_id", "player_b_id", "result", "games_a", "games_b", "games_drawn"
        )
        rows, seated = [], set()
        for white, table, a, b, result, *games in matches:
            seated.update((a, b))
            pa = roster[a]
            if b is None:
                note = gettext("Unpaired loss") if result == Match.Result.LOSS else game_words.gettext("Bye")
                if result in UNPLAYED_LABELS:
                    note = str(UNPLAYED_LABELS[result])
                rows.append(
                    PairingRow(
                        pa.name,
                        a,
                        table,
                        pa.points,
                        note=note,
                        reading=pa.reading,
                        ident=pa.ident,
                        division=pa.division,
                    )
                )
                continue
            pb, played = roster[b], _Played(result, *games)
            white = white or a  # player A is White but where a forfeit Black won made them player A
            for (me, mine), (them, theirs), side_a in (((pa, a), (pb, b), True), ((pb, b), (pa, a), False)):
                rows.append(
                    PairingRow(
                        me.name,
                        mine,
                        table,
                        me.points,
                        them.name,
                        theirs,
                        them.points,
                        result=_side_result(played, side_a, event.chess_results),
                        score=_side_score(played, side_a, event.chess_results),
                        score_said=_score_said(played, side_a, me.name, them.name),
                        reading=me.reading,
                        colour=("w" if mine == white else "b") if event.colours else "",
                        ident=me.ident,
                        opponent_ident=them.ident,
                        division=me.division,
                        opponent_division=them.division,
                    )
                )
        # Pre-awarded byes (rounds 1..k) need no match row.
        if rnd.kind == Round.Kind.SWISS:
            awarded = game_words.gettext("Bye (awarded)")
            rows += [
                PairingRow(
                    p.name, pk, None, p.points, note=awarded, reading=p.reading, ident=p.ident, division=p.division
                )
                for pk, p in roster.items()
                if pk not in seated and p.byes >= rnd.number
            ]
        rows.sort(key=lambda r: (roster[r.pk].order, r.pk))
        return _with_reasons(event, rnd, rows, roster)

    # Formatted and worded in one language: one entry per language.
    return cached(f"public-pairings:{event_key(event)}:{rnd.pk}:{get_language()}", make)


def _with_reasons(event: Event, rnd: Round, rows: list[PairingRow], roster: dict) -> list[PairingRow]:
    """The rows with both players' reasons of the round's stored explanation (none for an older round)."""
    reasons = {pk: " ".join(lines) for pk, lines in all_reasons(event, rnd).items() if lines}
    if not reasons:
        return rows
    out = []
    for r in rows:
        seats = [(r.pk, r.name), *([(r.opponent_pk, roster[r.opponent_pk].name)] if r.opponent_pk else [])]
        why = tuple((name, reasons[pk]) for pk, name in seats if pk in reasons)
        out.append(replace(r, why=why) if why else r)
    return out


@dataclass(frozen=True)
class AbsentRow:
    """A registered player who is not in the round: found by a search, with the reason instead of a table."""

    name: str
    pk: int
    note: str


def absent_rows(event: Event, rnd: Round, rows: list[PairingRow]) -> list[AbsentRow]:
    """Players of the event who are not in `rnd` (dropped, or entering later), so a search for them says why.

    Cached on the roster (`services.settled_marker` after round 0) and who is seated: not read again for
    each result of the round."""
    seated = frozenset(r.pk for r in rows)
    marker = settled_marker(event, 0)
    key = f"absent:{event.pk}.{event.created_at.timestamp()}:{rnd.pk}:{marker}:{hash(seated)}:{get_language()}"

    def make() -> list[AbsentRow]:
        absent = []
        players = sorted(
            event.players.values_list(
                "pk", "name", "dropped_after", "joined_round", "reading", "family_name", "given_name"
            ),
            key=lambda p: (name_search.sort_key(p[1], p[4], event.language, p[5], p[6]), p[0]),
        )
        for pk, name, dropped_after, joined_round, *_rest in players:
            if pk in seated:
                continue
            if dropped_after is not None:
                note = gettext("%(name)s has dropped") % {"name": name}
            elif joined_round > rnd.number:
                note = gettext("%(name)s plays from round %(round)s") % {"name": name, "round": joined_round}
            else:
                note = gettext("%(name)s is not paired in this round") % {"name": name}
            absent.append(AbsentRow(name, pk, note))
        return absent

    return cached(key, make)


def points_text(value: Fraction) -> str:
    """“1 pt”, “0 pts”, “1.5 pts”: match points with their unit, singular only for exactly one."""
    return ngettext("%(points)s pt", "%(points)s pts", 1 if value == 1 else 2) % {"points": l10n.points(value)}


def points_before(event: Event, rnd: Round) -> dict[str, Fraction]:
    """Match points going into `rnd`, by player key: what pairings show next to each name.

    The standings after the round before, which hold still while this round's results come in
    (`services.event_standings` caches them on what they are made of, not on every result).
    """
    if rnd.number <= 1:
        return {}
    settled = event_standings(event, after_round=rnd.number - 1)
    return {r.player_id: r.points for r in settled.rows}


@dataclass(frozen=True)
class StandingRow:
    rank: int
    pk: int
    name: str
    points: str
    record: str
    tiebreakers: tuple[str, ...]
    dropped: bool
    labelled: tuple[tuple[str, str], ...] = ()  # (header, value) of each tie-breaker, for a phone's stacked line
    reading: str = ""
    cut_line: str = ""  # the words of a Day-2 cut's line, drawn above this row (the first below it)
    division: str = ""  # divisions ranked apart (services/divisions.py): the rank is the division's
    prize: str = ""  # what the player takes, once the event is over (services/prizes.py)


def standings_table(event: Event) -> dict:
    """The event's standings formatted for display once per version, shared by every page and search."""

    def make() -> dict:
        shown = standings_shown(event)
        result = shown.standings
        players = {p.key: p for p in event.players.only("id", "event", "key", "reading")}
        headers = [l10n.label(c) for c in result.tiebreakers]
        prizes = prize_column(event)
        rows = []
        # Divisions ranked apart: each division's rows in turn, each ranked from 1; a Day-2 cut's line in each.
        for division in division_standings(event, result) or [Division("", result)]:
            cut_at, line_text = line_in(result, division.standings.rows)
            for k, r in enumerate(division.standings.rows):
                values = tuple(l10n.value(c, v) for c, v in r.tiebreakers.items())
                rows.append(
                    StandingRow(
                        rank=r.rank,
                        pk=players[r.player_id].pk,
                        name=r.name,
                        points=l10n.points(r.points),
                        record=l10n.record(r.wins, r.losses, r.draws),
                        tiebreakers=values,
                        dropped=r.dropped,
                        labelled=tuple(zip(headers, values, strict=True)),
                        reading=players[r.player_id].reading,
                        cut_line=line_text if k == cut_at else "",
                        division=division.name,
                        prize=prizes.get(r.player_id, ""),
                    )
                )
        return {
            "prizes": bool(prizes),
            "after_round": result.after_round,
            "label": shown.label,
            "playing": shown.playing,
            "headers": headers,
            "rows": rows,
            # Before a Day-2 cut is made, what makes Day 2 (services/cut.py).
            "day2": requirement_text(event) if line_of(result)[0] is None and not cut_made(event) else "",
            # The edition of FIDE's tie-break regulations it is ranked by (a chess event's C.07 tie-breaks).
            "rules": tiebreak_rules(event),
        }

    return cached(f"public-standings:{event_key(event)}:{get_language()}", make)


def _side_outcome(m: Match, side_a: bool) -> str:
    """won, lost, draw, loss (a double loss), or "" while the match is being played."""
    if m.result == Match.Result.DOUBLE_LOSS:
        return "loss"
    if m.result == Match.Result.FORFEIT:
        return "won" if side_a else "lost"
    if m.games_a is None:
        return ""
    mine, theirs = _games(m, side_a)
    return "draw" if mine == theirs else "won" if mine > theirs else "lost"


def _games(m: Match, side_a: bool) -> tuple[int, int]:
    """The games one side won, then the other side's."""
    return (m.games_a, m.games_b) if side_a else (m.games_b, m.games_a)


def _score(m: Match, side_a: bool) -> str:
    """The game counts read from one side, drawn games last when there are any: 2-1, 1-2, 1-1-1."""
    mine, theirs = _games(m, side_a)
    return f"{mine}-{theirs}" + (f"-{m.games_drawn}" if m.games_drawn else "")


def _side_result(m: Match, side_a: bool, chess: bool = False) -> str:
    """The result from one side: "won 2-1", "draw 1-1"; `chess`: one game as chess writes it, White's first
    whichever side speaks ("lost 1-0" for Black, "draw ½-½")."""
    outcome = _side_outcome(m, side_a)
    if outcome == "loss":
        return gettext("double loss")
    if not outcome:
        return ""
    if m.result == Match.Result.FORFEIT:
        return gettext("won by forfeit") if side_a else gettext("lost by forfeit")
    score = _score(m, side_a)
    if chess:
        score = CHESS_RESULTS.get((m.games_a, m.games_b, m.games_drawn), score)
    # Only the one needed is translated: every row of a 2048-player round's pairings is worded per version.
    if outcome == "draw":
        return game_words.gettext("draw %(score)s") % {"score": score}
    return (gettext("won %(score)s") if outcome == "won" else gettext("lost %(score)s")) % {"score": score}


# A player's points in one game of chess, as a pairing list writes them.
_CHESS_POINTS = {1: "1", 0: "0"}


def _side_score(m: Match, side_a: bool, chess: bool = False) -> str:
    """The score read left to right, this side first (2-1, 1-1-1; chess 1-0, 0-1, ½-½; a forfeit +/−), or ""
    while the match is being played: in a row of the pairings by name, whose player stands on the left."""
    outcome = _side_outcome(m, side_a)
    if outcome == "loss":
        return "−/−"
    if not outcome:
        return ""
    if m.result == Match.Result.FORFEIT:
        return "+/−" if side_a else "−/+"
    if chess and (m.games_a, m.games_b, m.games_drawn) in CHESS_RESULTS:
        mine, theirs = _games(m, side_a)
        return "½-½" if m.games_drawn else f"{_CHESS_POINTS[mine]}-{_CHESS_POINTS[theirs]}"
    return _score(m, side_a)


def _score_said(m: Match, side_a: bool, me: str, them: str) -> str:
    """What the score says, naming the winner: "Søren won", "Draw", "Double loss", "Søren won by forfeit"."""
    outcome = _side_outcome(m, side_a)
    if not outcome:
        return ""
    if outcome == "loss":
        return game_words.gettext("Double loss")
    if outcome == "draw":
        return game_words.gettext("Draw")
    winner = me if outcome == "won" else them
    if m.result == Match.Result.FORFEIT:
        return gettext("%(name)s won by forfeit") % {"name": winner}
    return gettext("%(name)s won") % {"name": winner}


def player_line(m: Match, person: Player, stages: dict[int, str]) -> dict:
    r = m.round
    label = gettext("Round %(number)s") % {"number": r.number} if r.kind == Round.Kind.SWISS else stages[r.number]
    line = {"number": r.number, "label": label, "table": m.table}
    if m.player_b is None and m.result in UNPLAYED_LABELS:
        kind = {"half_bye": "draw", "zero_bye": "loss"}.get(m.result, "bye")
        return line | {"outcome": kind, "text": str(UNPLAYED_LABELS[m.result])}
    if m.player_b is None:
        lost = m.result == Match.Result.LOSS
        return line | {
            "outcome": "loss" if lost else "bye",
            "text": gettext("Unpaired loss") if lost else game_words.gettext("Bye"),
        }
    side_a = m.player_a_id == person.pk
    line["opponent"] = m.player_b if side_a else m.player_a
    line["text"] = _side_result(m, side_a, person.event.chess_results) or gettext("in progress")
    line["outcome"] = _side_outcome(m, side_a) or "pending"
    if person.event.colours:
        white = m.white_id or m.player_a_id  # a forfeit Black won keeps its colours
        # Before the opponent's name: "with White against Kåre Ødegaard" (the colour is this player's own).
        line["colour"] = gettext("with White against") if person.pk == white else gettext("with Black against")
    return line


def bracket_match(m: Match, seeds: dict[int, int]) -> dict:
    winner = m.winner
    sides = []
    for p, games in ((m.player_a, m.games_a), (m.player_b, m.games_b)):
        if p is None:
            sides.append({"name": game_words.gettext("Bye"), "pk": None, "seed": None, "games": None, "won": False})
        else:
            sides.append({"name": p.name, "pk": p.pk, "seed": seeds.get(p.pk), "games": games, "won": winner == p})
    return {"table": m.table, "sides": sides, "done": m.has_result}


def winner_of(match: dict, stage: str, number: int) -> dict:
    """A side of a match still to come: the winner of `match` once known, “Winner of table 2” until then
    (“Winner of Semifinals 1” for a match not yet paired)."""
    won = next((side for side in match["sides"] if side["won"]), None)
    if won:
        return won | {"games": None, "won": False}
    if match["table"]:
        name = gettext("Winner of table %(table)s") % {"table": match["table"]}
    else:
        name = gettext("Winner of %(stage)s %(number)s") % {"stage": stage, "number": number}
    return {"name": name, "pk": None, "seed": None, "games": None, "won": False}
