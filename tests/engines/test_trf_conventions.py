"""TRF files as arbiters write them before pairing a round, read as bbpPairings (the FIDE-endorsed Dutch
engine) reads them, and the export its checker accepts. No database.

tests/data/conventions/ holds tournaments played round by round with bbpPairings pairing each round from the
file an arbiter would have prepared for it (bench/trf_conventions.py made them; NAME.bbp is its answer for
every round). `round_file` cuts that file back out of the whole tournament: the points column with or
without the byes already entered for the round (points-with-byes), "0000 - -" for an absence of one round
and for every round after a withdrawal, late entrants added when they arrive with their missed rounds blank
(blank-late) or present throughout with a zero-point bye for each, and XXA accelerations (xxa).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import pairing
from standings import compute, points_by_player
from swiss import trf
from swiss.model import FULL_BYE, HALF_BYE, ZERO_BYE, Event, Match, Player, Round, settings_for_preset
from tests.engines.test_dutch import recorded
from tests.engines.test_trf import player

DATA = Path(__file__).parents[1] / "data" / "conventions"
VALUE = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0)}
VALUE.update({"U": Fraction(1), "H": Fraction(1, 2), "F": Fraction(1), "Z": Fraction(0), "": Fraction(0)})
VALUE["*"] = Fraction(0)  # bench/trf_conventions.py: a player to be paired, while the round is made
ENTERED = "HFZ-"  # what an arbiter enters in a round's column before pairing it


def round_file(whole: str, r: int) -> str:
    """The file round r was paired from, cut from the whole tournament's (see the module's docstring)."""
    header = [line for line in whole.splitlines() if not line.startswith("001")]
    conventions = next((line.split(":", 1)[1].split() for line in header if line.startswith("### conventions:")), [])
    rows = []
    for line in whole.splitlines():
        if not line.startswith("001"):
            continue
        cells = [line[91 + 10 * k : 99 + 10 * k].ljust(8) for k in range(r)]
        now = cells[-1]
        entered = now[:4] in ("0000", "    ") and now[7] in ENTERED and now.strip() != ""
        if "blank-late" in conventions and not now.strip():
            continue  # not arrived yet
        if not entered:
            cells[-1] = " " * 8
        points = sum((VALUE[c[7].strip()] for c in cells[:-1]), Fraction(0))
        if entered and "points-with-byes" in conventions:
            points += VALUE[now[7]]
        head = line[:80] + f"{float(points):4.1f}" + line[84:89]
        rows.append((line[4:8], (head + "".join("  " + c for c in cells)).rstrip()))
    present = {number for number, _ in rows}
    kept = [line for line in header if not line.startswith("XXA") or line[4:8] in present]
    return "\n".join(kept + [text for _, text in rows]) + "\n"


def paired(text: str) -> tuple[set[tuple[str, str]], str | None]:
    """What `manage.py pair` pairs from the file: games (white, black) by start rank, and the bye."""
    result = pairing.pair(pairing.from_event(trf.loads(text, points_by_player)))
    byes = [pid for pid in result.byes if pid not in result.awarded_byes]
    return {(p.a, p.b) for p in result.pairs}, (byes[0] if byes else None)


CORPUS = sorted(DATA.glob("*.trf"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_round_of_an_arbiters_file_is_paired_as_bbppairings_pairs_it(path):
    whole = path.read_text()
    for number, expected in recorded(path.with_suffix(".bbp")).items():
        assert paired(round_file(whole, number)) == expected, f"{path.stem} round {number}"


def test_the_corpus_has_every_convention():
    text = "".join(p.read_text() for p in CORPUS)
    assert len(CORPUS) >= 24 and sum(len(recorded(p.with_suffix(".bbp"))) for p in CORPUS) >= 150
    for words in ("points-with-byes", "blank-late", "xxa"):
        assert sum(words in p.read_text().splitlines()[1] for p in CORPUS) >= 5, words
    assert "XXA " in text and "0000 - -" in text and "0000 - H" in text and "0000 - F" in text
    assert max(int(p.stem.split("-")[1].rstrip("p")) for p in CORPUS) > 257
    assert sum(p.stat().st_size for p in DATA.iterdir()) < 400_000


# ---------------------------------------------------------------- the points of the requested byes


# Round 1 of six players, prepared for pairing: Anna asked for a half-point bye, Cleo is known absent.
ROUND_ONE = (
    "012 Round one\nXXR 5\nXXC white1\n"
    + "\n".join(
        [
            player("  0000 - H", rank="1", name="Anna", points="0.5"),
            player("", rank="2", name="Bert", points="0.0"),
            player("  0000 - -", rank="3", name="Cleo", points="0.0"),
            player("", rank="4", name="Dora", points="0.0"),
            player("", rank="5", name="Emil", points="0.0"),
            player("", rank="6", name="Finn", points="0.0"),
        ]
    )
    + "\n"
)


def test_round_one_with_a_counted_bye_is_the_round_to_be_paired():
    # bbpPairings pairs 2-5, 6-4 (recorded by hand): Anna and Cleo out, nobody given the bye.
    assert paired(ROUND_ONE) == ({("2", "5"), ("6", "4")}, None)
    assert paired(ROUND_ONE.replace("0.5", "0.0", 1)) == ({("2", "5"), ("6", "4")}, None)


# Round 1 played (Emil had the bye), Anna's half-point bye entered for round 2, counted in her points.
AFTER_ONE = (
    "012 Two\nXXR 3\nXXC white1\n"
    + "\n".join(
        [
            player("     2 w 1  0000 - H", rank="1", name="Anna", points="1.5"),
            player("     1 b 0", rank="2", name="Bert", points="0.0"),
            player("     4 w =", rank="3", name="Cleo", points="0.5"),
            player("     3 b =", rank="4", name="Dora", points="0.5"),
            player("  0000 - U", rank="5", name="Emil", points="1.0"),
        ]
    )
    + "\n"
)


def test_after_a_round_the_points_may_count_the_next_rounds_bye_or_not():
    # bbpPairings: 5-3, 4-2, Anna's half-point bye counted or not (counted, it was read here as round 2
    # played, everyone else withdrawn: "at least two players are needed to pair a round").
    assert paired(AFTER_ONE) == ({("5", "3"), ("4", "2")}, None)
    assert paired(AFTER_ONE.replace("1.5", "1.0", 1)) == paired(AFTER_ONE)


def test_the_export_counts_the_requested_bye_in_the_points():
    players = tuple(Player(id=str(k), name=f"P{k}", rating=2000 - k) for k in range(1, 5))
    players = (*players[:3], Player(id="4", name="P4", rating=1996, requested_byes=((2, HALF_BYE),)))
    event = Event(
        settings=settings_for_preset("chess", name="Bye", planned_rounds=3),
        players=players,
        rounds=(Round(1, (Match("1", "3", (1, 0, 0)), Match("4", "2", (0, 0, 1)))),),
    )
    table = compute(event)
    text = trf.dumps(event, points={r.player_id: r.points for r in table.rows})
    line = next(x for x in text.splitlines() if x.startswith("001    4"))
    assert line[80:84] == " 1.0" and line.rstrip().endswith("0000 - H")  # ½ played + ½ asked for
    assert trf.loads(text, points_by_player).players[3].requested_byes == ((2, HALF_BYE),)


# ---------------------------------------------------------------- absences, late entrants, withdrawals


def test_an_absence_of_one_round_is_not_a_withdrawal():
    # Cleo was absent in round 2 ("0000 - -"): bbpPairings pairs her in round 3, 1-3 and 2-4 (here she was
    # taken for withdrawn, and Anna given the bye).
    text = (
        "012 Absent\nXXR 4\nXXC white1\n"
        + "\n".join(
            [
                player("     2 w 1     4 b 1", rank="1", name="Anna", points="2.0"),
                player("     1 b 0  0000 - U", rank="2", name="Bert", points="1.0"),
                player("     4 w =  0000 - -", rank="3", name="Cleo", points="0.5"),
                player("     3 b =     1 w 0", rank="4", name="Dora", points="0.5"),
            ]
        )
        + "\n"
    )
    event = trf.loads(text, points_by_player)
    assert all(p.dropped_after is None for p in event.players)
    assert paired(text) == ({("1", "3"), ("2", "4")}, None)


def test_a_late_entrant_with_blank_rounds_is_paired():
    # Emil arrives for round 3, his rounds 1 and 2 blank: bbpPairings gives him the bye and pairs 4-1, 3-2
    # (here he was taken for withdrawn before he came, and left out).
    text = (
        "012 Late\nXXR 4\nXXC white1\n"
        + "\n".join(
            [
                player("     2 w 1     3 w 1", rank="1", name="Anna", points="2.0"),
                player("     1 b 0     4 w 1", rank="2", name="Bert", points="1.0"),
                player("     4 w =     1 b 0", rank="3", name="Cleo", points="0.5"),
                player("     3 b =     2 b 0", rank="4", name="Dora", points="0.5"),
                player("", rank="5", name="Emil", points="0.0"),
            ]
        )
        + "\n"
    )
    event = trf.loads(text, points_by_player)
    assert (event.players[4].joined_round, event.players[4].dropped_after) == (3, None)
    assert paired(text) == ({("4", "1"), ("3", "2")}, "5")


def test_whoever_is_left_out_is_named_with_the_reason():
    event = trf.loads(ROUND_ONE + "240 Z 002    4\n", points_by_player)
    players = list(event.players)
    players[5] = Player(**{**players[5].__dict__, "joined_round": 3})
    players[4] = Player(**{**players[4].__dict__, "dropped_after": 0})
    result = pairing.pair(pairing.from_event(Event(event.settings, tuple(players), event.rounds)))
    note = result.warnings[0]
    assert note.code == "left_out" and note.params["count"] == 4
    assert str(note) == (
        "Left out of round 1: Anna (a half-point bye asked for), Cleo (absent: a zero-point bye), "
        "Emil (withdrew before round 1), Finn (enters in round 3)."
    )
    assert note.params["players"][0] == ["Anna", "half_bye", None]
    # Too few left to pair: the refusal says who is left out.
    alone = Event(event.settings, tuple(Player(**{**p.__dict__, "dropped_after": 0}) for p in players[1:]))
    with pytest.raises(pairing.PairingError, match="needed to pair round 1; left out: Bert .withdrew before"):
        pairing.pair(pairing.from_event(alone))


def test_the_export_writes_a_withdrawn_player_and_a_later_entrant_absent_and_reads_them_back():
    players = (
        Player(id="a", name="Anna", rating=2100),
        Player(id="b", name="Bert", rating=2000, dropped_after=1),
        Player(id="c", name="Cleo", rating=1900),
        Player(id="d", name="Dora", rating=1800),
        Player(id="e", name="Emil", rating=1700, joined_round=4),
    )
    event = Event(
        settings=settings_for_preset("chess", name="Gone", planned_rounds=5, initial_colour="white"),
        players=players,
        rounds=(Round(1, (Match("a", "c", (1, 0, 0)), Match("d", "b", (0, 1, 0)))),),
    )
    table = compute(event)
    text = trf.dumps(event, points={r.player_id: r.points for r in table.rows})
    lines = {x[4:8].strip(): x for x in text.splitlines() if x.startswith("001")}
    assert lines["2"].rstrip().endswith("0000 - Z") and lines["5"].rstrip().endswith("0000 - Z")
    assert "240 Z 003    2    5" in text and "240 Z 004    2" in text and "240 Z 005    2" in text
    again = trf.loads(text, points_by_player)
    # Bert comes back withdrawn; Emil with the zero-point byes of the rounds before he enters, which pair
    # the same and are written the same.
    assert [(p.dropped_after, p.requested_byes) for p in again.players] == [
        (None, ()),
        (1, ()),
        (None, ()),
        (None, ()),
        (None, ((2, ZERO_BYE), (3, ZERO_BYE))),
    ]
    assert trf.dumps(again, points={r.player_id: r.points for r in compute(again).rows}) == text
    assert pairing.eligible(again, 2) == (["1", "3", "4"], []) and pairing.eligible(event, 2) == (["a", "c", "d"], [])


def test_zero_point_byes_short_of_the_last_round_are_byes_asked_for():
    event = trf.loads(ROUND_ONE.replace("  0000 - -", "  0000 - Z") + "240 Z 002    3\n", points_by_player)
    cleo = event.players[2]
    assert (cleo.dropped_after, cleo.requested_byes) == (None, ((1, ZERO_BYE), (2, ZERO_BYE)))
    through = trf.loads(ROUND_ONE + "".join(f"240 Z {r:03d}    3\n" for r in range(2, 6)), points_by_player)
    assert (through.players[2].dropped_after, through.players[2].requested_byes) == (0, ())


# ---------------------------------------------------------------- XXA accelerations


XXA = (
    "012 Accelerated\nXXR 5\nXXC white1\n"
    "XXA    1  1.0  1.0\nXXA    2  1.0  1.0\nXXA    3  1.0  1.0\nXXA    4  1.0  1.0\n"
    + "\n".join(player("", rank=str(k), name=f"P{k}", points="0.0") for k in range(1, 9))
    + "\n"
)


def test_xxa_accelerations_are_read_and_paired_with():
    event = trf.loads(XXA, points_by_player)
    assert event.players[0].accelerations == (1, 1) and event.players[7].accelerations == ()
    # bbpPairings: the accelerated half meets itself, 1-3, 4-2, 5-7, 8-6 (unaccelerated: 1-5, 6-2, 3-7, 8-4).
    assert paired(XXA) == ({("1", "3"), ("4", "2"), ("5", "7"), ("8", "6")}, None)
    plain = "\n".join(line for line in XXA.splitlines() if not line.startswith("XXA")) + "\n"
    assert paired(plain) == ({("1", "5"), ("6", "2"), ("3", "7"), ("8", "4")}, None)


def test_xxa_and_250_lines_say_the_same_and_are_written_back():
    two50 = XXA.replace(
        "XXA    1  1.0  1.0\nXXA    2  1.0  1.0\nXXA    3  1.0  1.0\nXXA    4  1.0  1.0\n",
        "250       1.0 001 002 0001 0004\n",
    )
    assert trf.loads(two50, points_by_player).players == trf.loads(XXA, points_by_player).players
    assert paired(two50) == paired(XXA)
    text = trf.dumps(trf.loads(XXA, points_by_player))
    assert "XXA    1  1.0  1.0" in text.splitlines()
    # The accelerations changed (a player's are gone): the lines are written from the players, in the file's
    # own kind of record, 250 for a TRF-2026 file (a range of start ranks a line), XXA for a JaVaFo one.
    for text, kept in ((two50, ["250       1.0 001 002 0002 0004"]), (XXA, XXA.splitlines()[4:7])):
        event = trf.loads(text, points_by_player)
        first = Player(**{**event.players[0].__dict__, "accelerations": ()})
        changed = Event(event.settings, (first, *event.players[1:]))
        assert [x for x in trf.dumps(changed).splitlines() if x[:3] in ("XXA", "250")] == kept


def test_an_event_made_here_writes_its_accelerations_as_250_records_bbppairings_reads():
    # TRF-2026 250 (columns 10-13 the points, 15-17 and 19-21 the rounds, 23-26 and 28-31 the start ranks): one
    # line a run of rounds with the same points, for consecutive start ranks given the same; XXA only where a
    # player's accelerations are all 0, which a 250 record cannot say (its points may not be 0.0).
    players = [Player(id=str(k), name=f"P{k}", rating=2000 - k) for k in range(1, 9)]
    half = Fraction(1, 2)
    given = {"1": (1, 1, half), "2": (1, 1, half), "3": (1, 1, half), "5": (0, 1)}
    players = [Player(**{**p.__dict__, "accelerations": given.get(p.id, ())}) for p in players]
    event = Event(settings_for_preset("chess", name="Made here", planned_rounds=5), tuple(players))
    text = trf.dumps(event)
    assert [x for x in text.splitlines() if x[:3] in ("XXA", "250")] == [
        "250       1.0 001 002 0001 0003",
        "250       0.5 003 003 0001 0003",
        "250       1.0 002 002 0005 0005",
    ]
    assert [p.accelerations for p in trf.loads(text, points_by_player).players] == [
        given.get(str(k), ()) for k in range(1, 9)
    ]
    # The same accelerations as JaVaFo's XXA lines pair the same.
    xxa = [f"XXA    {k}  1.0  1.0  0.5" for k in (1, 2, 3)] + ["XXA    5  0.0  1.0"]
    as_xxa = "\n".join([x for x in text.splitlines() if x[:3] != "250"] + xxa) + "\n"
    assert paired(as_xxa) == paired(text)
    zero = Event(event.settings, (Player(**{**players[0].__dict__, "accelerations": (0, 0)}), *players[1:]))
    assert [x for x in trf.dumps(zero).splitlines() if x[:3] in ("XXA", "250")][0] == "XXA    1  0.0  0.0"


def test_the_points_column_may_count_the_acceleration_of_the_round_to_be_paired():
    # Anna is accelerated by 1 in round 2: her 1.0 may be written 2.0 (bbpPairings reads both), not 1.5.
    accelerated = "XXA    1  1.0  1.0\n" + AFTER_ONE.replace("1.5", "1.0", 1)
    assert trf.loads(accelerated, points_by_player).players[0].accelerations == (1, 1)
    assert trf.loads(accelerated.replace(" 1.0    ", " 2.0    ", 1), points_by_player)
    with pytest.raises(trf.TRFError) as e:
        trf.loads(accelerated.replace(" 1.0    ", " 3.0    ", 1), points_by_player)
    assert e.value.code == "trf_points_disagree"


def test_a_malformed_xxa_line_is_refused_by_line():
    with pytest.raises(trf.TRFError) as e:
        trf.loads(XXA.replace("XXA    1  1.0  1.0", "XXA    1  one"), points_by_player)
    assert (e.value.code, e.value.line) == ("trf_xxa", 4)
    with pytest.raises(trf.TRFError) as e:
        trf.loads(XXA.replace("XXA    1", "XXA   99"), points_by_player)
    assert e.value.code == "trf_240_rank"


# ---------------------------------------------------------------- hardening: a 240 line for a round played


def test_a_240_bye_for_a_round_already_played_is_refused():
    assert trf.loads(AFTER_ONE + "240 F 003    4\n", points_by_player).players[3].requested_byes == ((3, FULL_BYE),)
    # Round 1 is in the player lines: a bye asked for it now is a mistake, not a wish.
    with pytest.raises(trf.TRFError) as e:
        trf.loads(AFTER_ONE + "240 F 001    4\n", points_by_player)
    assert (e.value.code, e.value.line) == ("trf_240_played", 9) and "round 1" in str(e.value)
