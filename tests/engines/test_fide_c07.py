"""FIDE C.07 as in force since 1 March 2026 (standings/fide.py), checked against two outside sources:

- FIDE's text, https://handbook.fide.com/chapter/TieBreakRegulations032026, as the echecsjs libraries quote it
  (mormubis/buchholz, mormubis/sonneborn-berger, echecsjs/koya, echecsjs/average-rating,
  echecsjs/performance-rating, echecsjs/number-of-wins): one test per rule where our figure was wrong or new;
- Otto Milvang's tie-break checker (OttoMilvang/TieBreakServer, tiebreak.py 1.9.57, `tiebreakchecker.py -s` with
  each code's `/V2026` modifier, the rules of 2026), run on IA Mario Held's Swiss crosstable
  (tests/data/trf/held-exercises-2024.trf, its two forfeits given a colour, which that program's reader needs):
  every code we offer, every player, the same figure.

No database."""

import json
from fractions import Fraction as F

import pytest

from standings import compute, points_by_player
from standings.format import _decimal
from swiss import eventfile, trf
from swiss.model import FORFEIT, Event, Match, Player, Round, Settings, settings_for_preset
from swiss.tiebreakers import FIDE_CODES, TIEBREAKERS
from swiss.trfheader import _tiebreak_lines, known_tiebreak_record
from tests.engines.test_fide import IN_2026, held
from tests.engines.test_swiss_tools import SAMPLE, run, write

# The checker's output, players 1 to 16; "-" where it reports no value (nothing left after the cuts, where we
# give 0); AOB it rounds to two decimals.
CHECKER = {
    "BH": "12.5 13.0 15.5 14.0 8.5 11.5 14.5 13.5 9.0 13.0 12.5 11.5 14.0 11.0 12.0 12.5",
    "BH-C1": "11.0 12.0 13.0 11.5 7.5 10.5 12.5 12.0 7.5 11.5 11.0 9.5 12.0 9.0 11.0 11.0",
    "BH-C2": "9.5 10.5 10.5 10.0 6.0 8.5 10.0 10.0 6.0 9.5 9.5 7.5 9.5 7.0 9.5 9.0",
    "BH-M1": "7.0 8.5 9.0 8.0 5.0 7.0 8.5 8.5 4.0 7.5 7.5 6.0 8.5 6.0 7.5 7.0",
    "BH-M2": "2.0 3.5 3.0 3.0 1.5 2.5 2.5 3.0 1.0 2.5 2.5 2.0 2.5 1.5 2.5 2.5",
    "FB": "13.5 13.5 15.0 14.5 10.0 12.0 13.5 12.5 9.5 12.5 12.0 11.0 13.5 10.5 12.0 13.5",
    "FB-C1": "12.0 12.0 13.0 12.0 8.5 10.5 11.5 11.0 8.0 11.0 10.5 9.0 12.0 9.0 10.5 11.5",
    "FB-C2": "10.0 10.0 10.5 10.0 6.5 9.0 9.5 9.0 6.5 9.0 8.5 7.0 10.0 7.5 8.5 9.5",
    "FB-M1": "8.0 8.5 9.0 8.5 6.0 7.0 7.5 7.5 4.5 7.0 7.0 5.5 8.5 6.0 7.0 7.5",
    "FB-M2": "2.5 3.0 3.0 3.0 2.0 2.5 2.5 2.5 1.5 2.5 2.0 1.5 3.0 2.0 2.0 2.5",
    "SB": "8.00 9.50 10.50 9.25 4.25 6.00 3.25 5.25 2.25 1.50 4.75 4.00 4.25 4.50 3.50 7.25",
    "SB-C1": "7.25 8.50 9.25 7.75 3.25 5.00 1.25 3.75 2.25 0.00 3.25 4.00 4.25 3.00 2.50 5.75",
    "SB-C2": "5.75 7.00 6.75 6.50 3.25 5.00 1.25 1.75 1.50 0.00 1.75 4.00 4.25 3.00 2.50 3.75",
    "SB-M1": "5.25 5.00 7.25 6.00 0.75 5.00 1.25 2.00 2.25 0.00 1.50 4.00 2.50 0.00 2.50 5.75",
    "SB-M2": "2.00 1.75 3.00 3.00 0.75 2.50 1.25 0.00 0.00 0.00 0.00 2.00 2.50 0.00 2.50 1.25",
    "AOB": "12.40 13.60 12.90 13.38 13.20 13.25 11.70 12.90 12.75 10.80 12.75 14.00 11.90 13.00 12.20 13.10",
    "ARO": "1820 1880 1940 1888 1690 1813 1760 1730 1975 1880 1863 2050 1930 1800 1860 1820",
    "ARO-C1": "1900 1988 2000 1983 1738 1900 1838 1800 2200 1975 2000 - 2025 1900 1963 1900",
    "ARO-C2": "2000 2067 2050 2150 1783 1975 1950 1883 - 2033 2050 - 2083 1950 2033 1967",
    "ARO-M1": "1817 1917 1950 1875 1683 1800 1733 1700 - 1917 1950 - 1967 1850 1883 1817",
    "ARO-M2": "1800 1900 1950 - 1700 - 1700 1600 - 1950 - - 2000 - 1900 1850",
    "TPR": "1969 2120 2089 2081 1690 1813 1611 1730 1175 1640 1776 1250 1781 1925 1788 1969",
    "PTP": "2029 2216 2112 2168 1689 1810 1531 1715 950 1575 1763 1250 1744 1942 1768 2013",
    "APRO": "1789 1856 1904 1772 1719 1846 1869 1915 1805 1717 1840 2081 1879 1775 1776 1805",
    "APPO": "1769 1852 1934 1784 1676 1836 1890 1924 1802 1687 1836 2168 1909 1756 1767 1799",
    "KS": "1.0 2.0 3.5 1.0 1.0 1.0 0.5 0.5 0.0 0.0 0.5 0.0 1.5 1.0 1.0 1.5",
    "WIN": "2 3 2 2 2 3 1 2 1 1 2 2 1 2 2 3",
    "WON": "2 3 2 2 2 2 1 2 0 1 1 0 1 2 2 3",
    "BPG": "2 3 2 2 2 2 3 2 1 3 2 0 3 2 3 2",
    "BWG": "1 1 1 1 0 1 0 0 0 1 0 0 1 1 1 1",
    "REP": "5 5 5 4 5 5 5 5 3 5 5 3 5 3 5 5",
    "STD": "3.5 4.0 3.5 3.5 2.5 3.0 1.5 2.5 1.5 1.0 2.5 2.0 1.5 2.0 2.0 3.5",
    "PS": "11.0 13.0 11.0 11.5 5.0 6.0 6.0 8.5 2.5 4.0 5.5 7.0 7.0 6.0 7.0 10.5",
    "PS-C1": "10.0 12.0 10.5 10.5 5.0 6.0 5.0 8.0 2.5 4.0 5.0 7.0 6.0 5.0 7.0 10.0",
}

NEW = ("FB-C1", "FB-C2", "FB-M1", "FB-M2", "SB-C2", "SB-M1", "SB-M2", "KS", "ARO-C2", "ARO-M1", "ARO-M2")


@pytest.mark.parametrize("code", sorted(CHECKER))
def test_every_code_agrees_with_the_fide_tie_break_checker_on_the_held_crosstable(code):
    rows = held([code], IN_2026)
    for player, text in enumerate(CHECKER[code].split(), 1):
        got = rows[player].tiebreakers[code]
        if code == "AOB":
            assert _decimal(got, 2) == text, f"AOB of player {player}"
        else:
            assert got == (0 if text == "-" else F(text)), f"{code} of player {player}"


def test_every_code_offered_is_checked_against_the_checker():
    assert set(FIDE_CODES) - set(CHECKER) == {"DE", "GE", "RTNG", "TPN"}  # DE: test_fide.py; GE is REP
    assert set(NEW) <= set(FIDE_CODES)


def small(rounds, ratings=None, tiebreakers=("BH",)):
    """An event of the players the rounds name; a match is (a, b, its games or FORFEIT)."""
    ids = sorted({p for rnd in rounds for m in rnd for p in m[:2]})
    ratings = ratings or {}
    return Event(
        settings=settings_for_preset("chess", tiebreakers=tuple(tiebreakers)),
        players=tuple(Player(id=p, name=p, rating=ratings.get(p)) for p in ids),
        rounds=tuple(
            Round(k, tuple(Match(a, b, result=r) if isinstance(r, str) else Match(a, b, r) for a, b, r in rnd))
            for k, rnd in enumerate(rounds, 1)
        ),
    )


def figures(event):
    return {r.player_id: r.tiebreakers for r in compute(event).rows}


WIN, DRAW = (1, 0, 0), (0, 0, 1)


def test_perfect_tournament_performance_of_a_perfect_score_is_the_lowest_rating_expected_to_score_it():
    # 10.3: the lowest rating whose expected score reaches the score; the B.02 table gives 1.00 only beyond a
    # difference of 735, so 2-0 against 2000 and 1800 is 2000 + 736 (not the 800 of a zero score's rule).
    ev = small(
        [[("A", "B", WIN), ("C", "D", DRAW)], [("A", "C", WIN), ("B", "D", DRAW)]],
        {"B": 2000, "C": 1800, "D": 1500},
        tiebreakers=("PTP",),
    )
    assert figures(ev)["A"]["PTP"] == 2736


def test_koya_counts_the_points_against_those_on_half_the_possible_score_forfeits_included():
    # 9.2, a four-player all-play-all: A 2.5, D 2, C 1, B ½; half of the possible 3 is 1.5: A and D qualify.
    ev = small(
        [
            [("A", "B", WIN), ("D", "C", WIN)],
            [("A", "C", DRAW), ("D", "B", WIN)],
            [("A", "D", FORFEIT), ("B", "C", DRAW)],
        ],
        tiebreakers=("KS",),
    )
    got = figures(ev)
    # A's forfeit win over D counts (a pre-determined event's forfeit is a game), B's loss to A 0, C's draw ½.
    assert {p: got[p]["KS"] for p in "ABCD"} == {"A": 1, "B": 0, "C": F(1, 2), "D": 0}


def test_fore_buchholz_draws_a_forfeit_of_the_last_round_too():
    # 8.3: "all paired games for the final round" drawn. Round 2: A wins against C by forfeit. As a draw, C has
    # 1.5 and meets A (1.5) and D (½): FB 2. Kept a forfeit, C's dummy would give 1 + ½ = 1.5.
    ev = small(
        [[("A", "B", WIN), ("C", "D", WIN)], [("A", "C", FORFEIT), ("B", "D", WIN)]],
        tiebreakers=("FB", "BH"),
    )
    got = figures(ev)
    assert (got["C"]["FB"], got["C"]["BH"]) == (2, 1)  # BH: D's 0 and a dummy on C's own 1 (16.4.1: A has 2)


def test_a_forfeits_dummy_is_no_more_than_the_scheduled_opponents_adjusted_score():
    # 16.4.1: A (3 of 3) wins round 3 against E by forfeit; E lost every round: the dummy counts 0, not 3. A's
    # other opponents are B (1) and C (2).
    ev = small(
        [
            [("A", "B", WIN), ("C", "E", WIN), ("D", "F", DRAW)],
            [("A", "C", WIN), ("B", "E", WIN), ("D", "F", DRAW)],
            [("A", "E", FORFEIT), ("C", "B", WIN), ("D", "F", DRAW)],
        ]
    )
    assert figures(ev)["A"]["BH"] == 1 + 2 + 0


def test_sonneborn_berger_cuts_the_vur_when_it_equals_the_least_significant_value():
    # 16.5.1: the lowest VUR contribution is cut "as long as it is not lower than the least significant value";
    # held #9: losses to #1 and #10 (0 each), a half-point bye (1.5 x ½), a forfeit loss (0), the pairing's bye
    # (1.5 x 1). Cut-1 takes the forfeit loss (0, equal to the loss to #10), Cut-2 then the half-point bye.
    assert held(["SB-C2"], IN_2026)[9].tiebreakers["SB-C2"] == F(3, 2)


def test_the_new_codes_are_read_and_written_in_a_trf_tie_break_record_and_a_swiss_event_file(tmp_path):
    record = ["202 FB/C1, SB/M2, KS, ARO/M1, FB/M2"]
    codes = known_tiebreak_record(record)
    assert codes == ("FB-C1", "SB-M2", "KS", "ARO-M1", "FB-M2")
    settings = settings_for_preset("chess", tiebreakers=codes)
    assert _tiebreak_lines(settings, with_212=True) == [
        "202 FB/C1,SB/M2,KS,ARO/M1,FB/M2",
        "212 PTS,FB/C1,SB/M2,KS,ARO/M1,FB/M2",
    ]
    ev = small([[("A", "B", WIN)]], tiebreakers=NEW)
    assert eventfile.loads(eventfile.dumps(ev)).settings.tiebreakers == NEW


def test_swiss_standings_and_check_accept_the_new_codes(tmp_path):
    lines = SAMPLE.read_text(encoding="latin-1").splitlines()
    path = write(tmp_path, [lines[0], "202 FB/M1, SB/C2, KS, ARO/M2", *lines[1:]])
    status, out, _ = run("standings", str(path), "--format", "json")
    assert status == 0 and list(json.loads(out)["standings"][0]["tiebreakers"]) == ["FB-M1", "SB-C2", "KS", "ARO-M2"]
    # The checker ranks the TRF by them too: its ranks, made by other tie-breaks, differ (status 1, not 2).
    status, out, _ = run("check", str(path), "--format", "json")
    doc = json.loads(out)["standings"]
    assert (status, doc["tiebreakers"], doc["ok"]) == (1, ["FB-M1", "SB-C2", "KS", "ARO-M2"], False)
    # A swiss-event file naming them checks clean.
    event = trf.loads(SAMPLE.read_text(encoding="latin-1"), points_by_player)
    settings = Settings(**{**event.settings.__dict__, "tiebreakers": NEW})
    path = tmp_path / "event.json"
    path.write_text(eventfile.dumps(Event(settings, event.players, event.rounds)), encoding="utf-8")
    status, out, _ = run("check", str(path), "--format", "json")
    assert status == 0 and json.loads(out)["standings"]["tiebreakers"] == list(NEW)


def test_every_new_code_has_its_name_in_the_table():
    assert all(TIEBREAKERS[c].fide and TIEBREAKERS[c].heading == c for c in NEW)
