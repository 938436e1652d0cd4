"""FIDE rating changes (standings/rating.py): the regulations' table, the 400-point rule, K by case, and a
rating change FIDE published, checked to the exact figure (no database)."""

import json
from fractions import Fraction
from io import StringIO
from pathlib import Path

from pairing.tools.main import main
from standings.fide import expected
from standings.rating import (
    FIDE,
    K_GIVEN,
    K_JUNIOR,
    K_STANDARD,
    K_TOP,
    format_change,
    has_ratings,
    rating_changes,
)
from swiss.eventfile import dumps, loads
from swiss.model import FORFEIT, Event, Match, Player, Round, Settings, settings_for_preset

DATA = Path(__file__).resolve().parents[1] / "data"


def chess(players, rounds, date="2026-06-01"):
    return Event(settings_for_preset("chess", date=date), tuple(players), tuple(rounds))


def game(a, b, result):
    """result 1, ½ or 0 for a, as the games tuple of a one-game match."""
    return Match(a, b, games=(1, 0, 0) if result == 1 else (0, 1, 0) if result == 0 else (0, 0, 1))


def test_table_8_1b_at_its_edges():
    # Each band of table 8.1(b): its first and last difference give the same hundredths.
    for low, high, h in ((0, 3, 50), (4, 10, 51), (92, 98, 63), (99, 106, 64), (345, 357, 89), (392, 411, 92)):
        assert expected(low) == expected(high) == Fraction(h, 100)
        assert expected(-low) == expected(-high) == Fraction(100 - h, 100)
    assert expected(620) == expected(735) == Fraction(99, 100)
    assert expected(736) == 1


def test_the_400_point_rule_caps_every_game():
    # A difference above 400 counts as 400: 0.92 for the higher-rated player, 0.08 for the lower.
    assert FIDE.expected(2000, 1500) == FIDE.expected(2000, 1600) == Fraction(92, 100)
    assert FIDE.expected(2000, 2450) == Fraction(8, 100)
    assert FIDE.expected(2600, 1400) == Fraction(92, 100)  # 1200 apart: still 0.92, never 1
    # chesselo's worked example: 2000 against 2100 and 1500 expects 0.36 + 0.92 = 1.28.
    assert FIDE.expected(2000, 2100) + FIDE.expected(2000, 1500) == Fraction(128, 100)


def test_k_by_rating_age_and_the_file():
    event = chess([], [], date="2026-03-01")
    k = lambda **kw: FIDE.k_factor(Player("p", "P", **kw), event)  # noqa: E731
    assert k(rating=2450) == (10, K_TOP)
    assert k(rating=2400) == (10, K_TOP)
    assert k(rating=2399) == (20, K_STANDARD)
    # Until the end of the year of the 18th birthday, under 2300: 40.
    assert k(rating=1900, birth_date="2008/12/31") == (40, K_JUNIOR)
    assert k(rating=1900, birth_date="2007") == (20, K_STANDARD)
    assert k(rating=2300, birth_date="2010") == (20, K_STANDARD)
    assert k(rating=1500, k=40) == (40, K_GIVEN)  # a player new to the list, K from the rating list
    # Without the event's date the age is unknown: the rating decides.
    assert FIDE.k_factor(Player("p", "P", rating=1900, birth_date="2010"), chess([], [], date=None)) == (20, K_STANDARD)


def test_k_times_games_is_at_most_700():
    assert FIDE.limit_k(40, 17) == 40  # 680
    assert FIDE.limit_k(40, 18) == 38  # 38 × 18 = 684 <= 700 < 39 × 18
    assert FIDE.limit_k(20, 40) == 17


def test_one_game_changes_both_players_by_k_times_score_minus_expected():
    # Kasparov 2812 (K 10) beats Carlsen 2786: 26 points apart, 0.54 expected, +4.6 (FIDE's calculator).
    e = chess(
        [Player("k", "Kasparov", rating=2812), Player("c", "Carlsen", rating=2786)], [Round(1, (game("k", "c", 1),))]
    )
    changes = rating_changes(e)
    assert changes["k"].total == Fraction(46, 10) and changes["k"].k == 10
    assert changes["c"].total == Fraction(-46, 10)
    assert format_change(changes["k"].total) == "+4.6" and format_change(changes["c"].total) == "-4.6"


def test_unrated_opponents_forfeits_and_byes_are_not_rated():
    players = [Player("a", "A", rating=2000), Player("b", "B", rating=1900), Player("u", "U")]
    rounds = [
        Round(1, (game("a", "u", 0), Match("b", result="bye"))),
        Round(2, (Match("a", "b", result=FORFEIT),)),
        Round(3, (game("b", "a", Fraction(1, 2)),)),
    ]
    changes = rating_changes(chess(players, rounds))
    assert "u" not in changes
    assert [g.round for g in changes["a"].games] == [3]
    # A 2000 draws B 1900: 100 apart, 0.64 expected, K 20: 20 × (0.5 − 0.64) = −2.8.
    assert changes["a"].total == Fraction(-28, 10)
    assert changes["b"].total == Fraction(28, 10)
    assert changes["a"].by_round() == {3: Fraction(-28, 10)}


def test_after_round_stops_the_sum():
    players = [Player("a", "A", rating=2000), Player("b", "B", rating=2000)]
    rounds = [Round(1, (game("a", "b", 1),)), Round(2, (game("b", "a", 1),))]
    event = chess(players, rounds)
    assert rating_changes(event, 1)["a"].total == 10
    assert rating_changes(event)["a"].total == 0


def test_a_change_fide_published_for_a_real_event():
    # FIDE's individual calculations, June 2017, Provincial Chorrera (PAN, 2017-05-02), as quoted by
    # elo-calculator.chesselo.com: Player A 1922, K 40, beat 1798 (0.33, +13.20), lost to 1801 (−0.66,
    # −26.40), beat 1897 (0.47, +18.80); total change 5.60.
    event = loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_text(encoding="utf-8"))
    a = rating_changes(event)["A"]
    assert (a.k, a.k_source) == (40, K_GIVEN)
    assert [1 * (g.score - g.expected) for g in a.games] == [Fraction(33, 100), Fraction(-66, 100), Fraction(47, 100)]
    assert [g.change for g in a.games] == [Fraction(1320, 100), Fraction(-2640, 100), Fraction(1880, 100)]
    assert a.total == Fraction(56, 10)


def test_the_k_of_the_file_reads_and_writes_back():
    event = loads((DATA / "ratings" / "fide-calc-chorrera-2017.json").read_text(encoding="utf-8"))
    assert loads(dumps(event)).players[0].k == 40
    assert "k" not in json.loads(dumps(event))["players"][1]


def test_rounding_to_one_decimal_half_away_from_zero():
    assert format_change(Fraction(5, 100)) == "+0.1"
    assert format_change(Fraction(-5, 100)) == "-0.1"
    assert format_change(Fraction(4, 100)) == "0.0"
    assert format_change(Fraction(-112, 10), plus=False) == "-11.2"


def run(*args):
    out, err = StringIO(), StringIO()
    assert main(list(args), out, err) == 0, err.getvalue()
    return out.getvalue()


def test_swiss_standings_json_gives_the_change_and_k():
    rows = json.loads(run("standings", str(DATA / "ratings" / "fide-calc-chorrera-2017.json"), "--format", "json"))[
        "standings"
    ]
    by_id = {r["id"]: r for r in rows}
    assert (by_id["A"]["rating_change"], by_id["A"]["k"], by_id["A"]["k_from"]) == ("5.6", 40, "given")
    # B 1798 lost to A 1922: 124 apart, expected 0.33, K 20: −6.6.
    assert (by_id["B"]["rating_change"], by_id["B"]["k"], by_id["B"]["k_from"]) == ("-6.6", 20, "standard")


def test_swiss_standings_text_has_the_column():
    lines = run("standings", str(DATA / "ratings" / "fide-calc-chorrera-2017.json")).splitlines()
    assert lines[1].split()[-2:] == ["Rtg+/-", "K"]
    a = next(line for line in lines if "Player A" in line)
    assert a.split()[-2:] == ["+5.6", "40"]


def test_events_without_ratings_have_no_rating_keys():
    assert not has_ratings(Event(Settings(), (Player("a", "A", rating=1500),)))
    assert not has_ratings(chess([Player("a", "A")], []))
    rows = json.loads(run("standings", str(DATA / "seed002-hyogo.json"), "--format", "json"))["standings"]
    assert "rating_change" not in rows[0]
