"""The standings engine: the seeds' worked examples and every tie-breaker on small hand-made events (no database)."""

import json
from fractions import Fraction as F

import pytest

from standings import StandingsError, compute, format_percent, format_value, to_json, to_text
from standings.format import dumps_json, format_number
from swiss import eventfile as ef
from swiss.model import BYE, DOUBLE_LOSS, ELIMINATION, LOSS, Event, Match, Player, Round, settings_for_preset
from tests.conftest import EXAMPLES


def expected_cases() -> list[tuple[str, str | None]]:
    """(event file, tie-breaker override) for every NAME[.CODE].expected.json (tests/data/README.md)."""
    cases = []
    for path in sorted(EXAMPLES.glob("*.expected.json")):
        base, _, code = path.name.removesuffix(".expected.json").partition(".")
        cases.append((base, code or None))
    if not cases:
        raise RuntimeError(f"no expected standings in {EXAMPLES}")
    return cases


def by_rank(doc: dict) -> tuple:
    """Players sharing a rank may come in any order."""
    return doc["after_round"], sorted(doc["standings"], key=lambda r: (r["rank"], r["id"]))


def make_event(rounds, players=None, preset="mtg", **settings) -> Event:
    """Rounds are lists of matches: ("A", "B", (2, 1, 0)); ("A", None) a bye; ("A", "loss") an unpaired
    loss; ("A", "B", "double_loss"); ("A", "B", None) a result still outstanding."""
    ids = []
    for rnd in rounds:
        for m in rnd:
            ids += [p for p in m[:2] if p not in (None, "loss") and p not in ids]
    if players is None:
        players = [Player(id=p, name=f"Player {p}") for p in sorted(ids)]
    out = []
    for number, rnd in enumerate(rounds, 1):
        matches = []
        for m in rnd:
            if m[1] is None:
                matches.append(Match(a=m[0], result=BYE))
            elif m[1] == "loss":
                matches.append(Match(a=m[0], result=LOSS))
            elif m[2] == "double_loss":
                matches.append(Match(a=m[0], b=m[1], result=DOUBLE_LOSS))
            else:
                matches.append(Match(a=m[0], b=m[1], games=m[2]))
        out.append(Round(number=number, matches=tuple(matches)))
    return Event(settings=settings_for_preset(preset, **settings), players=tuple(players), rounds=tuple(out))


def rows(standings) -> dict:
    return {r.player_id: r for r in standings.rows}


def tb(event, code, player, after_round=None):
    return rows(compute(event, after_round))[player].tiebreakers[code]


W, L, D = (2, 0, 0), (0, 2, 0), (1, 1, 1)


# ---------------------------------------------------------------- the seed examples (tests/data)


@pytest.mark.parametrize(("name", "code"), expected_cases())
def test_example_reproduces_expected_json(name, code):
    doc = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    if code:
        doc["tiebreakers"] = [code]
    expected = json.loads(
        (EXAMPLES / f"{name}.{code}.expected.json" if code else EXAMPLES / f"{name}.expected.json").read_text()
    )
    standings = compute(ef.parse(doc))
    assert by_rank(to_json(standings)) == by_rank(expected)
    assert by_rank(json.loads(dumps_json(standings))) == by_rank(expected)


def test_seed002_exact_omw_separates_what_two_decimals_would_not():
    s = compute(ef.loads((EXAMPLES / "seed002-hyogo.json").read_text()))
    r = rows(s)
    assert r["B"].tiebreakers["omw"] == F(5, 9)
    assert r["F"].tiebreakers["omw"] == F(499, 900)
    assert [x.player_id for x in s.rows] == list("AEBGDFCH")
    assert format_percent(F(5, 9)) == "55.5556%"
    assert format_percent(F(499, 900)) == "55.4444%"


# ---------------------------------------------------------------- the Magic tie-breaker appendix's examples


def omw_event(first_is_bye: bool) -> Event:
    """The Magic tie-breaker appendix's example: a 6-2-0 player in 8 rounds whose opponents finished 4-4-0, 7-1-0, 1-3-1 (dropped), 3-3-1
    (dropped), 6-2-0, 5-2-1, 4-3-1, 6-1-1; every other match is against a one-match filler player."""
    records = [(4, 4, 0), (7, 1, 0), (1, 3, 1), (3, 3, 1), (6, 2, 0), (5, 2, 1), (4, 3, 1), (6, 1, 1)]
    hero_lost_to = {1, 7}  # 6-2-0: lost to the 7-1-0 and the 6-1-1 player
    rounds = [[] for _ in range(8)]
    fillers = 0

    def filler() -> str:
        nonlocal fillers
        fillers += 1
        return f"f{fillers:03d}"

    for k, (w, lo, d) in enumerate(records):
        opp = f"o{k}"
        if k == 0 and first_is_bye:
            rounds[0].append(("hero", None))
        else:
            rounds[k].append(("hero", opp, L if k in hero_lost_to else W))
            if k in hero_lost_to:
                w -= 1
            else:
                lo -= 1
        hero_round = None if k == 0 and first_is_bye else k
        others = iter(r for r in range(8) if r != hero_round)
        for result, count in ((W, w), (L, lo), (D, d)):
            for _ in range(count):
                rounds[next(others)].append((opp, filler(), result))
    return make_event(rounds)


def test_seed000_omw_worked_example():
    event = omw_event(first_is_bye=False)
    r = rows(compute(event))
    assert (r["hero"].wins, r["hero"].losses, r["hero"].draws) == (6, 2, 0)
    for k, rec in enumerate([(4, 4, 0), (7, 1, 0), (1, 3, 1), (3, 3, 1), (6, 2, 0), (5, 2, 1), (4, 3, 1), (6, 1, 1)]):
        assert (r[f"o{k}"].wins, r[f"o{k}"].losses, r[f"o{k}"].draws) == rec
    # 1-3-1 is 4/15 = 0.2667, floored to 0.33 exactly.
    omw = (F(12, 24) + F(21, 24) + F(33, 100) + F(10, 21) + F(18, 24) + F(16, 24) + F(13, 24) + F(19, 24)) / 8
    assert r["hero"].tiebreakers["omw"] == omw
    assert round(float(omw), 4) == 0.6164
    assert round(float(omw), 2) == 0.62


def test_seed000_omw_ignores_the_bye():
    r = rows(compute(omw_event(first_is_bye=True)))
    omw = (F(21, 24) + F(33, 100) + F(10, 21) + F(18, 24) + F(16, 24) + F(13, 24) + F(19, 24)) / 7
    assert r["hero"].tiebreakers["omw"] == omw
    assert round(float(omw), 2) == 0.63
    assert r["hero"].points == 18  # the bye still scores its 3 points


def test_seed000_game_win_percentage():
    # H: 2-0, 2-1, 1-2, 2-0 = 21 game points in 10 games; I: 1-2, 1-2, 0-2, 1-2 = 9 in 11.
    event = make_event(
        [
            [("H", "x1", (2, 0, 0)), ("I", "y1", (1, 2, 0))],
            [("H", "x2", (2, 1, 0)), ("I", "y2", (1, 2, 0))],
            [("H", "x3", (1, 2, 0)), ("I", "y3", (0, 2, 0))],
            [("H", "x4", (2, 0, 0)), ("I", "y4", (1, 2, 0))],
        ],
        tiebreakers=("gw",),
    )
    r = rows(compute(event))
    assert r["H"].tiebreakers["gw"] == F(21, 30) == F(7, 10)
    assert r["I"].tiebreakers["gw"] == F(33, 100)  # 9/33 = 0.27, floored
    assert format_value("gw", r["H"].tiebreakers["gw"]) == "70.0000%"


def test_seed001_match_win_percentage_table():
    # C 5-2-1 over 8 rounds; D 1-3-0 and dropped after round 4; E 3-2-0 with a bye in round 1, dropped after 5.
    rounds = []
    c_results = [W, W, W, W, W, L, L, D]
    d_results = [W, L, L, L]
    e_results = [None, W, W, L, L]
    for k in range(8):
        rnd = [("C", f"c{k}", c_results[k])]
        if k < 4:
            rnd.append(("D", f"d{k}", d_results[k]))
        if k < 5:
            rnd.append(("E", None) if e_results[k] is None else ("E", f"e{k}", e_results[k]))
        rounds.append(rnd)
    players = [Player(id="C", name="C"), Player(id="D", name="D", dropped_after=4)]
    players += [Player(id="E", name="E", dropped_after=5)]
    players += [Player(id=f"{p}{k}", name=f"{p}{k}") for p in "cde" for k in range(8)]
    r = rows(compute(make_event(rounds, players=players, tiebreakers=("mw",))))
    assert r["C"].tiebreakers["mw"] == F(16, 24)
    assert r["D"].tiebreakers["mw"] == F(33, 100)  # 3/12 = 0.25 is below the floor
    assert r["E"].tiebreakers["mw"] == F(9, 15)
    assert (r["E"].points, r["E"].rounds_played, r["D"].rounds_played) == (9, 5, 4)


def test_one_win_in_three_rounds_stays_one_third():
    event = make_event([[("A", "B", W)], [("A", "B", L)], [("A", "B", L)]], tiebreakers=("mw",))
    assert tb(event, "mw", "A") == F(1, 3)  # above 0.33, not rounded to it


# ---------------------------------------------------------------- records and special results


def test_bye_counts_as_win_with_the_games_needed():
    event = make_event([[("A", None), ("B", "C", (2, 1, 0))]], tiebreakers=("gw", "omw"))
    r = rows(compute(event))
    assert (r["A"].points, r["A"].wins, r["A"].rounds_played) == (3, 1, 1)
    assert r["A"].tiebreakers["gw"] == 1  # 2-0: 6 game points of 6
    assert r["A"].tiebreakers["omw"] == F(33, 100)  # no opponent: the floor


def test_best_of_five_bye_is_three_games():
    event = make_event([[("A", None), ("B", "C", (3, 2, 0))]], best_of=5, tiebreakers=("gw",))
    assert tb(event, "gw", "A") == 1
    assert tb(event, "gw", "B") == F(9, 15)


def test_unpaired_loss_is_a_loss_without_opponent_or_games():
    event = make_event(
        [[("A", "loss"), ("B", "C", W)], [("A", "B", (2, 1, 0)), ("C", None)]], tiebreakers=("omw", "gw")
    )
    r = rows(compute(event))
    a = r["A"]
    assert (a.points, a.wins, a.losses, a.rounds_played) == (3, 1, 1, 2)
    assert a.tiebreakers["gw"] == F(6, 9)  # only the 2-1 counts
    assert a.tiebreakers["omw"] == F(1, 2)  # B: 3 points of 6


def test_double_loss_both_lose_and_are_each_others_opponent():
    event = make_event(
        [[("A", "B", "double_loss"), ("C", "D", W)], [("A", "C", (2, 1, 0)), ("B", "D", (1, 2, 0))]],
        tiebreakers=("omw", "gw", "buchholz"),
    )
    r = rows(compute(event))
    assert (r["A"].wins, r["A"].losses, r["A"].points, r["A"].rounds_played) == (1, 1, 3, 2)
    assert (r["B"].wins, r["B"].losses, r["B"].points) == (0, 2, 0)
    # A met B (0 of 6, floored) and C (3 of 6).
    assert r["A"].tiebreakers["omw"] == (F(33, 100) + F(1, 2)) / 2
    assert r["A"].tiebreakers["gw"] == F(6, 9)  # the double loss counts no games
    assert r["B"].tiebreakers["buchholz"] == 3 + 3  # A's 3 and D's 3


def test_outstanding_results_do_not_count():
    event = make_event([[("A", "B", W)], [("A", "B", None)]])
    s = compute(event)
    assert s.after_round == 1
    assert rows(s)["A"].rounds_played == 1
    assert compute(event, after_round=2).rows[0].rounds_played == 1


def test_after_round_defaults_to_last_round_with_a_result():
    event = make_event([[("A", "B", W)], [("A", "B", L)], [("A", "B", None)]])
    assert compute(event).after_round == 2
    assert rows(compute(event, after_round=1))["A"].points == 3
    assert rows(compute(event))["A"].points == 3
    assert compute(make_event([[("A", "B", None)]])).after_round == 0
    assert compute(make_event([])).rows == ()


def test_elimination_rounds_are_not_standings():
    event = make_event([[("A", "B", W)]])
    top_cut = Round(number=2, kind=ELIMINATION, matches=(Match(a="B", b="A", games=(2, 0, 0)),))
    event = Event(settings=event.settings, players=event.players, rounds=(*event.rounds, top_cut))
    s = compute(event)
    assert s.after_round == 1
    assert rows(s)["B"].points == 0


def test_pre_awarded_byes_missing_from_the_file():
    players = [Player(id="A", name="A", byes=2), Player(id="B", name="B"), Player(id="C", name="C")]
    event = make_event([[("B", "C", W)], [("B", "C", W)], [("A", "B", W)]], players=players, tiebreakers=("omw", "gw"))
    r = rows(compute(event))
    assert (r["A"].points, r["A"].wins, r["A"].rounds_played) == (9, 3, 3)
    assert r["A"].tiebreakers["gw"] == 1
    assert r["A"].tiebreakers["omw"] == F(2, 3)  # only B, who is 2-1
    # Only rounds up to after_round.
    r1 = rows(compute(event, after_round=1))["A"]
    assert (r1.points, r1.rounds_played) == (3, 1)


def test_pre_awarded_bye_stored_explicitly_is_not_doubled():
    players = [Player(id="A", name="A", byes=1), Player(id="B", name="B"), Player(id="C", name="C")]
    event = make_event([[("A", None), ("B", "C", W)]], players=players)
    assert (rows(compute(event))["A"].points, rows(compute(event))["A"].rounds_played) == (3, 1)


def test_late_entrant_missed_rounds_are_not_played():
    players = [Player(id=p, name=p) for p in "ABC"] + [Player(id="D", name="D", joined_round=2)]
    event = make_event(
        [[("A", "B", W), ("C", None)], [("A", "D", L), ("B", "C", W)]], players=players, tiebreakers=("mw", "omw")
    )
    r = rows(compute(event))
    assert (r["D"].points, r["D"].rounds_played, r["D"].tiebreakers["mw"]) == (3, 1, 1)
    assert r["A"].tiebreakers["omw"] == (F(1, 2) + 1) / 2


def test_late_entrant_with_unpaired_losses_for_missed_rounds():
    players = [Player(id=p, name=p) for p in "AB"] + [Player(id="D", name="D", joined_round=2)]
    event = make_event(
        [[("A", "B", W), ("D", "loss")], [("D", "A", W), ("B", None)]], players=players, tiebreakers=("mw",)
    )
    d = rows(compute(event))["D"]
    assert (d.points, d.wins, d.losses, d.rounds_played, d.tiebreakers["mw"]) == (3, 1, 1, 2, F(1, 2))


def test_dropped_player_counts_only_rounds_played():
    players = [Player(id="A", name="A", dropped_after=1)] + [Player(id=p, name=p) for p in "BCD"]
    event = make_event(
        [[("A", "B", W), ("C", "D", W)], [("B", "D", W), ("C", None)]], players=players, tiebreakers=("mw", "omw")
    )
    r = rows(compute(event))
    assert (r["A"].rounds_played, r["A"].tiebreakers["mw"], r["A"].dropped) == (1, 1, True)
    assert r["B"].tiebreakers["omw"] == (1 + F(33, 100)) / 2  # A's mw is over A's one round
    assert "(dropped)" in to_text(compute(event))


def test_rematch_counts_twice():
    event = make_event(
        [[("A", "B", W), ("C", "D", W)], [("A", "C", W), ("B", "D", W)], [("A", "B", W), ("C", "D", W)]],
        tiebreakers=("omw", "buchholz"),
    )
    r = rows(compute(event))
    # B: 1-2 (3 of 9 = 1/3), C: 2-1 (2/3); A met B twice.
    assert r["A"].tiebreakers["omw"] == (F(1, 3) + F(2, 3) + F(1, 3)) / 3
    assert r["A"].tiebreakers["buchholz"] == 3 + 6 + 3


def test_draws_score_the_draw_value_and_game_points():
    event = make_event([[("A", "B", (1, 1, 1))], [("A", "B", (0, 0, 3))]], tiebreakers=("gw",))
    a = rows(compute(event))["A"]
    assert (a.points, a.draws, a.wins, a.losses) == (2, 2, 0, 0)
    assert a.tiebreakers["gw"] == F(3 + 1 + 3, 3 * 6)


# ---------------------------------------------------------------- ranking


def test_shared_ranks_skip_and_order_by_name_then_id():
    players = [
        Player(id="z", name="Zoe"),
        Player(id="b2", name="Bo"),
        Player(id="b1", name="Bo"),
        Player(id="a", name="Ann"),
    ]
    # Everybody 1-1 with the same opponents' records except Ann, who is 2-0.
    event = make_event(
        [[("a", "z", W), ("b1", "b2", W)], [("a", "b1", W), ("b2", "z", (0, 0, 3))]],
        players=players,
        tiebreakers=(),
    )
    s = compute(event)
    assert [(r.rank, r.player_id) for r in s.rows] == [(1, "a"), (2, "b1"), (3, "b2"), (3, "z")]
    event = make_event(
        [[("a", "z", W), ("b1", "b2", L)], [("a", "b1", W), ("b2", "z", L)]], players=players, tiebreakers=()
    )
    assert [(r.rank, r.player_id) for r in compute(event).rows] == [(1, "a"), (2, "b2"), (2, "z"), (4, "b1")]
    event = make_event([[("a", "z", D), ("b2", "b1", D)]], players=players, tiebreakers=())
    assert [(r.rank, r.player_id) for r in compute(event).rows] == [(1, "a"), (1, "b1"), (1, "b2"), (1, "z")]


def test_later_tiebreakers_only_break_remaining_ties():
    # A and B both 1-0; A's opponent is 0-1 and B's is 0-1: omw equal, gw separates (2-0 against 2-1).
    event = make_event([[("A", "C", (2, 0, 0)), ("B", "D", (2, 1, 0))]])
    s = compute(event)
    assert [(r.rank, r.player_id) for r in s.rows][:2] == [(1, "A"), (2, "B")]


# ---------------------------------------------------------------- every tie-breaker


def chess_event(**settings):
    """Four rounds, chess scoring. Results: first named wins unless noted."""
    return make_event(
        [
            [("A", "B", (1, 0, 0)), ("C", "D", (0, 0, 1)), ("E", None)],
            [("A", "C", (1, 0, 0)), ("B", "E", (0, 1, 0)), ("D", None)],
            [("A", "E", (0, 0, 1)), ("B", "D", (1, 0, 0)), ("C", None)],
        ],
        players=[Player(id=p, name=p, rating=r) for p, r in zip("ABCDE", (2000, 1900, 1800, 1700, None), strict=True)],
        preset="chess",
        bye_rating=1000,
        **settings,
    )


# Points: A 2.5 (B, C, =E), B 1 (lost A, lost E, beat D), C 1.5 (=D, lost A, bye), D 1.5 (=C, bye, lost B),
# E 2.5 (bye, beat B, =A).
def test_chess_points():
    r = rows(compute(chess_event()))
    assert {p: r[p].points for p in "ABCDE"} == {"A": F(5, 2), "B": 1, "C": F(3, 2), "D": F(3, 2), "E": F(5, 2)}
    assert to_json(compute(chess_event()))["standings"][0]["points"] == "5/2"
    assert format_number(F(5, 2)) == "2.5"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # Terms (opponents' points, 0 for a bye), highest first.
        # A: B 1, C 1.5, E 2.5 -> 5; B: A 2.5, E 2.5, D 1.5 -> 6.5; C: D 1.5, A 2.5, bye 0 -> 4;
        # D: C 1.5, bye 0, B 1 -> 2.5; E: bye 0, B 1, A 2.5 -> 3.5.
        ("buchholz", {"A": F(5), "B": F(13, 2), "C": F(4), "D": F(5, 2), "E": F(7, 2)}),
        ("buchholz_cut1", {"A": F(4), "B": F(5), "C": F(4), "D": F(5, 2), "E": F(7, 2)}),
        ("median_buchholz", {"A": F(3, 2), "B": F(5, 2), "C": F(3, 2), "D": F(1), "E": F(1)}),
        ("buchholz_cuts", {"A": (5, 4, F(5, 2)), "C": (4, 4, F(5, 2)), "E": (F(7, 2), F(7, 2), F(5, 2))}),
        # Three rounds: best R-2 = 1, best R-1 = 2, best R = 3.
        ("buchholz_variant", {"A": (F(5, 2), 4, 5), "B": (F(5, 2), 5, F(13, 2)), "D": (F(3, 2), F(5, 2), F(5, 2))}),
        # Beaten opponents' points plus half of drawn ones'.
        ("sonneborn_berger", {"A": 1 + F(3, 2) + F(5, 4), "B": F(3, 2), "C": F(3, 4), "D": F(3, 4), "E": 1 + F(5, 4)}),
        ("rating_sum", {"A": 1900 + 1800, "B": 2000 + 1700, "C": 1700 + 2000 + 1000, "D": 1800 + 1000 + 1900}),
        ("wins", {"A": 2, "B": 1, "C": 0, "D": 0, "E": 1}),
        # Running scores: A 1, 2, 2.5; B 0, 0, 1; C .5, .5, 1.5; D .5, 1.5, 1.5; E 1, 2, 2.5.
        ("cumulative", {"A": F(11, 2), "B": 1, "C": F(5, 2), "D": F(7, 2), "E": F(11, 2)}),
    ],
)
def test_player_tiebreakers(code, expected):
    r = rows(compute(chess_event(tiebreakers=(code,))))
    for player, value in expected.items():
        got = r[player].tiebreakers[code]
        assert got == (tuple(F(v) for v in value) if isinstance(value, tuple) else value), player


def test_rating_sum_counts_unrated_opponent_as_zero_and_bye_as_bye_rating():
    # E is unrated: A met B, C and E.
    assert tb(chess_event(tiebreakers=("rating_sum",)), "rating_sum", "A") == 3700
    assert tb(chess_event(tiebreakers=("rating_sum",)), "rating_sum", "E") == 1000 + 1900 + 2000


def test_buchholz_pads_rounds_not_played_with_zero_terms():
    players = [Player(id=p, name=p) for p in "ABC"] + [Player(id="D", name="D", joined_round=2)]
    event = make_event(
        [[("A", "B", W), ("C", None)], [("A", "D", W), ("B", "C", W)]],
        players=players,
        tiebreakers=("buchholz_cuts", "buchholz_cut1"),
    )
    r = rows(compute(event))
    assert r["D"].tiebreakers["buchholz_cuts"] == (6, 6)  # [A 6, nothing 0]
    assert r["D"].tiebreakers["buchholz_cut1"] == 6


def test_median_buchholz_cuts_two_each_side_from_nine_rounds():
    rounds = [[("A", f"x{k}", W), *[(f"x{j}", f"y{j}", W) for j in range(9) if j != k]] for k in range(9)]
    # Each x{j} beats y{j} in 8 rounds and loses to A once: 8 wins = 24 points each; A's 9 terms are all 24.
    players = [Player(id="A", name="A")] + [Player(id=f"{c}{j}", name=f"{c}{j}") for c in "xy" for j in range(9)]
    event = make_event(rounds, players=players, tiebreakers=("median_buchholz", "buchholz"))
    r = rows(compute(event))
    assert r["A"].tiebreakers["buchholz"] == 9 * 24
    assert r["A"].tiebreakers["median_buchholz"] == 5 * 24


def test_oomw_is_mean_of_opponents_omw():
    event = make_event([[("A", "B", W), ("C", "D", W)], [("A", "C", W), ("B", "D", W)]], tiebreakers=("omw", "oomw"))
    r = rows(compute(event))
    omw = {p: r[p].tiebreakers["omw"] for p in "ABCD"}
    assert r["A"].tiebreakers["oomw"] == (omw["B"] + omw["C"]) / 2
    assert omw["A"] == F(1, 2)  # B 1-1, C 1-1


def test_ogw_is_mean_of_opponents_gw():
    event = make_event([[("A", "B", (2, 1, 0))], [("A", "B", (0, 2, 1))]], tiebreakers=("ogw",))
    # B: 3 + 6 + 1 = 10 game points of 3 x 6.
    assert tb(event, "ogw", "A") == F(10, 18)


def test_direct_encounter_when_every_tied_pair_met():
    # A, B, C all 2-1: a cycle among them (A beat B, B beat C, C beat A) and a win each over D.
    cycle = [
        [("A", "B", W), ("C", "D", W)],
        [("B", "C", W), ("A", "D", W)],
        [("C", "A", W), ("B", "D", W)],
    ]
    s = compute(make_event(cycle, preset="chess", tiebreakers=("direct_encounter",)))
    assert [r.rank for r in s.rows] == [1, 1, 1, 4]
    assert [r.tiebreakers["direct_encounter"] for r in s.rows] == [1, 1, 1, 0]


def test_direct_encounter_applies_only_among_players_still_tied():
    one = (1, 0, 0)
    rounds = [
        [("P", "Q", one), ("R", "S", one), ("T", "U", one)],
        [("Q", "U", one), ("T", "R", one), ("S", "P", one)],
    ]
    # On 1 point: R (buchholz 3), S and P (2), Q (1). R never met P, but S beat P.
    s = compute(make_event(rounds, preset="chess", tiebreakers=("buchholz", "direct_encounter")))
    assert [(r.rank, r.player_id) for r in s.rows] == [(1, "T"), (2, "R"), (3, "S"), (4, "P"), (5, "Q"), (6, "U")]
    assert (rows(s)["S"].tiebreakers["direct_encounter"], rows(s)["P"].tiebreakers["direct_encounter"]) == (1, 0)
    # First, over all four on 1 point, not every pair has met: it separates nobody.
    s = compute(make_event(rounds, preset="chess", tiebreakers=("direct_encounter", "buchholz")))
    assert [(r.rank, r.player_id) for r in s.rows] == [(1, "T"), (2, "R"), (3, "P"), (3, "S"), (5, "Q"), (6, "U")]
    assert all(r.tiebreakers["direct_encounter"] == 0 for r in s.rows)


def test_direct_encounter_separates_a_two_player_tie():
    # A and B both 2-1 with equal buchholz cut: B beat A.
    event = make_event(
        [
            [("B", "A", (1, 0, 0)), ("C", "D", (1, 0, 0))],
            [("A", "C", (1, 0, 0)), ("B", "D", (1, 0, 0))],
        ],
        preset="chess",
        tiebreakers=("direct_encounter",),
    )
    s = compute(event)
    r = rows(s)
    assert r["B"].points == 2 and r["A"].points == 1 and r["C"].points == 1
    # A and C are tied on 1 point and A beat C: A first.
    assert (r["A"].rank, r["C"].rank) == (2, 3)
    assert (r["A"].tiebreakers["direct_encounter"], r["C"].tiebreakers["direct_encounter"]) == (1, 0)
    assert r["B"].tiebreakers["direct_encounter"] == 0  # alone on 2 points


def test_head_to_head_two_tied_players_who_met():
    event = make_event(
        [[("B", "A", W), ("C", "D", W)], [("A", "C", W), ("B", "D", W)]],
        preset="pokemon",
        tiebreakers=("head_to_head",),
    )
    r = rows(compute(event))
    assert (r["A"].rank, r["C"].rank) == (2, 3)
    assert r["A"].tiebreakers["head_to_head"] == 3


def test_head_to_head_does_not_separate_three():
    event = make_event(
        [[("A", "B", W), ("C", "D", W), ("E", "F", W)], [("B", "C", W), ("D", "E", W), ("F", "A", W)]],
        preset="pokemon",
        tiebreakers=("head_to_head",),
    )
    s = compute(event)
    # Everybody 1-1: six tied, head-to-head needs exactly two.
    assert {r.rank for r in s.rows} == {1}
    assert all(r.tiebreakers["head_to_head"] == 0 for r in s.rows)


# ---------------------------------------------------------------- Pokémon


def test_pokemon_win_rate_leaves_byes_out():
    players = [Player(id=p, name=p) for p in "ABDE"] + [Player(id="C", name="C", dropped_after=2)]
    event = make_event(
        [
            [("A", "B", W), ("C", "D", W), ("E", None)],
            [("A", "C", W), ("B", "E", W), ("D", None)],
            [("A", "E", W), ("B", "D", (1, 1, 1))],
        ],
        players=players,
        preset="pokemon",
        planned_rounds=3,
        tiebreakers=("mw", "omw"),
    )
    r = rows(compute(event))
    assert r["A"].tiebreakers["mw"] == 1  # 3-0
    assert r["E"].points == 3 and r["E"].tiebreakers["mw"] == F(1, 4)  # bye left out: 0 of 2, floor 0.25
    assert r["D"].tiebreakers["mw"] == F(1, 4)  # a draw, 1 of 6 without the bye, floored
    assert r["C"].tiebreakers["mw"] == F(1, 2)
    assert r["A"].tiebreakers["omw"] == (r["B"].tiebreakers["mw"] + F(1, 2) + F(1, 4)) / 3


def test_pokemon_floor_and_dropped_cap():
    players = [Player(id="A", name="A", dropped_after=2)] + [Player(id=p, name=p) for p in "BCD"]
    event = make_event(
        [[("A", "B", W), ("C", "D", W)], [("A", "C", W), ("B", "D", (1, 1, 1))], [("B", "C", W), ("D", None)]],
        players=players,
        preset="pokemon",
        planned_rounds=3,
        tiebreakers=("mw",),
    )
    r = rows(compute(event))
    assert r["A"].tiebreakers["mw"] == F(3, 4)  # 2-0 but dropped: capped at 0.75
    assert r["D"].tiebreakers["mw"] == F(1, 4)  # 0-1-1 without the bye: 1/6, floored
    assert r["D"].points == 4  # the bye still counts in the standings
    assert r["B"].tiebreakers["mw"] == F(4, 9)  # 1-1-1: 4 of 9


def test_match_with_an_unregistered_player_is_refused():
    event = make_event([[("A", "B", W)]], players=[Player(id="A", name="A")])
    with pytest.raises(StandingsError, match="round 1: player 'B' is not registered"):
        compute(event)


def messy_event(codes) -> Event:
    """A drop (D after round 2), a late entrant with an unpaired loss (E), an implicit pre-awarded bye (F),
    a double loss (C-D), an explicit bye (C), a draw (A-C), an unrated player (F)."""
    players = [
        Player(id="A", name="A", rating=1500),
        Player(id="B", name="B", rating=1400),
        Player(id="C", name="C", rating=1300),
        Player(id="D", name="D", rating=1200, dropped_after=2),
        Player(id="E", name="E", rating=1100, joined_round=2),
        Player(id="F", name="F", byes=1),
    ]
    rounds = [
        [("A", "B", (2, 1, 0)), ("C", "D", "double_loss"), ("E", "loss")],
        [("A", "C", (1, 1, 1)), ("B", "F", (0, 2, 0)), ("D", "E", (2, 0, 0))],
        [("A", "F", (2, 0, 0)), ("B", "E", (2, 1, 0)), ("C", None)],
    ]
    return make_event(rounds, players=players, tiebreakers=tuple(codes), bye_rating=1000)


def test_messy_event_records():
    s = compute(messy_event(["omw"]))
    got = {r.player_id: (r.points, r.wins, r.losses, r.draws, r.rounds_played) for r in s.rows}
    assert got == {
        "A": (7, 2, 0, 1, 3),
        "B": (3, 1, 2, 0, 3),
        "C": (4, 1, 1, 1, 3),
        "D": (3, 1, 1, 0, 2),
        "E": (0, 0, 3, 0, 3),
        "F": (6, 2, 1, 0, 3),
    }
    assert [r.player_id for r in s.rows][:3] == ["A", "F", "C"]


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("mw", {"A": F(7, 9), "B": F(1, 3), "C": F(4, 9), "D": F(1, 2), "E": F(33, 100), "F": F(2, 3)}),
        # A met B, C, F; C met D (double loss) and A; E met D and B; F met B and A.
        ("omw", {"A": F(13, 27), "C": F(23, 36), "E": (F(1, 2) + F(1, 3)) / 2, "F": F(5, 9)}),
        # Game points over 3 x games; a double loss and an unpaired loss count no games, a bye is 2-0.
        ("gw", {"A": F(16, 24), "B": F(9, 24), "C": F(10, 15), "D": F(1), "E": F(33, 100), "F": F(12, 18)}),
        ("ogw", {"A": (F(3, 8) + F(2, 3) + F(2, 3)) / 3, "C": (1 + F(2, 3)) / 2}),
        ("oomw", {"A": (F(1597, 2700) + F(23, 36) + F(5, 9)) / 3}),
        ("buchholz", {"A": 13, "C": 3 + 7 + 0, "D": 4, "E": 0 + 3 + 3, "F": 0 + 3 + 7}),
        ("buchholz_cut1", {"A": 10, "C": 10, "D": 4, "E": 6}),
        ("median_buchholz", {"A": 4, "C": 3, "D": 0, "F": 3}),
        ("buchholz_cuts", {"A": (13, 10, 6), "C": (10, 10, 7), "D": (4, 4, 4)}),
        ("buchholz_variant", {"A": (6, 10, 13), "C": (7, 10, 10)}),
        # A beat B (3) and F (6), drew C (4); C beat nobody (a double loss is no win), drew A (7).
        ("sonneborn_berger", {"A": 3 + 6 + 2, "C": F(7, 2), "D": 0, "F": 3}),
        ("rating_sum", {"A": 1400 + 1300, "C": 1200 + 1500 + 1000, "E": 1200 + 1400, "F": 1000 + 1400 + 1500}),
        ("wins", {"A": 2, "C": 0, "F": 1}),
        # Running scores: A 3, 4, 7; C 0, 1, 4; D 0, 3, 3 (dropped); F 3, 6, 6.
        ("cumulative", {"A": 14, "C": 5, "D": 6, "E": 0, "F": 15}),
    ],
)
def test_every_tiebreaker_on_a_messy_event(code, expected):
    r = rows(compute(messy_event([code])))
    for player, value in expected.items():
        want = tuple(F(v) for v in value) if isinstance(value, tuple) else value
        assert r[player].tiebreakers[code] == want, player
