"""The tie-breaks C.07 added or renamed in March 2026 (standings/fide.py): REP (GE's new name), STD (standard
points), RTNG (the player's own rating) and TPN (the pairing number, the lower ranking higher), worked by hand
on small events, exact to the fraction; and their C.07 spelling in a TRF-2026 tie-break record. No database."""

from fractions import Fraction as F

from standings import compute
from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    HALF_BYE,
    Event,
    Match,
    Player,
    Round,
    Scoring,
    settings_for_preset,
)
from swiss.tiebreakers import FIDE_CODES, LOWER_FIRST, TIEBREAKERS, c07_code, from_c07

WIN, DRAW, LOSS = (1, 0, 0), (0, 0, 1), (0, 1, 0)


CHESS = Scoring(F(1), F(1, 2), F(0))


def event(tiebreakers, scoring=CHESS, ratings=None):
    """Four players rated 2200, 2000, 1800, 1600 (pairing numbers 1-4). Round 1: A beats B, C has the
    pairing-allocated bye, D a half-point bye. Round 2: A beats C, B beats D. Round 3: A-D and B-C drawn."""
    ratings = ratings or {"A": 2200, "B": 2000, "C": 1800, "D": 1600}
    rounds = (
        Round(1, (Match("A", "B", WIN), Match("C", result=BYE), Match("D", result=HALF_BYE))),
        Round(2, (Match("A", "C", WIN), Match("B", "D", WIN))),
        Round(3, (Match("A", "D", DRAW), Match("B", "C", DRAW))),
    )
    return Event(
        settings=settings_for_preset("chess", tiebreakers=tuple(tiebreakers), scoring=scoring),
        players=tuple(Player(id=p, name=p, rating=r) for p, r in ratings.items()),
        rounds=rounds,
    )


def table(ev):
    return {row.player_id: row for row in compute(ev).rows}


def test_standard_points_are_the_results_on_one_half_nothing_whatever_the_scoring():
    # A: 1 + 1 + ½; B: 0 + 1 + ½; C: the bye (a win) + 0 + ½; D: the half-point bye + 0 + ½.
    want = {"A": F(5, 2), "B": F(3, 2), "C": F(3, 2), "D": F(1)}
    for scoring in (Scoring(F(1), F(1, 2), F(0)), Scoring(F(3), F(1), F(0))):
        rows = table(event(["STD"], scoring))
        assert {p: r.tiebreakers["STD"] for p, r in rows.items()} == want
    # Three points a win: B and C both have 4, D has 2 (the half-point bye scores a draw's 1).
    rows = table(event(["STD"], Scoring(F(3), F(1), F(0))))
    assert (rows["B"].points, rows["C"].points, rows["D"].points) == (4, 4, 2)


def test_a_double_forfeit_is_no_standard_point_for_either():
    ev = event(["STD"])
    ev = Event(ev.settings, ev.players, (Round(1, (Match("A", "B", result=DOUBLE_LOSS), Match("C", "D", DRAW))),))
    rows = table(ev)
    assert {p: r.tiebreakers["STD"] for p, r in rows.items()} == {"A": 0, "B": 0, "C": F(1, 2), "D": F(1, 2)}


def test_rep_is_what_ge_was_the_rounds_elected_to_play():
    rows = table(event(["REP", "GE"]))
    # D asked for the half-point bye in round 1: a voluntary unplayed round. C's bye was the pairing's.
    assert {p: r.tiebreakers["REP"] for p, r in rows.items()} == {"A": 3, "B": 3, "C": 3, "D": 2}
    assert all(r.tiebreakers["REP"] == r.tiebreakers["GE"] for r in rows.values())


def test_rtng_ranks_the_higher_rating_first_and_tpn_the_lower_number_first():
    # B and C end on 1½ each with every other figure alike but these two.
    rows = table(event(["RTNG"]))
    assert (rows["B"].tiebreakers["RTNG"], rows["C"].tiebreakers["RTNG"]) == (2000, 1800)
    assert rows["B"].rank < rows["C"].rank
    rows = table(event(["TPN"]))
    assert {p: r.tiebreakers["TPN"] for p, r in rows.items()} == {"A": 1, "B": 2, "C": 3, "D": 4}
    assert rows["B"].rank < rows["C"].rank
    # Rated the other way round, C has pairing number 2 and goes first by TPN and by RTNG alike.
    ratings = {"A": 2200, "B": 1800, "C": 2000, "D": 1600}
    rows = table(event(["TPN"], ratings=ratings))
    assert (rows["C"].tiebreakers["TPN"], rows["B"].tiebreakers["TPN"]) == (2, 3)
    assert rows["C"].rank < rows["B"].rank
    # An unrated player counts as rated 0.
    rows = table(event(["RTNG"], ratings={"A": 2200, "B": None, "C": 1800, "D": 1600}))
    assert rows["B"].tiebreakers["RTNG"] == 0 and rows["C"].rank < rows["B"].rank


def test_the_2026_codes_are_fide_codes_and_tpn_alone_ranks_the_lower_first():
    assert {"REP", "STD", "RTNG", "TPN"} <= set(FIDE_CODES)
    assert LOWER_FIRST == ("TPN",)
    assert TIEBREAKERS["TPN"].heading == "TPN"


def test_the_c07_spelling_of_a_code_and_back():
    assert c07_code("BH-C1") == "BH/C1" and c07_code("TPN") == "TPN"
    for word in ("BH/C1", "bh:c1", "BH C1", "BH-C1", " bh/c1 "):
        assert from_c07(word) == "BH-C1"
    assert from_c07("rtng") == "RTNG" and from_c07("GE") == "GE"
    assert all(from_c07(c07_code(code)) == code for code in FIDE_CODES)
    assert from_c07("EDET/P") == "EDET-P"  # not a code of this program: returned for the caller to refuse


# ---------------------------------------------------------------- the TRF-2026 tie-break record (202, 212)


def header_file(*lines):
    from tests.engines.test_trf import player

    body = "".join(line + "\n" for line in ("012 Open", *lines, "XXR 3"))
    return body + player("", rank="1", name="Anna", points="0.0") + "\n" + player("", rank="2", name="Bert") + "\n"


def test_a_202_record_is_the_events_list_and_comes_back_as_it_was():
    from standings import points_by_player
    from swiss import trf

    text = header_file("202 BH/C1,STD,RTNG,TPN", "### the list as the arbiter set it")
    event = trf.loads(text, points_by_player)
    assert event.settings.tiebreakers == ("BH-C1", "STD", "RTNG", "TPN")
    out = trf.dumps(event).splitlines()
    assert "202 BH/C1,STD,RTNG,TPN" in out and "### the list as the arbiter set it" in out
    # A 212 record names the same list with PTS first.
    assert trf.loads(header_file("212 PTS,REP,BH"), points_by_player).settings.tiebreakers == ("REP", "BH")


def test_a_changed_list_is_written_in_the_records_place():
    from dataclasses import replace

    from standings import points_by_player
    from swiss import trf

    event = trf.loads(header_file("202 BH,SB", "212 PTS,BH,SB", "222 5400+30"), points_by_player)
    changed = replace(event, settings=replace(event.settings, tiebreakers=("TPN", "BH-M1")))
    out = trf.dumps(changed).splitlines()
    assert out[1:4] == ["202 TPN,BH/M1", "212 PTS,TPN,BH/M1", "222 5400+30"]
    # A list C.07 has no record for (the event's own codes) writes none.
    other = replace(event, settings=replace(event.settings, tiebreakers=("buchholz", "wins")))
    assert not {line[:3] for line in trf.dumps(other).splitlines()} & {"202", "212"}


def test_a_list_naming_a_code_this_program_lacks_is_kept_but_not_ranked_by():
    from standings import points_by_player
    from swiss import trf
    from swiss.model import settings_for_preset

    event = trf.loads(header_file("202 EDET/P,BH"), points_by_player)
    assert event.settings.tiebreakers == settings_for_preset("chess").tiebreakers
    # The export says the list the event ranks by.
    assert "202 BH/C1,BH,SB,DE" in trf.dumps(event).splitlines()


def test_a_file_without_a_record_comes_back_without_one_and_an_event_made_here_writes_it():
    from standings import points_by_player
    from swiss import trf

    event = trf.loads(header_file(), points_by_player)
    assert not any(line[:3] == "202" for line in trf.dumps(event).splitlines())
    made = Event(
        settings_for_preset("chess", tiebreakers=("STD", "TPN")),
        players=(Player(id="a", name="Anna"), Player(id="b", name="Bert")),
    )
    assert "202 STD,TPN" in trf.dumps(made).splitlines()
    assert trf.loads(trf.dumps(made), points_by_player).settings.tiebreakers == ("STD", "TPN")


def test_apro_and_appo_average_the_opponents_performances():
    # Worked on IA Mario Held's crosstable (tests/engines/test_fide.py) from the published TPRs: player 1 met
    # players whose TPRs the paper gives; APRO is their average, rounded half up.
    from pathlib import Path

    from standings import points_by_player
    from standings.fide import round_half_up
    from swiss import trf
    from swiss.model import Settings
    from tests.engines.test_fide import PUBLISHED

    held = Path(__file__).parents[1] / "data" / "trf" / "held-exercises-2024.trf"
    ev = trf.loads(held.read_bytes(), points_by_player)
    ev = Event(
        Settings(**{**ev.settings.__dict__, "tiebreakers": ("APRO", "APPO", "TPR", "PTP")}), ev.players, ev.rounds
    )
    rows = {int(r.player_id): r for r in compute(ev).rows}
    tpr = {k: r.tiebreakers["TPR"] for k, r in rows.items()}
    assert all(tpr[k] == v for k, v in PUBLISHED["TPR"].items())
    opponents: dict[int, list[int]] = {}
    for rnd in ev.rounds:
        for m in rnd.matches:
            if m.b is not None and m.result == "played":
                opponents.setdefault(int(m.a), []).append(int(m.b))
                opponents.setdefault(int(m.b), []).append(int(m.a))
    checked = 0
    for k, opps in opponents.items():
        if all(o in PUBLISHED["TPR"] for o in opps):
            want = round_half_up(F(sum(PUBLISHED["TPR"][o] for o in opps), len(opps)))
            assert rows[k].tiebreakers["APRO"] == want, k
            checked += 1
        ptp = [rows[o].tiebreakers["PTP"] for o in opps]
        assert rows[k].tiebreakers["APPO"] == round_half_up(sum(ptp, F(0)) / len(ptp)), k
    assert checked >= 3
