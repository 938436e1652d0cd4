"""FIDE C.07 tie-breaks (standings/fide.py): the published solutions of IA Mario Held's "Exercises in
Tie-Breaking" (FIDE Arbiters' Commission, C.07, rev. 2403220900) on its Swiss crosstable, and one test per
Article 16 case of an unplayed round, for the participant and for an opponent. No database."""

from fractions import Fraction as F
from pathlib import Path

import pytest

from standings import compute, fide, points_by_player, to_text
from standings.fide import dp, expected
from standings.format import _decimal
from swiss import trf
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
    Settings,
    settings_for_preset,
)
from swiss.presets import PRESETS

HELD = Path(__file__).parents[1] / "data" / "trf" / "held-exercises-2024.trf"

# The paper's crosstable (section 2.1): final scores.
SCORES = {1: 3.5, 2: 4, 3: 3.5, 4: 3.5, 5: 2.5, 6: 3, 7: 1.5, 8: 2.5, 9: 1.5, 10: 1, 11: 2.5, 12: 2, 13: 1.5, 14: 2}
SCORES |= {15: 2, 16: 3.5}

# The paper's published solutions, by exercise. Where an exercise gives only some players, only those.
PUBLISHED = {
    # Exercises 1-4 and 9: Buchholz.
    "BH": {1: 12.5, 2: 13, 3: 15.5, 4: 15, 5: 8.5, 6: 12, 7: 14.5, 8: 13.5, 9: 9, 10: 13, 11: 13.5, 12: 11.5}
    | {13: 14, 14: 11, 15: 12, 16: 12.5},
    # Exercises 5-8: Buchholz Cut-1 (a voluntary unplayed round is cut first).
    "BH-C1": {1: 11, 3: 13, 4: 11.5, 5: 7.5, 7: 12.5, 8: 12, 9: 7.5, 11: 12, 12: 9.5, 13: 12, 14: 9, 15: 11, 16: 11},
    # Exercise 10: Fore Buchholz.
    "FB": {1: 13.5, 2: 13.5, 3: 15, 4: 15.5, 5: 10, 6: 12, 7: 13.5, 8: 12.5, 9: 9.5, 10: 12.5, 11: 12.5, 12: 11.5}
    | {13: 13.5, 14: 10.5, 15: 12, 16: 13.5},
    # Exercises 11-12: Sonneborn-Berger.
    "SB": {1: 8, 2: 9.5, 3: 10.5, 4: 9.75, 5: 4.25, 6: 6.5, 7: 3.25, 8: 5.25, 9: 2.25, 10: 1.5, 11: 5.75, 12: 4}
    | {13: 4.25, 14: 4.5, 15: 3.5, 16: 7.25},
    # Exercise 13: Sonneborn-Berger Cut-1 (16.5.2).
    "SB-C1": {1: 7.25, 2: 8.5, 3: 9.25, 4: 8, 5: 3.25, 6: 5.5, 7: 1.25, 8: 3.75, 9: 2.25, 10: 0, 11: 4.25, 12: 4}
    | {13: 4.25, 14: 3, 15: 2.5, 16: 5.75},
    # Exercise 17: average rating of opponents; 18: its Cut-1.
    "ARO": {1: 1820, 2: 1880, 3: 1940, 4: 1888, 5: 1690, 6: 1813, 7: 1760, 8: 1730, 9: 1975, 10: 1880, 11: 1863}
    | {12: 2050, 13: 1930, 14: 1800, 15: 1860, 16: 1820},
    "ARO-C1": {1: 1900, 2: 1988, 3: 2000, 4: 1983, 5: 1738, 6: 1900, 7: 1838, 8: 1800, 9: 2200, 10: 1975, 11: 2000}
    | {12: 0, 13: 2025, 14: 1900, 15: 1963, 16: 1900},
    # Exercises 19-20: tournament performance rating; 22: perfect tournament performance.
    "TPR": {1: 1969, 2: 2120, 3: 2089, 4: 2081, 5: 1690, 6: 1813, 7: 1611, 8: 1730, 9: 1175, 10: 1640, 12: 1250}
    | {13: 1781, 15: 1788, 16: 1969},
    "PTP": {3: 2112},
    # Exercises 27-31: wins, wins over the board, games with Black, wins with Black, games elected to play.
    "WIN": {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1, 11: 2, 12: 2, 13: 1, 14: 2, 15: 2, 16: 3},
    "WON": {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2, 9: 0, 10: 1, 11: 1, 12: 0, 13: 1, 14: 2, 15: 2, 16: 3},
    "BPG": {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3, 8: 2, 9: 1, 10: 3, 11: 2, 12: 0, 13: 3, 14: 2, 15: 3, 16: 2},
    "BWG": {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 1, 7: 0, 8: 0, 9: 0, 10: 1, 11: 0, 12: 0, 13: 1, 14: 1, 15: 1, 16: 1},
    "GE": {1: 5, 2: 5, 3: 5, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5, 9: 3, 10: 5, 11: 5, 12: 3, 13: 5, 14: 3, 15: 5, 16: 5},
    # Exercises 32-33: progressive score and its Cut-1.
    "PS": {1: 11, 2: 13, 3: 11, 4: 11.5, 5: 5, 6: 6, 7: 6, 8: 8.5, 9: 2.5, 10: 4, 11: 5.5, 12: 7, 13: 7, 14: 6}
    | {15: 7, 16: 10.5},
    "PS-C1": {1: 10, 2: 12, 3: 10.5, 4: 10.5, 5: 5, 6: 6, 7: 5, 8: 8, 9: 2.5, 10: 4, 11: 5, 12: 7, 13: 6, 14: 5}
    | {15: 7, 16: 10},
}
# Exercise 9: the average of opponents' Buchholz, published to two decimals.
PUBLISHED_AOB = {1: "12.60", 2: "13.60", 3: "13.40", 4: "13.38", 5: "13.40", 6: "13.25", 7: "11.90", 8: "13.00"}
PUBLISHED_AOB |= {9: "12.75", 10: "10.90", 11: "12.75", 12: "15.00", 13: "12.10", 14: "13.17", 15: "12.20", 16: "13.30"}

# The paper works by C.07 as of 2024. Since March 2026 a dummy's score (16.4) is at most the scheduled opponent's
# adjusted score for a forfeit (16.4.1) and at most half the possible score, here 2.5, for a bye (16.4.2): #4
# (3.5, half-point bye in round 2) and #6 (3, pairing-allocated bye in round 3) count 2.5 for that round, and #11
# (2.5, forfeit win over #9, who has 1.5) counts 1.5; their opponents' figures that hold those rounds change too.
AMENDED_2026 = {
    "BH": {4: 14, 6: 11.5, 11: 12.5},
    "BH-C1": {11: 11},  # #11's dummy (1.5) is no longer above the lowest opponent's score (1.5), which goes
    "FB": {4: 14.5, 11: 12, 12: 11},  # #12 met #11 in round 3
    "SB": {4: 9.25, 6: 6, 11: 4.75},  # the bye's dummy times ½ (#4) or 1 (#6), the forfeit win's times 1 (#11)
    "SB-C1": {4: 7.75, 6: 5, 11: 3.25},
}
AMENDED_AOB = {1: "12.40", 3: "12.90", 5: "13.20", 7: "11.70", 8: "12.90", 10: "10.80", 12: "14.00", 13: "11.90"}
AMENDED_AOB |= {14: "13.00", 16: "13.10"}


# A day the March 2026 edition of C.07 is in force (the crosstable's own TRF is dated 22 March 2024).
IN_2026 = "2026-03-01"


def held(codes, date: str | None = None, rules: str = "") -> dict:
    """The crosstable's standings by `codes`, on its own date (the edition of 2024) or on `date`, by the C.07
    edition `rules` names when it names one."""
    event = trf.loads(HELD.read_bytes(), points_by_player)
    changed = {"tiebreakers": tuple(codes), "tiebreak_rules": rules} | ({"date": date} if date else {})
    settings = Settings(**{**event.settings.__dict__, **changed})
    return {int(r.player_id): r for r in compute(Event(settings, event.players, event.rounds)).rows}


def test_the_crosstable_has_the_papers_scores():
    rows = held(["BH"])
    assert {k: r.points for k, r in rows.items()} == {k: F(v) for k, v in SCORES.items()}


def test_the_crosstable_is_dated_before_the_2026_edition():
    assert trf.loads(HELD.read_bytes(), points_by_player).settings.date == "2024-03-22"


@pytest.mark.parametrize("code", sorted(PUBLISHED))
@pytest.mark.parametrize(("date", "rules"), [(None, ""), ("2026-02-28", ""), (IN_2026, "2024")])
def test_every_published_value_is_reproduced_exactly_under_the_2024_edition(code, date, rules):
    # The file's own date, the last day of the 2024 edition, and a 2026 event that names the 2024 edition.
    rows = held([code], date, rules)
    for player, value in PUBLISHED[code].items():
        assert rows[player].tiebreakers[code] == F(value), f"{code} of player {player}"


@pytest.mark.parametrize("code", sorted(PUBLISHED))
@pytest.mark.parametrize(("date", "rules"), [(IN_2026, ""), ("2026-11-30", ""), (None, "2026")])
def test_every_published_value_is_reproduced_exactly_as_amended_in_2026(code, date, rules):
    # The first day of the 2026 edition, a later day, and the 2024 crosstable naming the 2026 edition.
    rows = held([code], date, rules)
    for player, value in (PUBLISHED[code] | AMENDED_2026.get(code, {})).items():
        assert rows[player].tiebreakers[code] == F(value), f"{code} of player {player}"


def test_average_of_opponents_buchholz_matches_the_published_two_decimals():
    rows = held(["AOB"])
    assert {k: _decimal(r.tiebreakers["AOB"], 2) for k, r in rows.items()} == PUBLISHED_AOB
    assert rows[4].tiebreakers["AOB"] == F(535, 40)  # exact, not the rounded 13.38


def test_average_of_opponents_buchholz_matches_the_published_two_decimals_as_amended_in_2026():
    rows = held(["AOB"], IN_2026)
    assert {k: _decimal(r.tiebreakers["AOB"], 2) for k, r in rows.items()} == PUBLISHED_AOB | AMENDED_AOB
    assert rows[4].tiebreakers["AOB"] == F(535, 40)  # exact, not the rounded 13.38


def test_median_modifiers_cut_the_least_significant_first_then_the_most():
    # Worked from the paper's crosstable: #4's half-point bye (a VUR) goes first, then a 3.5.
    rows = held(["BH-M1", "BH-M2", "BH-C2"])
    assert (rows[2].tiebreakers["BH-M1"], rows[4].tiebreakers["BH-M1"], rows[12].tiebreakers["BH-M1"]) == (
        F(17, 2),
        8,
        6,
    )
    # #2: 1, 1.5, 3.5, 3.5, 3.5 -> Median-2 keeps 3.5; Cut-2 keeps 3 x 3.5.
    assert (rows[2].tiebreakers["BH-M2"], rows[2].tiebreakers["BH-C2"]) == (F(7, 2), F(21, 2))


def test_chess_preset_ranks_by_the_fide_codes_and_shows_them_as_headers():
    assert PRESETS["chess"].tiebreakers == ("BH-C1", "BH", "SB", "DE")
    event = trf.loads(HELD.read_bytes(), points_by_player)
    table = compute(event)
    assert table.tiebreakers == ("BH-C1", "BH", "SB", "DE")
    # 3.5 points: Charline (BH-C1 13), David (11.5), then Alyx and Stephan (11, BH 12.5) apart on SB 8 / 7.25.
    assert [r.name for r in table.rows[:5]] == ["Bruno", "Charline", "David", "Alyx", "Stephan"]
    header = to_text(table).splitlines()[1].split()
    assert header[-4:] == ["BH-C1", "BH", "SB", "DE"]


def test_rating_tables():
    assert [dp(F(p, 100)) for p in (100, 80, 75, 70, 50, 40, 30, 20, 0)] == [
        800,
        240,
        193,
        149,
        0,
        -72,
        -149,
        -240,
        -800,
    ]
    assert dp(F(3, 8)) == -87  # 0.375 rounds to 0.38
    assert [expected(d) for d in (0, 3, 4, 162, 163, 412, 736, -38)] == [
        F(50, 100),
        F(50, 100),
        F(51, 100),
        F(71, 100),
        F(72, 100),
        F(93, 100),
        F(1),
        F(45, 100),
    ]


# ---------------------------------------------------------------- Article 16, case by case


def chess(rounds, players="ABCDEFGH", tiebreakers=("BH", "BH-C1", "SB", "SB-C1", "WIN", "WON", "GE")):
    """Rounds are lists of ("A", "B", "1-0" | "0-1" | "1/2" | "+-" (A wins by forfeit) | "--" | None) or
    ("A", KIND) for an unpaired result: bye, full_bye, half_bye, zero_bye, loss, forfeit."""
    out = []
    for number, rnd in enumerate(rounds, 1):
        matches = []
        for m in rnd:
            if m[1] in UNPAIRED or m[1] == FORFEIT:
                matches.append(Match(a=m[0], result=m[1]))
            elif m[2] == "+-":
                matches.append(Match(a=m[0], b=m[1], result=FORFEIT))
            elif m[2] == "--":
                matches.append(Match(a=m[0], b=m[1], result=DOUBLE_LOSS))
            elif m[2] is None:
                matches.append(Match(a=m[0], b=m[1]))
            else:
                games = {"1-0": (1, 0, 0), "0-1": (0, 1, 0), "1/2": (0, 0, 1)}[m[2]]
                matches.append(Match(a=m[0], b=m[1], games=games))
        out.append(Round(number=number, matches=tuple(matches)))
    ids = sorted({p for rnd in rounds for m in rnd for p in m[:2] if p in players})
    event = Event(
        settings=settings_for_preset("chess", tiebreakers=tuple(tiebreakers)),
        players=tuple(Player(id=p, name=p) for p in ids),
        rounds=tuple(out),
    )
    return {r.player_id: r for r in compute(event).rows}


def values(rows, player):
    return rows[player].tiebreakers


# Three rounds. In round 3 A has the unplayed round under test; the others' scores make the terms easy to read:
# A beat B (1 point) in round 1 and C (2.5 points) in round 2.
BASE = [
    [("A", "B", "1-0"), ("C", "D", "1-0"), ("E", "F", "1/2")],
    [("A", "C", "1-0"), ("B", "D", "1-0"), ("E", "F", "1/2")],
]


@pytest.mark.parametrize(
    ("third", "points", "vur", "dummy"),
    [
        # 16.4.2: a bye's dummy is on A's own score, but at most a draw's points times the rounds (1.5).
        ([("A", BYE)], 3, False, F(3, 2)),  # pairing-allocated bye (16.2.1)
        ([("A", FULL_BYE)], 3, False, F(3, 2)),  # full-point bye (16.2.1)
        ([("A", HALF_BYE)], F(5, 2), True, F(3, 2)),  # requested half-point bye
        ([("A", ZERO_BYE)], 2, True, F(3, 2)),  # requested zero-point bye
        ([("A", LOSS)], 2, True, F(3, 2)),  # unpaired loss: as a zero-point bye
        # 16.4.1: a forfeit's dummy is at most the scheduled opponent's adjusted score. G, absent in rounds 1-2,
        # has 1 (a forfeit win after two absences) or, losing, 1 again (two absences followed only by VURs: draws).
        ([("A", "G", "+-")], 3, False, 1),  # forfeit win (16.2.2)
        ([("G", "A", "+-")], 2, True, 1),  # forfeit loss (16.2.4)
        ([("A", "G", "--")], 2, True, 1),  # double forfeit: a forfeit loss for both
        ([("G", BYE)], 2, True, F(3, 2)),  # absent: in no match of the round
    ],
)
def test_own_unplayed_round_is_a_dummy_opponent_on_the_own_score_capped(third, points, vur, dummy):
    rows = chess([*BASE, [("C", "D", "1-0"), ("E", "F", "1/2"), ("H", "B", "1-0"), *third]])
    a = values(rows, "A")
    assert rows["A"].points == points
    b, c = rows["B"].points, rows["C"].points
    # 16.4: B, C and a dummy (the scheduled opponent of a forfeit is no opponent).
    assert a["BH"] == b + c + dummy
    # 16.5.1: a voluntary unplayed round is cut first, even when an opponent scored less.
    assert a["BH-C1"] == (b + c if vur else b + c + dummy - min(b, c, dummy))
    # Sonneborn-Berger: the dummy's score times the points the round gave.
    got = {3: 1, F(5, 2): F(1, 2), 2: 0}[points]
    assert a["SB"] == b + c + dummy * got
    # WIN counts the unplayed wins, WON only games won over the board; GE leaves out the VUR.
    assert (a["WIN"], a["WON"], a["GE"]) == (2 + (got == 1), 2, 3 - vur)


def test_a_result_not_yet_entered_is_no_round_for_the_tie_breaks():
    rows = chess([*BASE, [("A", "G", None), ("C", "D", "1-0"), ("H", "B", "1-0")]], tiebreakers=("BH", "GE"))
    # No dummy, no opponent, not an absence: two rounds only.
    assert values(rows, "A")["BH"] == rows["B"].points + rows["C"].points
    assert values(rows, "A")["GE"] == 2


def opponent_seen_as(third_of_g, fourth_of_g=None):
    """(G's score as an opponent's tie-breaks see it, G's points): G lost to A, beat B, then the rounds given."""
    rounds = [[("A", "G", "1-0"), ("B", "C", "1-0")], [("G", "B", "1-0"), ("A", "C", "1-0")], list(third_of_g)]
    if fourth_of_g is not None:
        rounds.append(list(fourth_of_g))
    ids = sorted({p for rnd in rounds for m in rnd for p in m[:2] if p in "ABCDG"})
    event = Event(
        settings=settings_for_preset("chess"),
        players=tuple(Player(id=p, name=p) for p in ids),
        rounds=tuple(
            Round(
                number=k,
                matches=tuple(
                    Match(a=m[0], result=m[1])
                    if len(m) == 2
                    else Match(a=m[0], b=m[1], result=FORFEIT)
                    if m[2] == "+-"
                    else Match(a=m[0], b=m[1], games=(1, 0, 0))
                    for m in rnd
                ),
            )
            for k, rnd in enumerate(rounds, 1)
        ),
    )
    table = compute(event)
    points = [table.by_player()[p.id].points for p in event.players]
    g = ids.index("G")
    adjusted = fide.Tiebreaks(event, table.after_round, points).adjusted()[g]
    # And A, who met G in round 1, counts exactly that in their Buchholz.
    assert adjusted in fide.Tiebreaks(event, table.after_round, points).opponent_scores(ids.index("A"))
    return adjusted, points[g]


@pytest.mark.parametrize(
    ("third", "fourth", "seen", "real"),
    [
        # A requested bye in the last round counts as a draw (16.2.5): a zero-point bye gains half a point.
        ([("G", ZERO_BYE)], None, F(3, 2), 1),
        ([("G", HALF_BYE)], None, F(3, 2), F(3, 2)),
        # ... and so does one followed only by voluntary unplayed rounds.
        ([("G", ZERO_BYE)], [("G", LOSS)], 2, 1),
        ([("G", ZERO_BYE)], [("D", "G", "+-")], F(3, 2), 1),  # the forfeit loss itself stays 0 (16.2.4)
        # A withdrawal: every round after it counts as a draw.
        ([("A", "B", "1-0")], [("A", "C", "1-0")], 2, 1),
        # A requested bye followed by a game counts as what it gave (16.2.3).
        ([("G", ZERO_BYE)], [("G", "D", "1-0")], 2, 2),
        # Forfeit losses and awarded byes count as what they gave (16.2.4, 16.2.1, 16.2.2).
        ([("D", "G", "+-")], None, 1, 1),
        ([("G", BYE)], None, 2, 2),
        ([("G", "D", "+-")], None, 2, 2),
    ],
)
def test_an_opponents_unplayed_rounds_adjust_their_score(third, fourth, seen, real):
    got, points = opponent_seen_as(third, fourth)
    assert (got, points) == (seen, real)


def test_spec_codes_keep_the_zero_term_rule_for_non_fide_events():
    rows = chess(
        [*BASE, [("C", "D", "1-0"), ("E", "F", "1/2"), ("H", "B", "1-0"), ("A", BYE)]],
        tiebreakers=("buchholz", "BH"),
    )
    a = values(rows, "A")
    assert a["buchholz"] == rows["B"].points + rows["C"].points  # the bye is a 0 term
    # A dummy on A's own score (3), at most half of the three rounds' possible score (16.4.2).
    assert a["BH"] == rows["B"].points + rows["C"].points + F(3, 2)


def test_direct_encounter_of_the_papers_round_robin_counts_forfeits():
    # Exercise 26: the six-player round robin (section 2.2); Helene (5) won round 4 against Franck (6) by forfeit.
    rounds = [
        [("1", "6", "1/2"), ("2", "5", "1-0"), ("3", "4", "1-0")],
        [("1", "2", "1-0"), ("5", "3", "0-1"), ("6", "4", "1-0")],
        [("3", "1", "0-1"), ("2", "6", "1-0"), ("4", "5", "1/2")],
        [("2", "3", "1/2"), ("1", "4", "0-1"), ("5", "6", "+-")],
        [("5", "1", "0-1"), ("4", "2", "0-1"), ("3", "6", "1-0")],
    ]
    rows = chess(rounds, players="123456", tiebreakers=("DE",))
    assert {p: rows[p].points for p in "123456"} == {p: F(7 if p in "123" else 3, 2) for p in "123456"}
    assert {p: rows[p].tiebreakers["DE"] for p in "123456"} == {
        "1": 2,
        "2": F(1, 2),
        "3": F(1, 2),
        "4": F(1, 2),
        "5": F(3, 2),
        "6": 1,
    }
    assert [(rows[p].rank, p) for p in "123564"] == [(1, "1"), (2, "2"), (2, "3"), (4, "5"), (5, "6"), (6, "4")]


def test_direct_encounter_ranks_a_player_alone_on_top_whatever_the_missing_games_give():
    # A, B and C end on 2 points. A beat B and C; B and C never met.
    rounds = [
        [("A", "B", "1-0"), ("C", "D", "1-0"), ("E", "F", "0-1"), ("G", "H", "1/2")],
        [("A", "C", "1-0"), ("B", "D", "1-0"), ("E", "G", "1/2"), ("F", "H", "1/2")],
        [("E", "A", "1-0"), ("B", "F", "1-0"), ("C", "G", "1-0"), ("D", "H", "1/2")],
    ]
    rows = chess(rounds, players="ABCDEFGH", tiebreakers=("DE",))
    assert [p for p in "ABCDEFGH" if rows[p].points == 2] == ["A", "B", "C"]
    # A scored 2 against the others; B and C can reach 1 at most with their missing game: A first. Then B and
    # C: either could still top the other, so they stay tied.
    assert {p: rows[p].tiebreakers["DE"] for p in "ABC"} == {"A": 2, "B": 0, "C": 0}
    assert rows["A"].rank == 1 and rows["B"].rank == rows["C"].rank == 2
    # The older direct_encounter separates nobody here: not every pair met.
    spec = chess(rounds, players="ABCDEFGH", tiebreakers=("direct_encounter",))
    assert spec["A"].rank == spec["B"].rank == spec["C"].rank == 1


def test_direct_encounter_averages_a_pair_that_met_twice():
    rounds = [[("A", "B", "1-0")], [("B", "A", "1/2")], [("A", "C", "0-1"), ("B", "D", "1-0")]]
    rows = chess(rounds, players="ABCD", tiebreakers=("DE",))
    assert rows["A"].points == rows["B"].points == F(3, 2)
    assert (rows["A"].tiebreakers["DE"], rows["B"].tiebreakers["DE"]) == (F(3, 4), F(1, 4))
