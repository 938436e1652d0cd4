"""Divisions ranked apart and cut apart, the pure parts (standings/divisions.py, pairing/topcut.py)."""

from fractions import Fraction

import pytest

from pairing.topcut import division_pairings, next_division_round
from pairing.types import Pair, PairingError
from standings.divisions import split
from standings.engine import Row, Standings


def row(rank: int, pid: str, points: int) -> Row:
    return Row(rank, pid, pid.upper(), Fraction(points), points // 3, 0, 0, 3, {"omw": Fraction(1, 2)})


OVERALL = Standings(
    3,
    ("omw",),
    (row(1, "m1", 9), row(2, "j1", 6), row(2, "m2", 6), row(4, "j2", 6), row(5, "m3", 3), row(6, "j3", 0)),
)
DIVISION = {"m1": "Masters", "m2": "Masters", "m3": "Masters", "j1": "Juniors", "j2": "Juniors", "j3": "Juniors"}


def test_each_division_is_ranked_from_1_in_the_order_asked():
    juniors, masters = split(OVERALL, DIVISION, ["Juniors", "Masters"])
    assert juniors.name == "Juniors" and masters.name == "Masters"
    assert [(r.rank, r.player_id) for r in juniors.standings.rows] == [(1, "j1"), (2, "j2"), (3, "j3")]
    assert [(r.rank, r.player_id) for r in masters.standings.rows] == [(1, "m1"), (2, "m2"), (3, "m3")]
    # The figures are the whole Swiss's: only the rank changes.
    assert juniors.standings.rows[0].tiebreakers == OVERALL.rows[1].tiebreakers
    assert juniors.standings.after_round == 3 and juniors.standings.tiebreakers == ("omw",)


def test_players_tied_overall_stay_tied_in_their_division():
    tied = Standings(1, (), (row(1, "a", 3), row(1, "b", 3), row(1, "c", 3), row(4, "d", 0)))
    (one,) = split(tied, dict.fromkeys("abcd", "X"))
    assert [r.rank for r in one.standings.rows] == [1, 1, 1, 4]
    first, second = split(tied, {"a": "X", "b": "Y", "c": "X", "d": "X"}, ["X", "Y"])
    assert [r.rank for r in first.standings.rows] == [1, 1, 3] and [r.rank for r in second.standings.rows] == [1]


def test_divisions_not_in_the_order_follow_by_name():
    names = [d.name for d in split(OVERALL, {"m1": "Zeta", "j1": "Alpha"}, ["Zeta"])]
    assert names == ["Zeta", "", "Alpha"]


def test_each_division_has_its_own_bracket_side_by_side():
    pairs = division_pairings([["j1", "j2", "j3", "j4"], ["m1", "m2", "m3", "m4", "m5"]], 4)
    assert pairs == (Pair(1, "j1", "j4"), Pair(2, "j2", "j3"), Pair(3, "m1", "m4"), Pair(4, "m2", "m3"))
    with pytest.raises(PairingError):
        division_pairings([["j1", "j2", "j3"], ["m1", "m2", "m3", "m4"]], 4)


def test_the_brackets_go_on_each_to_its_own_final():
    semis = [[("j1", "j4"), ("j2", "j3")], [("m1", "m4"), ("m2", "m3")]]
    finals = next_division_round(semis, {"j1", "j3", "m4", "m2"})
    assert finals == (Pair(1, "j1", "j3"), Pair(2, "m4", "m2"))  # never a junior against a master
    with pytest.raises(PairingError):
        next_division_round([[("j1", "j3")], [("m4", "m2")]], {"j1", "m2"})
