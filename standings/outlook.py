"""What do I need? Before the last results of a round are in: for each player and each result of their own
match (win, draw where the game has draws, loss), whether they finish inside a line whatever every other
table does (`in`), cannot (`out`), or it `depends`, and on which tables.

The line is a number of places (the top cut, a prize place: the top N of the standings after the round) or
a number of match points (a Day-2 cut: P or more). Places count exactly as the event's standings rank
(`standings.engine`); a player tied on every figure with players across the line is not safely in.

Claims are never wrong: `in` and `out` hold for every combination of the other open tables' results
(`standings.outlook_round` says which results count). When the combinations are few enough
(`EXACT_WORK`, which covers every round of up to 16 players), every one is ranked
(`standings.outlook_exact`) and the answer is exact: `depends` only where two combinations disagree, with
the tables whose result alone can change it. Otherwise points-only bounds decide what they can, counted per
table (two players at one table cannot both win), and `depends` lists the tables of the players who can
still finish level with or ahead of the player (docs/explanations.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from standings.outlook_exact import IN, OUT, Scan, scenario_count
from standings.outlook_round import DRAW, LOSS, OUTCOMES, WIN, OutlookRefused, RoundState, points_text, round_state
from swiss.messages import Message
from swiss.model import Event

__all__ = ["Claim", "Outlook", "OutlookRefused", "PlayerOutlook", "outlook"]

IN_CODE, OUT_CODE, DEPENDS = "in", "out", "depends"
# Combinations of match results times players ranked: above it, the bounds answer (3**8 x 16: a full round
# of 16 players is always exact).
EXACT_WORK = 3**8 * 16

_WORDS = {
    (WIN,): ("outlook_word_win", "Win"),
    (DRAW,): ("outlook_word_draw", "Draw"),
    (LOSS,): ("outlook_word_loss", "Lose"),
    (WIN, DRAW): ("outlook_word_win_draw", "Win or draw"),
    (DRAW, LOSS): ("outlook_word_draw_loss", "Draw or lose"),
    (WIN, LOSS): ("outlook_word_win_loss", "Win or lose"),
    (WIN, DRAW, LOSS): ("outlook_word_any", "Whatever your result"),
}


@dataclass(frozen=True)
class Claim:
    """`in`, `out` or `depends`; for `depends`, the tables: those whose result alone can change the answer
    (`catching` False), or those of the players who can still finish level with or ahead (`catching`)."""

    code: str
    tables: tuple[int, ...] = ()
    catching: bool = False


@dataclass(frozen=True)
class PlayerOutlook:
    """One player: their open table (None when their match has its result), the outcome already entered
    (None while it is open), and a claim for each outcome of their match that can still happen (None for
    one that cannot: a draw in a game without draws, or any outcome but the one entered)."""

    player_id: str
    table: int | None
    result: str | None
    claims: dict[str, Claim | None]

    def sentences(self, outlook: Outlook) -> tuple[Message, ...]:
        """The outlook in a few sentences, outcomes with the same claim together ("Win or draw: ...")."""
        groups: dict[Claim, list[str]] = {}
        for o in OUTCOMES:
            c = self.claims.get(o)
            if c is not None:
                groups.setdefault(c, []).append(o)
        out = []
        for claim, outcomes in groups.items():
            if self.result is not None:
                word = Message("outlook_word_result", "With your result")
            else:
                code, text = _WORDS[tuple(outcomes)]
                word = Message(code, text)
            out.append(_sentence(claim, word, outlook))
        return tuple(out)


@dataclass(frozen=True)
class Outlook:
    round: int
    places: int | None
    points: Fraction | None
    exact: bool
    players: tuple[PlayerOutlook, ...]

    def for_player(self, player_id: str) -> PlayerOutlook | None:
        for p in self.players:
            if p.player_id == player_id:
                return p
        return None

    def as_dict(self) -> dict:
        """JSON-ready: {"round", "line", "by", "exact", "players": [{"id", "table", "result", "win", "draw",
        "loss", "tables": {outcome: [table, ...]}, "catching": [outcome, ...]}]}."""
        if self.places is not None:
            line: int | str = self.places
        else:
            assert self.points is not None
            line = self.points.numerator if self.points.denominator == 1 else str(self.points)
        players = []
        for p in self.players:
            d: dict = {"id": p.player_id, "table": p.table, "result": p.result}
            tables: dict[str, list[int]] = {}
            catching = []
            for o in OUTCOMES:
                c = p.claims.get(o)
                d[o] = None if c is None else c.code
                if c is not None and c.code == DEPENDS:
                    tables[o] = list(c.tables)
                    if c.catching:
                        catching.append(o)
            d["tables"] = tables
            if catching:
                d["catching"] = catching
            players.append(d)
        return {
            "round": self.round,
            "line": line,
            "by": "places" if self.places is not None else "points",
            "exact": self.exact,
            "players": players,
        }


def outlook(event: Event, places: int | None = None, points: Fraction | None = None) -> Outlook:
    """The outlook of every player still competing in the event's last round, paired and not finished, for
    the top `places` or for `points` or more (exactly one). OutlookRefused when there is no such round."""
    if (places is None) == (points is None):
        raise ValueError("give places or points, not both")
    if places is not None and places < 1:
        raise OutlookRefused(Message("outlook_bad_places", "the line must be at least 1 place"))
    if points is not None and points < 0:
        raise OutlookRefused(Message("outlook_bad_points", "the points line cannot be negative"))
    state = round_state(event)
    who = _who(state)
    if points is not None:
        return Outlook(state.number, None, points, True, tuple(_by_points(state, who, points)))
    assert places is not None
    return _by_places(state, who, places)


def _who(state: RoundState) -> list[tuple[str, int | None, str | None, tuple[str, ...]]]:
    """Each competing player in the round: id, open table, outcome entered, outcomes still possible."""
    at = {pid: t for t in state.tables for pid in (t.a, t.b)}
    out: list[tuple[str, int | None, str | None, tuple[str, ...]]] = []
    for p in state.event.players:
        if p.id not in state.division:
            continue
        if p.id in at:
            possible = tuple(o for o in OUTCOMES if o != DRAW or state.draws)
            out.append((p.id, at[p.id].number, None, possible))
        elif p.id in state.decided:
            out.append((p.id, None, state.decided[p.id], (state.decided[p.id],)))
    return out


def _final(state: RoundState, pid: str, table: int | None, o: str) -> int:
    return state.base[pid] + (state.value[o] if table is not None else 0)


def _by_points(state: RoundState, who, points: Fraction) -> list[PlayerOutlook]:
    target = points * state.unit
    out = []
    for pid, table, result, possible in who:
        claims: dict[str, Claim | None] = dict.fromkeys(OUTCOMES)
        for o in possible:
            claims[o] = Claim(IN_CODE if _final(state, pid, table, o) >= target else OUT_CODE)
        out.append(PlayerOutlook(pid, table, result, claims))
    return out


def _by_places(state: RoundState, who, line: int) -> Outlook:
    bounds = _Bounds(state, line)
    claims: dict[tuple[str, str], Claim] = {}
    open_: list[tuple[str, str]] = []
    for pid, _, _, possible in who:
        for o in possible:
            verdict = bounds.verdict(pid, o)
            if verdict is not None:
                claims[(pid, o)] = Claim(verdict)
            else:
                open_.append((pid, o))
    in_round = len({pid for m in state.settled for pid in (m.a, m.b) if pid is not None}) + 2 * len(state.tables)
    exact = scenario_count(state) * in_round <= EXACT_WORK
    if exact and open_:
        scan = Scan(state, line, open_)
        for key, cell in scan.run().items():
            mask = cell.mask
            code = IN_CODE if mask == IN else OUT_CODE if mask == OUT else DEPENDS
            claims[key] = Claim(code, tuple(sorted(cell.tables)) if code == DEPENDS else ())
        exact = not scan.unsettled
    else:
        for pid, o in open_:
            claims[(pid, o)] = Claim(DEPENDS, bounds.catchers(pid, o), catching=True)
    players = []
    for pid, table, result, possible in who:
        mine: dict[str, Claim | None] = dict.fromkeys(OUTCOMES)
        for o in possible:
            mine[o] = claims[(pid, o)]
        players.append(PlayerOutlook(pid, table, result, mine))
    return Outlook(state.number, line, None, exact or not open_, tuple(players))


class _Bounds:
    """Points-only bounds for a (player, outcome): how many competitors surely finish above, and how many
    can finish level or above, counted table by table (the tables' results are independent, so the sums of
    each table's extremes are reached by some combination)."""

    def __init__(self, state: RoundState, line: int):
        self.state = state
        self.line = line
        self.table_of = state.table_of()
        v = state.value
        flip = {WIN: LOSS, DRAW: DRAW, LOSS: WIN}
        # Per open table, per outcome for a: the final points of a and b.
        self.finals = [
            (t, [(state.base[t.a] + v[o], state.base[t.b] + v[flip[o]]) for o in t.outcomes()]) for t in state.tables
        ]
        fixed: dict[str, list[int]] = {}
        for pid, div in state.division.items():
            if pid not in self.table_of:
                fixed.setdefault(div, []).append(state.base[pid])
        self.fixed = {d: sorted(v) for d, v in fixed.items()}

    def _counts(self, pid: str, o: str):
        """(x, [(table, [(#above, #level-or-above) per outcome]) ...]) for the competitors of pid's division,
        pid left out, pid's own table (result fixed by o) counted as fixed."""
        import bisect

        state = self.state
        div = state.division[pid]
        own = self.table_of.get(pid)
        x = _final(state, pid, own.number if own else None, o)
        row = self.fixed.get(div, [])
        above_fixed = len(row) - bisect.bisect_right(row, x)
        atleast_fixed = len(row) - bisect.bisect_left(row, x)
        if own is None and pid in state.division:
            atleast_fixed -= 1  # pid itself is among the fixed
        per_table = []
        for t, finals in self.finals:
            ca, cb = state.division.get(t.a) == div, state.division.get(t.b) == div
            if t is own:
                fa, fb = finals[t.outcomes().index(t.for_a(pid, o))]
                other, f = (fb, cb) if pid == t.a else (fa, ca)
                if f:
                    above_fixed += other > x
                    atleast_fixed += other >= x
                continue
            counts = [((ca and fa > x) + (cb and fb > x), (ca and fa >= x) + (cb and fb >= x)) for fa, fb in finals]
            per_table.append((t, counts))
        return x, above_fixed, atleast_fixed, per_table

    def verdict(self, pid: str, o: str) -> str | None:
        _, above, atleast, per_table = self._counts(pid, o)
        min_above = above + sum(min(c[0] for c in cs) for _, cs in per_table)
        max_atleast = atleast + sum(max(c[1] for c in cs) for _, cs in per_table)
        if min_above >= self.line:
            return OUT_CODE
        if max_atleast < self.line:
            return IN_CODE
        return None

    def catchers(self, pid: str, o: str) -> tuple[int, ...]:
        """The open tables (not the player's own) where a competitor can finish level with or ahead of them."""
        _, _, _, per_table = self._counts(pid, o)
        return tuple(sorted(t.number for t, cs in per_table if max(c[1] for c in cs) > 0))


def _sentence(claim: Claim, word: Message, outlook: Outlook) -> Message:
    tables = ", ".join(map(str, claim.tables))
    if claim.code == DEPENDS:
        if not claim.tables:
            return Message(
                "outlook_depends_tie",
                "{outcome}: it depends on the tie-breakers; you may finish level with players at the line.",
                outcome=word,
            )
        if claim.catching:
            return Message(
                "outlook_depends_catching",
                "{outcome}: it depends on other results; players who can still catch you play at tables {tables}.",
                outcome=word,
                tables=tables,
            )
        return Message(
            "outlook_depends_tables", "{outcome}: it depends on tables {tables}.", outcome=word, tables=tables
        )
    if outlook.places is not None:
        if claim.code == IN_CODE:
            return Message(
                "outlook_in_top", "{outcome}: you are in the top {places}.", outcome=word, places=outlook.places
            )
        return Message(
            "outlook_out_top", "{outcome}: you cannot reach the top {places}.", outcome=word, places=outlook.places
        )
    assert outlook.points is not None
    pts = points_text(outlook.points.numerator * 1, outlook.points.denominator)
    if claim.code == IN_CODE:
        return Message("outlook_in_points", "{outcome}: you reach {points} points.", outcome=word, points=pts)
    return Message("outlook_out_points", "{outcome}: you stay below {points} points.", outcome=word, points=pts)
