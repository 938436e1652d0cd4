"""TRF complete, in the pure engine: hostile files refused by line before any work, the XX* and
TRF-2026 header lines read, the round to be paired read with its requested byes, an export other chess
programs read (no start-rank gaps, no pending games, forfeit colours, XXC, no invented date) that comes back
unchanged, and the chess details and requested byes of the swiss-event file. No database."""

import json
import time
from fractions import Fraction as F
from pathlib import Path

import pytest

import pairing
from standings import compute, points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.model import (
    BYE,
    DOUBLE_LOSS,
    FORFEIT,
    FULL_BYE,
    HALF_BYE,
    LOSS,
    REQUESTED_BYES,
    ZERO_BYE,
    Event,
    Match,
    Player,
    Round,
    Scoring,
    settings_for_preset,
)
from tests.engines.test_trf import GOOD, player

DATA = Path(__file__).parents[1] / "data" / "trf"


def hostile(rounds: int) -> str:
    """The file that once stalled: two players who meet every round, for thousands of rounds."""
    one = "".join(f"     2 {'w' if r % 2 else 'b'} {'1' if r % 2 else '0'}" for r in range(rounds))
    two = "".join(f"     1 {'b' if r % 2 else 'w'} {'0' if r % 2 else '1'}" for r in range(rounds))
    return f"012 Hostile\n{player(one, points='')}\n{player(two, rank='2', name='Bert', points='')}\n"


def refusal(text, cls=trf.TRFError):
    with pytest.raises(cls) as e:
        trf.loads(text, points_by_player)
    return e.value


def export(event: Event) -> str:
    table = compute(event)
    return trf.dumps(event, {r.player_id: r.rank for r in table.rows}, {r.player_id: r.points for r in table.rows})


# ---------------------------------------------------------------- hostile files


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("012 Te\x00st\n" + GOOD[9:], 1, 7),  # a header line
        (GOOD.replace("2000    ", "2000 G\x00R", 1), 2, 55),  # the federation
        (GOOD[:66] + "    12\x0045" + GOOD[77:], 2, 64),  # the FIDE id (columns 58-68)
    ],
)
def test_a_nul_anywhere_is_refused_with_its_line_and_column(text, line, column):
    e = refusal(text)
    assert (e.code, e.line, e.params["column"]) == ("trf_nul", line, column), str(e)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (GOOD.replace("001    1", "001    \u0661", 1), 2),  # an Arabic-Indic one as start rank
        (GOOD.replace("     2 w 1", "     \u0968 w 1", 1), 2),  # a Devanagari two as opponent
        (GOOD.replace("2000", "２０００", 1), 2),  # full-width digits as rating
        (GOOD + "XXR \u0665\n", 4),  # and in a header line
    ],
)
def test_a_digit_that_is_not_ascii_is_refused_with_its_line(text, line):
    e = refusal(text)
    assert (e.code, e.line) == ("trf_digit", line) and "0-9" in str(e)


def test_a_superscript_digit_is_no_number_either():
    # '²'.isdigit() is true but int('²') fails: refused as a rating, not a crash.
    e = refusal(GOOD.replace("2000", "200²", 1))
    assert (e.code, e.line) == ("trf_rating", 2)


@pytest.mark.parametrize("value", ["99999", "32768", "31"])
def test_more_planned_rounds_than_the_players_could_play_is_refused(value):
    e = refusal(GOOD + f"XXR {value}\n")
    assert (e.code, e.line, e.params["limit"]) == ("trf_too_many_rounds", 4, 30)
    assert e.params["rounds"] == int(value) and e.params["players"] == 2


def test_the_same_bound_holds_for_the_2026_rounds_line_and_allows_a_match():
    assert trf.loads(GOOD + "142 12\n", points_by_player).settings.planned_rounds == 12
    assert refusal(GOOD + "142 0\n").code == "trf_rounds"


@pytest.mark.parametrize("rounds", [20_000, 32_768])
def test_two_players_with_thousands_of_rounds_are_refused_before_any_work(rounds):
    text = hostile(rounds)
    start = time.perf_counter()
    e = refusal(text)
    assert (e.code, e.line, e.params["rounds"]) == ("trf_too_many_rounds", 2, rounds)
    # The 400 kB file took 63 s to import before; now it is refused from a scan of its lines.
    assert time.perf_counter() - start < 1


def test_a_file_larger_than_any_real_event_is_refused_unread():
    e = refusal("012 Big\n" + "### " + "x" * trf.MAX_BYTES + "\n", ef.EventFileError)
    assert e.message.code == "trf_too_large" and e.message.params["limit"] == trf.MAX_BYTES
    with pytest.raises(ef.EventFileError):
        trf.check_size(trf.MAX_BYTES + 1)
    trf.check_size(trf.MAX_BYTES)


def test_many_players_with_many_rounds_are_refused_by_their_product():
    lines = [player("", rank=str(k), name=f"P{k}", points="") + "  0000 - Z" * 120 for k in range(1, 900)]
    e = refusal("012 Wide\n" + "\n".join(lines) + "\n")
    assert e.code == "trf_too_big" and e.params["limit"] == trf.MAX_CELLS


def test_bad_chess_details_are_refused_with_their_columns():
    bad_federation = GOOD.replace("2000    ", "2000 G1R", 1)
    e = refusal(bad_federation)
    assert (e.code, e.line, e.params["columns"], e.params["problem"].code) == (
        "trf_detail",
        2,
        "54-56",
        "file_federation",
    )
    bad_sex = GOOD.replace("001    1      Anna", "001    1 x    Anna", 1)
    assert refusal(bad_sex).params["problem"].code == "file_sex"


# ---------------------------------------------------------------- header lines


def test_xxc_and_152_give_the_initial_colour_and_come_back():
    assert trf.loads(GOOD + "XXC white1\n", points_by_player).settings.initial_colour == "white"
    assert trf.loads(GOOD + "XXC rank black1\n", points_by_player).settings.initial_colour == "black"
    assert trf.loads(GOOD + "152 B\n", points_by_player).settings.initial_colour == "black"
    assert trf.loads(GOOD, points_by_player).settings.initial_colour is None
    assert refusal(GOOD + "152 X\n").code == "trf_initial_colour"
    event = trf.loads(GOOD + "XXC rank black1\n", points_by_player)
    assert "XXC rank black1" in export(event).splitlines()
    # An event made here writes its initial colour as XXC.
    made = Event(settings=settings_for_preset("chess", initial_colour="white"), players=event.players)
    assert "XXC white1" in trf.dumps(made).splitlines()


def test_xxs_and_162_set_the_points_of_a_win_a_draw_and_a_loss():
    text = GOOD.replace("1.0", "3.0", 1) + "XXS W=3 D=1 L=0 FPB=3\n"
    event = trf.loads(text, points_by_player)
    assert (event.settings.scoring, event.settings.preset) == (Scoring(F(3), F(1), F(0)), "custom")
    assert event.settings.tiebreakers == ("BH-C1", "BH", "SB", "DE") and event.settings.best_of == 1
    e = refusal(GOOD + "XXS W=1 HPB=1\n")
    assert (e.code, e.params["code"], e.params["result"].code) == ("trf_score_differs", "HPB", "trf_scores_as_draw")
    assert refusal(GOOD + "XXS nonsense\n").code == "trf_xxs"
    chess = trf.loads(GOOD + "162  W 1.0    D 0.5    A 0.0\n", points_by_player).settings
    assert (chess.scoring, chess.preset) == (Scoring(F(1), F(1, 2), F(0)), "chess")
    assert refusal(GOOD + "162  Q 1.0\n").code == "trf_162"


def test_unknown_xx_lines_are_kept_and_nothing_is_invented():
    text = GOOD + "XXA    1  1.0  1.0\nXXP 1 2\nXXY whatever\n"
    event = trf.loads(text, points_by_player)
    assert event.settings.trf_header == ("012 Test", "XXA    1  1.0  1.0", "XXP 1 2", "XXY whatever")
    # No 042 line: no date, and the export writes none.
    assert event.settings.date is None
    assert not [x for x in export(event).splitlines() if x.startswith("042")]


def test_comments_and_lower_case_result_codes_are_trf_2026():
    text = "### a comment first\n" + GOOD.replace("2 w 1", "2 w 1  0000 - u", 1).replace("1 b 0", "1 b 0  0000 - h", 1)
    assert trf.looks_like_trf(text)
    text = text.replace("1.0", "2.0", 1).replace("0.0", "0.5", 1)
    event = trf.loads(text, points_by_player)
    assert event.rounds[1].matches == (Match(a="1", result=BYE), Match(a="2", result=HALF_BYE))


def test_a_file_without_a_header_keeps_having_no_date():
    event = trf.loads(GOOD[9:], points_by_player)
    assert event.settings.trf_header == ("012 TRF import",) and event.settings.date is None
    assert not [x for x in export(event).splitlines() if x.startswith("042")]


# ---------------------------------------------------------------- the round to be paired

BYES = (
    "012 Byes\nXXR 3\n"
    + "\n".join(
        [
            player("     2 w 1  0000 - H", rank="1", name="Anna", points="1.0"),
            player("     1 b 0", rank="2", name="Bert", points="0.0"),
            player("     4 w =  0000 - Z", rank="3", name="Cleo", points="0.5"),
            player("     3 b =  0000 - F", rank="4", name="Dora", points="0.5"),
            player("  0000 - U", rank="5", name="Emil", points="1.0"),
            player("  0000 - Z", rank="6", name="Finn", points="0.0"),
        ]
    )
    + "\n"
)


def test_the_next_rounds_byes_are_requested_byes_not_a_round_played():
    event = trf.loads(BYES, points_by_player)
    assert len(event.rounds) == 1
    byes = {p.id: p.requested_byes for p in event.players if p.requested_byes}
    assert byes == {"1": ((2, HALF_BYE),), "3": ((2, ZERO_BYE),), "4": ((2, FULL_BYE),)}
    # Nobody is taken for withdrawn because the column of round 2 is not theirs.
    assert all(p.dropped_after is None for p in event.players if p.id != "6")
    to_pair, _ = pairing.eligible(event, 2)
    assert to_pair == ["2", "5", "6"]
    assert pairing.requested_byes(event, 2) == {"1": HALF_BYE, "3": ZERO_BYE, "4": FULL_BYE}
    assert {e.id for e in pairing.entrants_from_event(event, 2).entrants} == {"2", "5", "6"}


def test_the_points_may_count_the_requested_byes_as_bbppairings_checker_wants():
    # Anna's points include the full-point bye entered for round 2 (bbpPairings' checker refuses a file
    # otherwise): the column is still the round to be paired, not a round played (Bert has no entry in it).
    text = GOOD.replace("1.0        ", "2.0        ", 1).replace("2 w 1", "2 w 1  0000 - F", 1)
    event = trf.loads(text, points_by_player)
    assert len(event.rounds) == 1 and event.players[0].requested_byes == ((2, FULL_BYE),)
    # Without the bye in the points it reads the same; any other figure is refused.
    assert trf.loads(text.replace("2.0        ", "1.0        ", 1), points_by_player) == event
    assert refusal(text.replace("2.0        ", "1.5        ", 1)).code == "trf_points_disagree"


def test_a_column_of_byes_everyone_has_is_a_round_played():
    # Both players have an entry in round 2 (bbpPairings' pairing mode reads such a column as played).
    text = GOOD.replace("2 w 1", "2 w 1  0000 - F", 1).replace("1 b 0", "1 b 0  0000 - -", 1)
    event = trf.loads(text.replace("1.0        ", "2.0        ", 1), points_by_player)
    assert len(event.rounds) == 2
    assert event.rounds[1].matches == (Match(a="1", result=FULL_BYE), Match(a="2", result=LOSS))


def test_240_lines_request_byes_for_later_rounds():
    event = trf.loads(BYES + "240 H 003    2    5\n", points_by_player)
    assert pairing.requested_byes(event, 3) == {"2": HALF_BYE, "5": HALF_BYE}
    assert refusal(BYES + "240 H 003    9\n").code == "trf_240_rank"
    assert refusal(BYES + "240 Q 003    2\n").code == "trf_240"


def test_xxz_lists_the_players_absent_from_the_round_to_be_paired():
    event = trf.loads(BYES + "XXZ 2 5\n", points_by_player)
    assert pairing.requested_byes(event, 2) == {
        "1": HALF_BYE,
        "2": ZERO_BYE,
        "3": ZERO_BYE,
        "4": FULL_BYE,
        "5": ZERO_BYE,
    }
    assert pairing.eligible(event, 2) == (["6"], [])
    assert refusal(BYES + "XXZ 9\n").code == "trf_240_rank"
    assert refusal(BYES + "XXZ two\n").code == "trf_xxz"


def test_requested_byes_come_back_as_the_next_column_and_240_lines():
    event = trf.loads(BYES + "240 H 003    2    5\n", points_by_player)
    text = export(event)
    assert "240 H 003    2    5" in text.splitlines()
    assert trf.loads(text, points_by_player).players == event.players
    assert export(trf.loads(text, points_by_player)) == text


# ---------------------------------------------------------------- export


def test_a_deleted_player_leaves_no_gap_in_the_start_ranks():
    players = tuple(Player(id=f"p{k}", name=f"P{k}", number=k) for k in (1, 2, 4, 5))
    rnd = Round(
        number=1,
        matches=(Match(a="p5", b="p1", games=(1, 0, 0)), Match(a="p2", b="p4", games=(0, 0, 1))),
    )
    event = Event(settings=settings_for_preset("chess", name="Gap"), players=players, rounds=(rnd,))
    assert trf.start_ranks(event) == {"p1": 1, "p2": 2, "p4": 3, "p5": 4}
    lines = [x for x in trf.dumps(event).splitlines() if x.startswith("001")]
    assert [x[4:8] for x in lines] == ["   1", "   2", "   3", "   4"]
    assert lines[0][89:].strip() == "4 b 0" and lines[3][89:].strip() == "1 w 1"


def test_a_round_in_progress_writes_only_the_games_with_a_result():
    players = tuple(Player(id=str(k), name=f"P{k}") for k in range(1, 5))
    rounds = (
        Round(number=1, matches=(Match(a="1", b="2", games=(1, 0, 0)), Match(a="3", b="4", games=(0, 1, 0)))),
        Round(number=2, matches=(Match(a="4", b="1", games=(0, 0, 1)), Match(a="2", b="3"))),
    )
    event = Event(settings=settings_for_preset("chess", name="Live"), players=players, rounds=rounds)
    blocks = {x[4:8].strip(): x[89:].rstrip() for x in trf.dumps(event).splitlines() if x.startswith("001")}
    assert blocks == {
        "1": "     2 w 1     4 b =",
        "2": "     1 b 0",
        "3": "     4 w 0",
        "4": "     3 b 1     1 w =",
    }


def test_forfeit_colours_are_kept():
    text = (
        "012 Forfeits\n"
        + "\n".join(
            [
                player("     2 b +     3 w -", rank="1", name="Anna", points="1.0"),
                player("     1 w -", rank="2", name="Bert", points="0.0"),
                player("  0000 - U     1 b -", rank="3", name="Cleo", points="1.0"),
            ]
        )
        + "\n"
    )
    event = trf.loads(text, points_by_player)
    assert event.rounds[0].matches[0] == Match(a="1", b="2", result=FORFEIT, white="2")
    assert event.rounds[1].matches[0] == Match(a="1", b="3", result=DOUBLE_LOSS, white="1")
    out = export(event)
    assert [x[89:].rstrip() for x in out.splitlines() if x.startswith("001")] == [
        "     2 b +     3 w -",
        "     1 w -",
        "  0000 - U     1 b -",
    ]
    # And through the swiss-event file.
    assert ef.loads(ef.dumps(event)) == event


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.trf")))
def test_export_import_export_is_identical(name):
    first = export(trf.loads((DATA / name).read_bytes(), points_by_player))
    assert export(trf.loads(first, points_by_player)) == first


def test_the_sample_bbppairings_checked_is_what_the_export_writes():
    # tests/data/trf/bbp/: an export of this app in the middle of an event (a deleted player, a forfeit with
    # colours, byes, XXA accelerations, the rating report's header, the round to be paired with a requested
    # bye, an absence, a withdrawn player and a later entry), and bbpPairings' verdict (CI cannot run it).
    sample = DATA / "bbp" / "export.trf"
    event = trf.loads(sample.read_bytes(), points_by_player)
    assert export(event) == sample.read_text()
    verdict = (DATA / "bbp" / "verdict.txt").read_text()
    # Its pairing mode pairs round 4 as we do; its checker accepts every score (the requested bye counted).
    assert "--dutch export.trf -p\n3\n8 6\n7 1\n2 5\nexit status 0" in verdict
    result = pairing.pair(pairing.from_event(event))
    assert {(p.a, p.b) for p in result.pairs} == {("8", "6"), ("7", "1"), ("2", "5")} and not result.byes
    assert "export: Round #4\n\nexit status 0" in verdict and "does not match" not in verdict
    assert "Checker pairings" not in verdict


# ---------------------------------------------------------------- the swiss-event file


def test_the_swiss_event_file_carries_the_chess_details_and_requested_byes():
    doc = {
        "format": "swiss-event",
        "version": 1,
        "preset": "chess",
        "initial_colour": "black",
        "rating_breaks_ties": True,
        "players": [
            {
                "id": "1",
                "name": "Anna",
                "fide_id": "3400042",
                "federation": "DEN",
                "title": "WGM",
                "sex": "w",
                "birth_date": "1990/01/31",
                "requested_byes": [{"round": 3, "result": "half_bye"}, {"round": 1, "result": "zero_bye"}],
            },
            {"id": "2", "name": "Bert"},
        ],
    }
    event = ef.parse(doc)
    anna = event.players[0]
    assert (anna.fide_id, anna.federation, anna.title, anna.sex, anna.birth_date) == (
        "3400042",
        "DEN",
        "WGM",
        "w",
        "1990/01/31",
    )
    assert anna.requested_byes == ((1, ZERO_BYE), (3, HALF_BYE)) and anna.requested_bye(3) == HALF_BYE
    assert (event.settings.initial_colour, event.settings.rating_breaks_ties) == ("black", True)
    assert ef.loads(ef.dumps(event)) == event
    assert pairing.eligible(event, 1) == (["2"], []) and pairing.eligible(event, 2) == (["1", "2"], [])


@pytest.mark.parametrize(
    ("player", "path", "code"),
    [
        ({"fide_id": "34x"}, "players[0].fide_id", "file_fide_id"),
        ({"federation": "DENMARK"}, "players[0].federation", "file_federation"),
        ({"title": "Dr"}, "players[0].title", "file_title"),
        ({"sex": "x"}, "players[0].sex", "file_sex"),
        ({"birth_date": "31.1.90"}, "players[0].birth_date", "file_birth_date"),
        ({"fide_id": "1\u0000"}, "players[0].fide_id", "file_nul"),
        ({"requested_byes": [{"round": 2, "result": "bye"}]}, "players[0].requested_byes[0].result", "file_one_of"),
        (
            {"requested_byes": [{"round": 2, "result": "half_bye"}] * 2},
            "players[0].requested_byes[1].round",
            "file_round_twice",
        ),
        ({"requested_byes": {"2": "half_bye"}}, "players[0].requested_byes", "file_not_list"),
    ],
)
def test_a_bad_chess_detail_or_requested_bye_is_a_message(player, path, code):
    doc = {"format": "swiss-event", "version": 1, "players": [{"id": "1", "name": "Anna", **player}]}
    with pytest.raises(ef.EventFileError) as e:
        ef.parse(doc)
    assert (e.value.path, e.value.message.code) == (path, code)


def test_white_names_a_player_of_an_unplayed_game_only():
    base = {
        "format": "swiss-event",
        "version": 1,
        "preset": "chess",
        "players": [{"id": "1", "name": "A"}, {"id": "2", "name": "B"}],
    }
    for match, code in (
        ({"a": "1", "b": "2", "games": [1, 0, 0], "white": "2"}, "file_white_unplayed"),
        ({"a": "1", "b": "2", "result": "forfeit", "white": "3"}, "file_white_player"),
    ):
        with pytest.raises(ef.EventFileError) as e:
            ef.parse({**base, "rounds": [{"number": 1, "matches": [match]}]})
        assert e.value.message.code == code
    ok = ef.parse(
        {**base, "rounds": [{"number": 1, "matches": [{"a": "1", "b": "2", "result": "forfeit", "white": "2"}]}]}
    )
    assert ok.rounds[0].matches[0].white == "2"
    assert json.loads(ef.dumps(ok))["rounds"][0]["matches"][0]["white"] == "2"


# ---------------------------------------------------------------- rating breaks the ties C.07 leaves


def test_rating_breaks_the_ties_c07_leaves_when_the_event_asks():
    players = (
        Player(id="1", name="Anna", rating=1800),
        Player(id="2", name="Bert", rating=2100),
        Player(id="3", name="Cleo", rating=1500),
        Player(id="4", name="Dora", rating=None),
    )
    draws = Round(number=1, matches=(Match(a="1", b="2", games=(0, 0, 1)), Match(a="3", b="4", games=(0, 0, 1))))
    settings = settings_for_preset("chess", name="Ties")
    shared = compute(Event(settings=settings, players=players, rounds=(draws,)))
    assert [(r.rank, r.name) for r in shared.rows] == [(1, "Anna"), (1, "Bert"), (1, "Cleo"), (1, "Dora")]
    asked = Event(settings=settings_for_preset("chess", rating_breaks_ties=True), players=players, rounds=(draws,))
    assert [(r.rank, r.name) for r in compute(asked).rows] == [(1, "Bert"), (2, "Anna"), (3, "Cleo"), (4, "Dora")]
    # Equal ratings still share their rank.
    same = tuple(Player(id=p.id, name=p.name, rating=2000) for p in players)
    again = compute(Event(settings=asked.settings, players=same, rounds=(draws,)))
    assert {r.rank for r in again.rows} == {1}


def test_a_one_game_event_with_other_points_exports_them_as_a_162_line():
    players = tuple(Player(id=str(k), name=f"P{k}") for k in range(1, 5))
    rnd = Round(number=1, matches=(Match(a="1", b="2", games=(1, 0, 0)), Match(a="3", b="4", games=(0, 0, 1))))
    settings = settings_for_preset("custom", scoring=Scoring(F(3), F(1), F(0)), best_of=1, name="Football")
    event = Event(settings=settings, players=players, rounds=(rnd,))
    text = export(event)
    assert "162  W 3.0    D 1.0    L 0.0" in text.splitlines()
    again = trf.loads(text, points_by_player)
    assert again.settings.scoring == settings.scoring and export(again) == text
    # A file's own XXS line comes back as it was while it still gives the event's points, with the 162 record
    # beside it: bbpPairings reads no XXS (and refuses the file's points without the 162).
    xxs = trf.loads(GOOD.replace("1.0", "3.0", 1) + "XXS W=3 D=1\n", points_by_player)
    lines = export(xxs).splitlines()
    assert lines[lines.index("XXS W=3 D=1") + 1] == "162  W 3.0    D 1.0    L 0.0"
    assert export(trf.loads(export(xxs), points_by_player)) == export(xxs)
    with pytest.raises(trf.TRFExportError):
        trf.dumps(Event(settings=settings_for_preset("mtg"), players=players))


@pytest.mark.parametrize("seed", range(30))
def test_every_eligible_player_is_paired_once_and_no_requested_bye_is(seed):
    import random
    from dataclasses import replace

    from tests.engines.test_trf import random_chess_event

    rng = random.Random(seed)
    event = random_chess_event(seed)
    # Only results: a pairing still without one would hold the next round back.
    rounds = tuple(replace(r, matches=tuple(m for m in r.matches if m.has_result)) for r in event.rounds)
    event = replace(event, rounds=rounds)
    n = len(event.rounds) + 1
    kinds = (None, None, *REQUESTED_BYES)
    players = tuple(
        replace(p, requested_byes=((n, kind),)) if (kind := rng.choice(kinds)) else p for p in event.players
    )
    event = replace(event, players=players)
    requested = pairing.requested_byes(event, n)
    to_pair, awarded = pairing.eligible(event, n)
    assert not set(requested) & set(to_pair + awarded)
    assert set(requested) | set(to_pair) | set(awarded) == {p.id for p in players}
    if len(to_pair) + len(awarded) < 2:
        return
    # The optimal engine always pairs. The Dutch system (the chess preset's own) pairs everyone eligible once
    # or, in a small field with no pairing that meets C.04.3's absolute criteria, refuses as FIDE's engines do.
    for system in ("optimal", "dutch"):
        chosen = replace(event, settings=replace(event.settings, pairing=system))
        try:
            result = pairing.pair(pairing.from_event(chosen, n, seed=seed))
        except pairing.PairingError as refused:
            assert system == "dutch" and refused.args[0].code == "dutch_no_pairing"
            continue
        seated = [x for p in result.pairs for x in (p.a, p.b)] + list(result.byes)
        assert sorted(seated) == sorted(to_pair + awarded)
