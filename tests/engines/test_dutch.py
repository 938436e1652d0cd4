"""The FIDE Dutch system (pairing/dutch/) against bbpPairings, a FIDE-endorsed Dutch engine.

tests/data/dutch/ holds tournaments bbpPairings paired round by round (NAME.trf, and NAME.bbp: its
answer for every round from the history before it; rtg*: made whole by its own generator, -g) and, under own/, tournaments our engine paired
throughout with bbpPairings' checker's verdict (NAME.check). bench/dutch_corpus.py made them; no
database, no bbpPairings needed here.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

import pairing
from pairing.dutch import BLACK, WHITE, DutchInput, DutchPlayer, Game, pair_dutch
from pairing.event import dutch_from_event, initial_colour, pairing_numbers
from pairing.types import PairingError
from standings import points_by_player
from swiss import eventfile, trf
from swiss.model import Event, Match, Player, Round, settings_for_preset

DATA = Path(__file__).parents[1] / "data" / "dutch"
# Rounds known to differ from bbpPairings (file name -> round numbers); the corpus test skips nothing else.
DIVERGENT: dict[str, list[int]] = json.loads((DATA / "divergent.json").read_text())
# The whole corpus by default (1,036 rounds, about 15 s of CPU); DUTCH_MAX_PLAYERS=60 for a quick run.
MAX_PLAYERS_IN_TESTS = int(os.environ.get("DUTCH_MAX_PLAYERS", "400"))


def _size(path: Path) -> int:
    return int(path.stem.split("-")[1].rstrip("p"))


def recorded(path: Path) -> dict[int, tuple[set[tuple[str, str]], str | None]]:
    rounds: dict[int, tuple[set[tuple[str, str]], str | None]] = {}
    current = 0
    for line in path.read_text().splitlines():
        if line.startswith("round"):
            current = int(line.split()[1])
            rounds[current] = (set(), None)
            continue
        white, black = line.split()
        pairs, bye = rounds[current]
        rounds[current] = (pairs, white) if black == "0" else (pairs | {(white, black)}, bye)
    return rounds


def _ours(event: Event, round_number: int) -> tuple[set[tuple[str, str]], str | None]:
    inp = dutch_from_event(event, round_number)
    if round_number == 1 and event.settings.initial_colour is None:
        # bbpPairings' generator drew round 1's colour by lot and wrote none down: its games show which.
        inp = replace(inp, initial_colour=initial_colour(event, round_number=len(event.rounds) + 1))
    result = pair_dutch(inp)
    return {(p.a, p.b) for p in result.pairs}, (result.byes[0] if result.byes else None)


CORPUS = sorted(p for p in DATA.glob("*.trf") if _size(p) <= MAX_PLAYERS_IN_TESTS)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_round_is_paired_as_bbppairings_pairs_it(path):
    """Pairs, colours (white first) and the bye of every round, from the history before it."""
    event = trf.loads(path.read_text(), points_by_player)
    divergent = set(DIVERGENT.get(path.stem, []))
    for number, expected in recorded(path.with_suffix(".bbp")).items():
        if number in divergent:
            continue
        assert _ours(event, number) == expected, f"{path.stem} round {number}"


def test_the_corpus_is_what_the_issue_asks_for():
    paths = sorted(DATA.glob("*.trf"))
    sizes = [_size(p) for p in paths]
    rounds = [len(recorded(p.with_suffix(".bbp"))) for p in paths]
    assert len(paths) >= 60 and min(sizes) >= 10 and max(sizes) >= 200
    assert min(rounds) >= 5 and max(rounds) <= 13
    text = "".join(p.read_text() for p in paths)
    for code in (" = ", " + ", " - ", " H", " Z", " U"):  # draws, forfeits, byes half/zero, the allocated bye
        assert code in text
    # Withdrawals, written as arbiters write them: "0000 - -" from some round to the last (each round an
    # absence, entered before its pairing); late entries are absent with a zero-point bye until they join.
    withdrawn = [line for path in paths[:20] for line in path.read_text().splitlines() if line.endswith("0000 - -")]
    assert withdrawn and "0000 - Z" in text
    assert sum(p.stat().st_size for p in DATA.rglob("*")) < 4_000_000


OWN = sorted((DATA / "own").glob("*.trf"))


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.stem)
def test_a_tournament_paired_by_us_passes_the_endorsed_checker(path):
    """bbpPairings -c found every round of it as the Dutch system gives it, and we pair it the same again."""
    verdict = path.with_suffix(".check").read_text()
    assert verdict.startswith("exit status 0\n") and "Checker pairings" not in verdict
    event = trf.loads(path.read_text(), points_by_player)
    rounds = recorded(path.with_suffix(".ours"))
    assert f"Round #{len(rounds)}" in verdict
    for number, expected in rounds.items():
        assert _ours(event, number) == expected


# ------------------------------------------------------------------ the rules, one at a time


def _games(*entries: tuple[str | None, str, str]) -> tuple[Game, ...]:
    """(opponent, colour, result) per round: result 1, =, 0 for a game; U for the allocated bye."""
    points = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "U": Fraction(1)}
    return tuple(Game(points[r], o, c, played=o is not None, pairing_bye=r == "U") for o, c, r in entries)


def _input(histories: dict[str, tuple[Game, ...]], rounds: int = 5, **kw) -> DutchInput:
    done = {len(h) for h in histories.values()}
    assert len(done) == 1
    players = tuple(DutchPlayer(pid, int(pid), h) for pid, h in histories.items())
    return DutchInput(done.pop() + 1, rounds, players, frozenset(histories), **kw)


def test_round_one_alternates_colours_from_the_initial_colour():
    histories = {str(k): () for k in range(1, 7)}
    white1 = pair_dutch(_input(histories, initial_colour=WHITE))
    assert [(p.a, p.b) for p in white1.pairs] == [("1", "4"), ("5", "2"), ("3", "6")]
    black1 = pair_dutch(_input(histories, initial_colour=BLACK))
    assert [(p.a, p.b) for p in black1.pairs] == [("4", "1"), ("2", "5"), ("6", "3")]


def test_round_one_bye_goes_to_the_last_pairing_number():
    result = pair_dutch(_input({str(k): () for k in range(1, 6)}))
    assert result.byes == ("5",) and {(p.a, p.b) for p in result.pairs} == {("1", "3"), ("4", "2")}


def test_no_rematch_and_no_third_colour_in_a_row():
    # 1 and 2 have had White twice; 3 and 4 Black twice: 1 v 2 and 3 v 4 are excluded (C.04.3 A.7).
    histories = {
        "1": _games(("5", WHITE, "1"), ("6", WHITE, "1")),
        "2": _games(("6", BLACK, "0"), ("5", WHITE, "1")),
        "3": _games(("7", BLACK, "1"), ("8", BLACK, "1")),
        "4": _games(("8", WHITE, "1"), ("7", BLACK, "1")),
        "5": _games(("1", BLACK, "0"), ("2", BLACK, "0")),
        "6": _games(("2", WHITE, "1"), ("1", BLACK, "0")),
        "7": _games(("3", WHITE, "0"), ("4", WHITE, "0")),
        "8": _games(("4", BLACK, "0"), ("3", WHITE, "0")),
    }
    histories["2"] = _games(("6", WHITE, "0"), ("5", WHITE, "1"))
    histories["6"] = _games(("2", BLACK, "1"), ("1", BLACK, "0"))
    result = pair_dutch(_input(histories))
    met = {frozenset((g.opponent, pid)) for pid, h in histories.items() for g in h}
    for p in result.pairs:
        assert frozenset((p.a, p.b)) not in met
        for pid, colour in ((p.a, WHITE), (p.b, BLACK)):
            assert [g.colour for g in histories[pid]] != [colour, colour], (pid, colour)


def test_topscorers_may_break_the_colour_rule_in_the_last_round():
    # 1 and 2 lead with White twice each; before the last round they cannot meet (C.04.3 A.7).
    histories = {
        "1": _games(("3", WHITE, "1"), ("4", WHITE, "1")),
        "2": _games(("5", WHITE, "1"), ("6", WHITE, "1")),
        "3": _games(("1", BLACK, "0"), ("5", WHITE, "1")),
        "4": _games(("6", WHITE, "1"), ("1", BLACK, "0")),
        "5": _games(("2", BLACK, "0"), ("3", BLACK, "0")),
        "6": _games(("4", BLACK, "0"), ("2", BLACK, "0")),
    }
    last = pair_dutch(_input(histories, rounds=3))
    assert {frozenset((p.a, p.b)) for p in last.pairs} == {frozenset(x) for x in ("12", "36", "45")}
    earlier = pair_dutch(_input(histories, rounds=5))
    assert frozenset("12") not in {frozenset((p.a, p.b)) for p in earlier.pairs}


def test_the_bye_skips_a_player_who_had_it():
    histories = {
        "1": _games(("2", WHITE, "1")),
        "2": _games(("1", BLACK, "0")),
        "3": _games((None, "", "U")),
    }
    result = pair_dutch(_input(histories))
    assert result.byes == ("2",) and [(p.a, p.b) for p in result.pairs] == [("3", "1")]


def test_pairing_numbers_follow_rating_then_title_then_name():
    players = (
        Player("a", "Zeta", rating=2400),
        Player("b", "Alpha", rating=2400),
        Player("c", "Mu", rating=2400, title="IM"),
        Player("d", "Omega", rating=2500),
        Player("e", "Beta", rating=2400, title="GM"),
    )
    event = Event(settings_for_preset("chess"), players)
    assert pairing_numbers(event) == {"d": 1, "e": 2, "c": 3, "b": 4, "a": 5}


# Six players whose start ranks are not in rating order, as an arbiter's file may number them (by a national
# list, say). bbpPairings pairs round 1 of it 1-4, 5-2, 3-6 (white first): by the file's numbers.
def _unplayed_trf(header: str, players: list[tuple[str, int]]) -> str:
    """A TRF before round 1: the header lines, then the players (name, rating) by start rank."""
    return header + "".join(
        f"001 {n:4d}      {name:<33} {rating:4d}                             0.0 {n:4d}\n"
        for n, (name, rating) in enumerate(players, start=1)
    )


RANKED_BY_THE_FILE = _unplayed_trf(
    "012 Ranked by the file\nXXR 5\nXXC white1\n",
    [("Alpha, A", 1500), ("Bravo, B", 2000), ("Charlie, C", 1800), ("Delta, D", 1700), ("Echo, E", 1600)]
    + [("Foxtrot, F", 1900)],
)


def test_a_trf_keeps_its_own_start_ranks_as_pairing_numbers():
    event = trf.loads(RANKED_BY_THE_FILE, points_by_player)
    assert pairing_numbers(event) == {str(k): k for k in range(1, 7)}
    assert _ours(event, 1) == ({("1", "4"), ("5", "2"), ("3", "6")}, None)  # bbpPairings' pairing


def test_a_trf_imported_as_a_section_keeps_its_start_ranks_under_the_venues_player_numbers():
    """A section's players take the venue's next numbers (13, 14…, one run across sections), in start-rank
    order; their ids are still the file's start ranks, which stay the pairing numbers."""
    event = trf.loads(RANKED_BY_THE_FILE, points_by_player)
    offset = tuple(replace(p, number=p.number + 12) for p in event.players)
    section = Event(event.settings, offset)
    assert pairing_numbers(section) == {str(k): k for k in range(1, 7)}
    assert _ours(section, 1) == ({("1", "4"), ("5", "2"), ("3", "6")}, None)


def test_a_player_added_after_a_trf_import_is_placed_by_the_rule_among_the_files_players():
    # A file ranked by a national list: its players without a FIDE rating (0) sit among the rated ones.
    ranked = [("Kilo, K", 2000), ("Lima, L", 1900), ("Mike, M", 0), ("November, N", 1700), ("Oscar, O", 0)]
    event = trf.loads(_unplayed_trf("012 National list\nXXR 5\n", [*ranked, ("Papa, P", 1500)]), points_by_player)
    late = (Player("p7", "Golf, G", rating=1650, number=7), Player("p8", "Hotel, H", rating=2100, number=8))
    numbers = pairing_numbers(Event(event.settings, (*event.players, *late)))
    # The file's order stays; each goes after the last of the file's players rated above it: 2100 first,
    # 1650 after November (1700), above the unrated Oscar the file put there.
    assert sorted(numbers, key=numbers.get) == ["p8", "1", "2", "3", "4", "p7", "5", "6"]


def test_an_event_made_here_is_exported_with_its_pairing_numbers_as_start_ranks():
    """Registered in another order than the rule's: the TRF must number them as they were paired, or a
    checking program reads every round as wrong (tests/data/dutch/own/exp*: bbpPairings -c, exit 0)."""
    players = (Player("p1", "Zeta", rating=1500, number=1), Player("p2", "Alpha", rating=2400, number=2))
    event = Event(settings_for_preset("chess"), players)
    assert trf.start_ranks(event) == pairing_numbers(event) == {"p2": 1, "p1": 2}


def test_baku_acceleration_pairs_group_a_apart_in_round_one():
    histories = {str(k): () for k in range(1, 9)}
    plain = pair_dutch(_input(histories, rounds=9))
    fast = pair_dutch(_input(histories, rounds=9, baku=True))
    assert {frozenset((p.a, p.b)) for p in plain.pairs} == {frozenset(x) for x in ("15", "26", "37", "48")}
    assert {frozenset((p.a, p.b)) for p in fast.pairs} == {frozenset(x) for x in ("13", "24", "57", "68")}


# ------------------------------------------------------------------ the event's choice


def _chess_event(**settings) -> Event:
    players = tuple(Player(str(k), f"Player {k}", rating=2500 - 10 * k) for k in range(1, 7))
    one = Round(1, (Match("1", "4", (1, 0, 0)), Match("5", "2", (0, 1, 0)), Match("3", "6", (1, 0, 0))))
    return Event(settings_for_preset("chess", **settings), players, (one,))


def test_the_chess_preset_pairs_by_the_dutch_system_and_others_as_before():
    inp = pairing.from_event(_chess_event(trf_header=("XXC white1",)))
    assert isinstance(inp, DutchInput)
    result = pairing.pair(inp)
    assert result.method == "dutch"
    assert {frozenset((p.a, p.b)) for p in result.pairs} == {frozenset(x) for x in ("12", "34", "56")}
    optimal = pairing.from_event(_chess_event(pairing="optimal"))
    assert isinstance(optimal, pairing.PairingInput) and optimal.method == "swiss"
    mtg = Event(settings_for_preset("mtg"), _chess_event().players)
    assert isinstance(pairing.from_event(mtg), pairing.PairingInput)


def test_the_pairing_key_round_trips_and_is_written_only_when_not_the_presets_own():
    chess = eventfile.dump(_chess_event())
    assert "pairing" not in chess and "acceleration" not in chess
    assert eventfile.parse(chess).settings.pairing_system == "dutch"
    chosen = eventfile.dump(_chess_event(pairing="optimal", acceleration="baku"))
    assert chosen["pairing"] == "optimal" and chosen["acceleration"] == "baku"
    back = eventfile.parse(chosen).settings
    assert back.pairing_system == "optimal" and back.acceleration == "baku"
    mtg = eventfile.dump(Event(settings_for_preset("mtg", pairing="dutch")))
    assert eventfile.parse(mtg).settings.pairing_system == "dutch"
    with pytest.raises(eventfile.EventFileError) as e:
        eventfile.parse({**chess, "pairing": "monrad"})
    assert e.value.path == "pairing"


def test_an_impossible_round_is_refused_with_a_message():
    histories = {"1": _games(("2", WHITE, "1")), "2": _games(("1", BLACK, "0"))}
    with pytest.raises(PairingError) as e:
        pair_dutch(_input(histories))
    assert e.value.args[0].code == "dutch_no_pairing"
