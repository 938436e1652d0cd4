"""Invariants of the standings on random events (hypothesis): order of input, ranks against figures."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from standings import compute
from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    LOSS,
    UNPAIRED,
    ZERO_BYE,
    Event,
    Match,
    Player,
    Round,
    settings_for_preset,
)
from swiss.presets import PRESETS, TIEBREAKER_CODES
from swiss.tiebreakers import LOWER_FIRST

# The unplayed results FIDE C.07 tells apart (half-point, zero-point and full-point byes, forfeits).
UNPLAYED_KINDS = [HALF_BYE, ZERO_BYE, FULL_BYE, FORFEIT]
# Tie-breakers that depend on who had White (player a): naming a match's players the other way changes them.
COLOUR_CODES = {"BPG", "BWG"}
RESULTS = [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (1, 1, 0), (0, 0, 3), (2, 0, 1)]


@st.composite
def events(draw) -> Event:
    n = draw(st.integers(0, 9))
    players = []
    for i in range(n):
        joined = draw(st.sampled_from([1, 1, 1, 2, 3]))
        dropped = draw(st.sampled_from([None, None, None, joined, joined + 1]))
        players.append(
            Player(
                id=f"p{i}",
                name=draw(st.sampled_from(["Ann", "Bo", "Cy", "Bo "])),  # names repeat: id decides
                rating=draw(st.sampled_from([None, 1200, 1500, 1800])),
                byes=draw(st.sampled_from([0, 0, 0, 1, 2])),
                joined_round=joined,
                dropped_after=dropped,
            )
        )
    rounds = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        ids = [p.id for p in players]
        ids = draw(st.permutations(ids))
        ids = ids[: draw(st.integers(0, len(ids)))]
        matches = []
        while ids:
            a = ids.pop()
            kind = draw(
                st.sampled_from(
                    ["played", "played", "played", "bye", "loss", "double_loss", "outstanding", *UNPLAYED_KINDS]
                )
            )
            if kind in (BYE, LOSS, HALF_BYE, ZERO_BYE, FULL_BYE) or not ids:
                matches.append(Match(a=a, result=kind if kind in UNPAIRED else BYE))
                continue
            b = ids.pop()
            if kind == FORFEIT:
                matches.append(Match(a=a, b=b, result=FORFEIT))
            elif kind == "double_loss":
                matches.append(Match(a=a, b=b, result=DOUBLE_LOSS))
            elif kind == "outstanding":
                matches.append(Match(a=a, b=b))
            else:
                matches.append(Match(a=a, b=b, games=draw(st.sampled_from(RESULTS))))
        rounds.append(Round(number=number, matches=tuple(matches)))
    preset = draw(st.sampled_from(sorted(PRESETS)))
    codes = draw(st.lists(st.sampled_from(TIEBREAKER_CODES), unique=True, max_size=5))
    settings_ = settings_for_preset(preset, tiebreakers=tuple(codes), bye_rating=500, planned_rounds=4)
    return Event(settings=settings_, players=tuple(players), rounds=tuple(rounds))


def keys(row) -> tuple:
    """What a row ranks by, the higher first (a tie-breaker whose lower value ranks higher, TPN, negated)."""
    return (row.points, *(-v if code in LOWER_FIRST else v for code, v in row.tiebreakers.items()))


def swapped(m: Match) -> Match:
    """The same match with the players named the other way round (a forfeit's winner is always a)."""
    if m.b is None or m.result == FORFEIT:
        return m
    games = None if m.games is None else (m.games[1], m.games[0], m.games[2])
    return Match(a=m.b, b=m.a, games=games, result=m.result, table=m.table)


@settings(max_examples=150, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_input_order_does_not_change_the_standings(event, rnd):
    players = list(event.players)
    rnd.shuffle(players)
    rounds = []
    colour_blind = not COLOUR_CODES & set(event.settings.tiebreakers)
    for r in event.rounds:
        matches = [swapped(m) if colour_blind and rnd.random() < 0.5 else m for m in r.matches]
        rnd.shuffle(matches)
        rounds.append(Round(number=r.number, matches=tuple(matches)))
    rnd.shuffle(rounds)
    shuffled = Event(settings=event.settings, players=tuple(players), rounds=tuple(rounds))
    assert compute(shuffled) == compute(event)


@settings(max_examples=150, deadline=None)
@given(events())
def test_ranks_follow_the_figures(event):
    rows = compute(event).rows
    assert len(rows) == len(event.players)
    for k, row in enumerate(rows):
        better = sum(1 for other in rows if keys(other) > keys(row))
        assert row.rank == better + 1
        if k:
            assert keys(rows[k - 1]) >= keys(row)
    for x in rows:
        for y in rows:
            # Players share a rank exactly when every figure is equal.
            assert (x.rank == y.rank) == (keys(x) == keys(y))
            if x.rank == y.rank and x is not y and rows.index(x) < rows.index(y):
                assert (x.name, x.player_id) < (y.name, y.player_id)


@settings(max_examples=100, deadline=None)
@given(events())
def test_records_add_up(event):
    s = event.settings.scoring
    for row in compute(event).rows:
        assert row.rounds_played == row.wins + row.losses + row.draws
        assert row.points == row.wins * s.win + row.draws * s.draw + row.losses * s.loss
        for code, value in row.tiebreakers.items():
            assert isinstance(value, Fraction) or all(isinstance(v, Fraction) for v in value), code
            if code in ("mw", "gw", "omw", "ogw", "oomw"):
                assert event.settings.floor <= value <= 1
