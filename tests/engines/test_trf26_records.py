"""TRF-2026 records as FIDE's text (TRF26, handbook.fide.com/files/handbook/TRF26.pdf) and the programs that read
them lay them out: 192 (the tournament type, as bbpPairings and FIDE's tie-break server name it), 152 (the
initial colour), 162 (the scoring, A an absence) and the player line's columns. The 250 accelerations are in
test_trf_conventions.py. bbpPairings' own reading, where the binary is present, is in test_bbp_checker.py.
No database."""

from dataclasses import replace
from fractions import Fraction

import pytest

from pairing.tools.generate import Options, generate
from standings import points_by_player
from swiss import trf
from swiss.model import Event, Player, Scoring, settings_for_preset
from tests.engines.test_trf import GOOD, player

GOOD_GAME = GOOD.removeprefix("012 Test\n")
TWO = player("", rank="1", name="Anna", points="0.0") + "\n" + player("", rank="2", name="Bert", points="0.0") + "\n"


def made_here(**settings) -> Event:
    players = (Player(id="a", name="Anna", rating=2000), Player(id="b", name="Bert", rating=1900))
    return Event(settings_for_preset("chess", name="Club", planned_rounds=5, **settings), players)


def records(event: Event, code: str) -> list[str]:
    return [line for line in trf.dumps(event).splitlines() if line[:3] == code]


def test_record_192_names_the_dutch_system_and_its_baku_acceleration():
    # 192 is mandatory for pairing (TRF26); bbpPairings refuses a type it does not know, so only the Dutch
    # system's two codes are written, and none for an event this app pairs with its own engine.
    assert records(made_here(), "192") == ["192 FIDE_DUTCH_2025"]
    assert records(made_here(acceleration="baku"), "192") == ["192 FIDE_DUTCH_2025_BAKU"]
    assert records(made_here(pairing="optimal"), "192") == []
    assert trf.loads(trf.dumps(made_here()), points_by_player).settings.acceleration == "none"


def test_record_192_of_a_file_loses_baku_when_the_event_no_longer_accelerates():
    # The file asked for Baku; the organiser turned it off: a kept "192 FIDE_DUTCH_2025_BAKU" would have every
    # other program accelerate the pairing still.
    event = trf.loads("012 Baku\n192 FIDE_DUTCH_2025_BAKU\nXXR 5\n" + TWO, points_by_player)
    assert event.settings.acceleration == "baku"
    assert records(event, "192") == ["192 FIDE_DUTCH_2025_BAKU"]
    off = replace(event, settings=replace(event.settings, acceleration="none"))
    assert records(off, "192") == ["192 FIDE_DUTCH_2025"]
    assert trf.loads(trf.dumps(off), points_by_player).settings.acceleration == "none"
    burstein = trf.loads("012 B\n192 FIDE_BURSTEIN_BAKU\nXXR 5\n" + TWO, points_by_player)
    assert records(replace(burstein, settings=replace(burstein.settings, acceleration="none")), "192") == [
        "192 FIDE_BURSTEIN"
    ]


def test_record_152_is_written_beside_xxc_for_the_programs_that_read_only_one():
    # FIDE's tie-break server reads 152, JaVaFo XXC, bbpPairings both; 152 is the letter alone (bbpPairings
    # refuses "152 W " or "152 White").
    event = made_here(initial_colour="black")
    assert records(event, "152") == ["152 B"] and records(event, "XXC") == ["XXC black1"]
    assert trf.loads(trf.dumps(event), points_by_player).settings.initial_colour == "black"
    # A file with neither gets both once the organiser sets the colour; a file with one keeps to it.
    plain = trf.loads("012 Plain\nXXR 5\n" + TWO, points_by_player)
    white = replace(plain, settings=replace(plain.settings, initial_colour="white"))
    assert (records(white, "152"), records(white, "XXC")) == (["152 W"], ["XXC white1"])
    own = trf.loads("012 Own\n152 W\nXXR 5\n" + TWO, points_by_player)
    black = replace(own, settings=replace(own.settings, initial_colour="black"))
    assert (records(black, "152"), records(black, "XXC")) == (["152 B"], [])


def test_record_162_writes_an_absence_as_a_and_its_points_in_columns_7_to_10():
    # TRF26: a result code in column 6, 15, 24…, its points in the four columns after it; A is an absence (a
    # zero-point bye or a forfeit loss), 0.0 unless said, so a scoring whose loss is worth points says it.
    event = made_here(scoring=Scoring(Fraction(3), Fraction(1), Fraction(1, 2)))
    (line,) = records(event, "162")
    assert [(line[k], line[k + 1 : k + 5]) for k in (5, 14, 23, 32)] == [
        ("W", " 3.0"),
        ("D", " 1.0"),
        ("L", " 0.5"),
        ("A", " 0.5"),
    ]
    assert trf.loads(trf.dumps(event), points_by_player).settings.scoring == event.settings.scoring


def test_record_001_columns_as_trf26_numbers_them():
    # Start rank 5-8, sex 10, title 11-13, name 15-47, rating 49-52, federation 54-56, FIDE number 58-68,
    # birth date 70-79, points 81-84, rank 86-89, round 1 from 92 (opponent 92-95, colour 97, result 99).
    anna = Player(
        id="a",
        name="Aalto, Anna",
        rating=2210,
        federation="FIN",
        fide_id="1503014",
        title="WIM",
        sex="w",
        birth_date="1995/04/02",
    )
    event = Event(settings_for_preset("chess", name="Club"), (anna, Player(id="b", name="Bert", rating=1900)))
    line = trf.dumps(event, {"a": 1, "b": 2}, {"a": Fraction(1, 2), "b": Fraction(0)}).splitlines()[-2]
    column = {k: line[k - 1 : k - 1 + n] for k, n in ((5, 4), (10, 1), (11, 3), (49, 4), (54, 3), (58, 11))}
    assert column == {5: "   1", 10: "w", 11: "WIM", 49: "2210", 54: "FIN", 58: "    1503014"}
    assert (line[14:47].rstrip(), line[69:79], line[80:84], line[85:89]) == (
        "Aalto, Anna",
        "1995/04/02",
        " 0.5",
        "   1",
    )


def test_record_299_abnormal_points_is_refused_by_line_not_ignored():
    # TRF26 299: points no result gives (a penalty, a bonus). Kept unread, the file's points column would be
    # refused for a reason the arbiter cannot see; bbpPairings refuses the record as well.
    text = "012 Odd\nXXR 5\n299 W    1.0  2.0 001    1\n" + TWO
    with pytest.raises(trf.TRFError) as e:
        trf.loads(text, points_by_player)
    assert (e.value.code, e.value.line) == ("trf_299", 3)


def test_a_comment_is_any_line_whose_first_three_characters_are_hashes():
    # TRF26 remark 1: "###" then anything, a space or not (bbpPairings reads past both); kept and written back.
    text = "###comment without a space\n012 C\n### with one\n" + GOOD_GAME
    assert trf.looks_like_trf(text)
    event = trf.loads(text, points_by_player)
    assert event.settings.trf_header[:3] == ("###comment without a space", "012 C", "### with one")
    assert trf.dumps(event).splitlines()[:3] == ["###comment without a space", "012 C", "### with one"]


def test_record_001_colours_are_read_in_either_case():
    # TRF26: letter codes are case-insensitive; FIDE's tie-break server reads a colour W or B as w or b.
    upper = GOOD_GAME.replace("2 w 1", "2 W 1").replace("1 b 0", "1 B 0")
    assert trf.loads(upper, points_by_player).rounds == trf.loads(GOOD_GAME, points_by_player).rounds


def test_record_001_points_above_99_9_are_refused_not_written_past_column_84():
    # Points are "11.5" in columns 81-84; 100.0 would push the rank out of 86-89 and every round block with it.
    event = made_here(scoring=Scoring(Fraction(10), Fraction(5), Fraction(0)))
    assert trf.dumps(event, {"a": 1, "b": 2}, {"a": Fraction(999, 10), "b": Fraction(0)})
    with pytest.raises(trf.TRFExportError) as e:
        trf.dumps(event, {"a": 1, "b": 2}, {"a": Fraction(100), "b": Fraction(0)})
    assert (e.value.code, e.value.params) == ("trf_points_too_high", {"name": "Anna", "points": "100.0"})


def test_record_142_is_written_beside_xxr_for_the_programs_that_read_only_one():
    # TRF26: 142 (the rounds) is mandatory for a file exchanged during the event; JaVaFo reads only XXR.
    event = made_here()
    assert (records(event, "142"), records(event, "XXR")) == (["142 5"], ["XXR 5"])
    again = trf.loads(trf.dumps(event), points_by_player)
    assert again.settings.planned_rounds == 5 and trf.dumps(again) == trf.dumps(event)


def test_record_202_is_written_once_in_c07_spelling_by_the_generator():
    # `swiss generate` wrote its own "202 BH-C1,…" after the export's "202 BH/C1,…": FIDE's tie-break server
    # reads the last 202 record, and no BH-C1 (it reads a modifier after a slash), so it gave BH-C1 as 0.
    text = generate(Options(players=10, rounds=4, seed=5))
    assert [line for line in text.splitlines() if line[:3] == "202"] == ["202 BH/C1,BH,SB,DE"]
    other = generate(Options(players=10, rounds=4, seed=5, tiebreaks=("buchholz_cut1", "BH-C1")))
    assert [line for line in other.splitlines() if line[:3] == "202"] == ["202 buchholz_cut1,BH/C1"]
