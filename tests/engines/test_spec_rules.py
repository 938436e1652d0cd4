"""Four rules of pairing and standings that were once ambiguous; each is pinned here by name so it cannot drift.

One event carries every kind of absent round: A has a bye (round 2) and an unpaired loss (round 3); X drops
after round 1; L enters late, in round 2, with no record for round 1.
"""

from fractions import Fraction as F

from pairing import Entrant, PairingInput, pair
from standings import compute
from swiss.model import Player
from tests.engines.test_standings import make_event, rows

PLAYERS = [Player(id=p, name=p) for p in "ABCDEF"] + [
    Player(id="X", name="X", dropped_after=1),
    Player(id="L", name="L", joined_round=2),
]
ROUNDS = [
    [("A", "B", (2, 1, 0)), ("C", "D", "double_loss"), ("E", "X", (0, 2, 0)), ("F", None)],
    [("A", None), ("B", "C", (2, 0, 0)), ("D", "E", (2, 0, 0)), ("F", "L", (0, 2, 0))],
    [("A", "loss"), ("B", "D", (2, 0, 0)), ("C", "L", (2, 0, 0)), ("E", "F", (2, 0, 0))],
]
# Points after round 3 (3 a win, byes included): A 6, B 6, C 3, D 3, E 3, F 3, X 3, L 3.


def absent_rounds_event(*codes):
    return make_event(ROUNDS, players=PLAYERS, tiebreakers=codes)


def test_rule1_buchholz_has_a_zero_term_for_every_round_without_an_opponent():
    codes = ("buchholz", "buchholz_cut1", "median_buchholz", "buchholz_cuts", "buchholz_variant")
    r = rows(compute(absent_rounds_event(*codes)))
    assert {p: r[p].points for p in "ABCX L".replace(" ", "")} == {"A": 6, "B": 6, "C": 3, "X": 3, "L": 3}
    a, x, late = r["A"].tiebreakers, r["X"].tiebreakers, r["L"].tiebreakers
    # A: [B 6, bye 0, unpaired loss 0]. The cut forms remove the zero terms first.
    assert (a["buchholz"], a["buchholz_cut1"], a["median_buchholz"]) == (6, 6, 0)
    assert a["buchholz_cuts"] == (6, 6, 6)
    assert a["buchholz_variant"] == (6, 6, 6)
    # X, dropped after round 1: [E 3, 0, 0].
    assert (x["buchholz"], x["buchholz_cut1"], x["buchholz_cuts"]) == (3, 3, (3, 3, 3))
    # L, entered in round 2: [not in 0, F 3, C 3].
    assert (late["buchholz"], late["buchholz_cut1"], late["median_buchholz"]) == (6, 6, 3)
    assert late["buchholz_cuts"] == (6, 6, 3)
    assert late["buchholz_variant"] == (3, 6, 6)
    # Every vector has one entry per round of the event so far.
    assert all(len(r[p].tiebreakers["buchholz_cuts"]) == 3 for p in r)
    assert all(len(r[p].tiebreakers["buchholz_variant"]) == 3 for p in r)


def test_rule2_cumulative_keeps_the_running_score_through_rounds_not_played():
    r = rows(compute(absent_rounds_event("cumulative")))
    assert r["A"].tiebreakers["cumulative"] == 3 + 6 + 6
    assert r["X"].tiebreakers["cumulative"] == 3 + 3 + 3  # dropped: the score stays
    assert r["L"].tiebreakers["cumulative"] == 0 + 3 + 3  # entered late: 0 before, then kept


def test_rule3_unpaired_and_double_losses_add_no_games_and_a_bye_adds_the_games_needed():
    r = rows(compute(absent_rounds_event("gw")))
    # A: 2-1 (6 of 9), bye 2-0 (6 of 6), unpaired loss (nothing): 12 of 15.
    assert r["A"].tiebreakers["gw"] == F(12, 15)
    # C: double loss (nothing), 0-2 (0 of 6), 2-0 (6 of 6): 6 of 12.
    assert r["C"].tiebreakers["gw"] == F(6, 12)
    # F: bye 2-0 (6 of 6), 0-2 (0 of 6), 0-2 (0 of 6).
    assert r["F"].tiebreakers["gw"] == F(6, 18)


def test_rule4_the_bye_counts_as_a_pair_with_the_lowest_score_then_goes_to_the_lowest_ranked():
    entrants = (
        *(Entrant(id=f"t{k}", points=F(3), rank=1) for k in range(3)),
        Entrant(id="z1", points=F(0), rank=4),
        Entrant(id="z2", points=F(0), rank=5),
    )
    result = pair(PairingInput(round=2, entrants=entrants, seed=7))
    # A 3-point bye would leave 3-3 and 0-0 (spread 0 without the rule) but costs (3 - 0)^2 = 9 as a pair
    # with the lowest score, the same as a 0-point bye beside a 3-0 game: the tie goes to the lowest-ranked.
    assert result.byes == ("z2",)
    assert result.spread == 9
    assert result.rematches == 0
