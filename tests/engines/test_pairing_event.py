"""Pairing from an event file: eligibility, byes, drops, late entries, refusals, the `pair` command,
the top cut, recommended rounds and swaps by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import pairing
from pairing import PairingError
from swiss import eventfile as ef
from swiss.model import BYE, DOUBLE_LOSS, ELIMINATION, LOSS, Event, Match, Player, Round, settings_for_preset
from tests.conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]


def event(players, rounds=(), **settings) -> Event:
    return Event(
        settings=settings_for_preset(settings.pop("preset", "mtg"), **settings),
        players=tuple(p if isinstance(p, Player) else Player(id=p, name=p.upper()) for p in players),
        rounds=tuple(Round(number=k, matches=tuple(_match(m) for m in matches)) for k, matches in enumerate(rounds, 1)),
    )


def _match(m) -> Match:
    if isinstance(m, Match):
        return m
    if m[1] is None:
        return Match(m[0], None, result=BYE)
    return Match(*m)


def ids(result) -> list[str]:
    """Every player the pairing places, once per seat."""
    return sorted([x for p in result.pairs for x in (p.a, p.b)] + list(result.byes))


W, L, D = (2, 0, 0), (0, 2, 0), (1, 1, 1)


# ------------------------------------------------------------------ from_event


def test_points_byes_opponents_and_colours_from_results():
    e = event(
        "abcde",
        [
            [("a", "b", W), ("c", "d", D), ("e", None)],
            [("b", "a", W), ("e", "c", L), Match("d", None, result=LOSS)],
        ],
    )
    inp = pairing.from_event(e)
    by = {x.id: x for x in inp.entrants}
    assert inp.round == 3
    assert by["a"].points == 3 and by["b"].points == 3
    assert by["c"].points == 4 and by["d"].points == 1 and by["e"].points == 3
    assert by["e"].byes == 1 and by["e"].opponents == {"c"}
    assert by["a"].opponents == {"b"} and by["a"].colours == "WB"
    assert by["c"].rank == 1 and by["d"].rank == 5


def test_double_loss_makes_opponents_with_no_points():
    e = event("abcd", [[Match("a", "b", result=DOUBLE_LOSS), ("c", "d", W)]])
    by = {x.id: x for x in pairing.from_event(e).entrants}
    assert by["a"].opponents == {"b"} and by["a"].points == 0 and by["b"].points == 0


def test_drops_late_entries_and_pre_awarded_byes():
    players = [
        Player("a", "A"),
        Player("b", "B"),
        Player("c", "C", dropped_after=1),
        Player("d", "D"),
        Player("late", "Late", joined_round=3),
        Player("later", "Later", joined_round=4),
        Player("seeded", "Seeded", byes=2),
    ]
    e = event(players, [[("a", "b", W), ("c", "d", W), ("seeded", None)]])
    inp = pairing.from_event(e)
    assert inp.round == 2
    assert sorted(x.id for x in inp.entrants) == ["a", "b", "d"]
    assert [x.id for x in inp.awarded_byes] == ["seeded"]
    result = pairing.pair(inp)
    assert ids(result) == ["a", "b", "d", "seeded"]
    assert result.awarded_byes == ("seeded",)
    assert "seeded" in result.byes and len(result.byes) == 2
    # Round 3: the late entrant joins, the seeded player plays, the dropped player stays out.
    r3 = pairing.from_event(e, 3)
    assert sorted(x.id for x in r3.entrants) == ["a", "b", "d", "late", "seeded"]
    seeded = next(x for x in r3.entrants if x.id == "seeded")
    assert seeded.byes == 2 and seeded.points == 6  # round 2's pre-awarded bye counts though unlisted


def test_everyone_eligible_paired_exactly_once_through_a_whole_event():
    import random

    rng = random.Random(5)
    players = [Player(f"p{k}", f"P{k}", byes=1 if k < 2 else 0, joined_round=3 if k == 20 else 1) for k in range(21)]
    e = event(players)
    for number in range(1, 8):
        if number == 4:
            players[5] = Player("p5", "P5", dropped_after=3)
            e = Event(e.settings, tuple(players), e.rounds)
        inp = pairing.from_event(e, seed=number)
        result = pairing.pair(inp)
        to_pair, awarded = pairing.eligible(e, number)
        assert ids(result) == sorted(to_pair + awarded)
        assert result.rematches == 0 and result.second_byes == 0
        matches = [Match(p.a, p.b, rng.choice((W, L, D)), table=p.table) for p in result.pairs]
        matches += [Match(b, result=BYE) for b in result.byes]
        e = Event(e.settings, e.players, (*e.rounds, Round(number, tuple(matches))))


def test_outstanding_results_refuse_with_the_tables():
    e = event("abcd", [[Match("a", "b", table=1), Match("c", "d", W, table=2)]])
    with pytest.raises(PairingError, match=r"round 1 still has 1 result outstanding \(table 1: A v B\)"):
        pairing.from_event(e)


def test_a_round_without_results_can_be_paired_again():
    e = event("abcd", [[("a", "b", W), ("c", "d", W)], [Match("a", "c"), Match("b", "d")]])
    inp = pairing.from_event(e, 2)
    assert inp.round == 2 and {x.id: x.points for x in inp.entrants}["a"] == 3


def test_round_one_by_rating_from_the_event_setting():
    players = [Player(f"p{k}", f"P{k}", rating=1000 + 100 * k) for k in range(6)]
    inp = pairing.from_event(event(players, round_one="rating"))
    result = pairing.pair(inp)
    assert {(p.a, p.b) for p in result.pairs} == {("p5", "p2"), ("p4", "p1"), ("p3", "p0")}


def test_examples_pair_without_rematches():
    for path in sorted(EXAMPLES.glob("seed00*.json")):
        if path.name.endswith(".expected.json"):
            continue
        e = ef.loads(path.read_bytes())
        result = pairing.pair(pairing.from_event(e, seed=1))
        assert result.rematches == 0
        to_pair, awarded = pairing.eligible(e, result.round)
        assert ids(result) == sorted(to_pair + awarded)


# ------------------------------------------------------------------ the command


def run(*args) -> str:
    out = StringIO()
    call_command("pair", *args, stdout=out)
    return out.getvalue()


def write(tmp_path, e: Event) -> str:
    path = tmp_path / "event.json"
    path.write_text(ef.dumps(e))
    return str(path)


def test_command_json_lists_tables_then_byes(tmp_path):
    players = [Player(f"p{k}", f"P{k}", byes=1 if k == 0 else 0) for k in range(6)]
    path = write(tmp_path, event(players))
    doc = json.loads(run(path, "--seed", "3", "--format", "json"))
    assert doc["round"] == 1 and doc["seed"] == 3 and doc["warnings"] == []
    tables = [row for row in doc["pairings"] if row["b"] is not None]
    byes = [row for row in doc["pairings"] if row["b"] is None]
    assert [row["table"] for row in tables] == [1, 2]
    assert {row["a"] for row in byes} == {"p0"} | (
        {"p1", "p2", "p3", "p4", "p5"} - {x for r in tables for x in (r["a"], r["b"])}
    )
    assert all(row["table"] is None for row in byes)


def test_command_is_reproducible_from_the_printed_seed(tmp_path):
    path = write(tmp_path, event([f"p{k}" for k in range(30)]))
    first = json.loads(run(path, "--format", "json"))
    again = json.loads(run(path, "--format", "json", "--seed", str(first["seed"])))
    assert again == first
    # And across processes (no dependence on hash order).
    other = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "pair", path, "--format", "json", "--seed", str(first["seed"])],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(other.stdout) == first


def test_command_text_shows_points_floats_and_warnings(tmp_path):
    e = event("abc", [[("a", "b", W), ("c", None)], [("a", "c", W), ("b", None)], [("b", "c", W), ("a", None)]])
    text = run(write(tmp_path, e), "--seed", "1")
    assert "Round 4" in text and "seed 1" in text
    assert "vs" in text and "bye" in text
    assert "Warnings:" in text and "Rematch at table 1" in text and "bye again" in text


def test_command_refuses_a_malformed_file_naming_the_place(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": 3}]}')
    with pytest.raises(CommandError, match=r"players\[0\]\.name") as info:
        run(str(path))
    assert info.value.returncode == 2
    with pytest.raises(CommandError, match="cannot read file") as info:
        run(str(tmp_path / "missing.json"))
    assert info.value.returncode == 2


def test_command_refuses_outstanding_results(tmp_path):
    path = write(tmp_path, event("ab", [[Match("a", "b", table=1)]]))
    with pytest.raises(CommandError, match="outstanding") as info:
        run(path)
    assert info.value.returncode == 2


def test_command_does_not_touch_the_database(tmp_path):
    # No django_db mark: pytest-django makes any query raise.
    path = write(tmp_path, event("abcd"))
    assert len(json.loads(run(path, "--format", "json"))["pairings"]) == 2


def test_command_pairs_the_next_bracket_round(tmp_path):
    players = "abcdefgh"
    swiss = [[(players[k], players[k + 1], W) for k in range(0, 8, 2)]]
    top = Round(
        2,
        (
            Match("a", "h", W, table=1),
            Match("d", "e", L, table=2),
            Match("b", "g", W, table=3),
            Match("c", "f", L, table=4),
        ),
        kind=ELIMINATION,
    )
    e = event(players, swiss)
    e = Event(e.settings, e.players, (*e.rounds, top))
    doc = json.loads(run(write(tmp_path, e), "--format", "json", "--seed", "0"))
    assert doc["round"] == 3
    assert doc["pairings"] == [{"table": 1, "a": "a", "b": "e"}, {"table": 2, "a": "b", "b": "f"}]


# ------------------------------------------------------------------ top cut


def test_bracket_seeding():
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert pairing.bracket(list(range(1, 5))) == [(1, 4), (2, 3)]
    assert [(p.table, p.a, p.b) for p in pairing.top_cut_pairings(list("abcdefghij"), 8)] == [
        (1, "a", "h"),
        (2, "d", "e"),
        (3, "b", "g"),
        (4, "c", "f"),
    ]
    with pytest.raises(PairingError, match="2, 4, 8"):
        pairing.bracket_order(6)


def test_later_rounds_follow_the_bracket_and_placings():
    seeds = list("abcdefgh")
    qf = pairing.top_cut_pairings(seeds, 8)
    sf = pairing.next_bracket_round([(p.a, p.b) for p in qf], {"a", "e", "g", "c"})
    assert [(p.a, p.b) for p in sf] == [("a", "e"), ("g", "c")]
    final = pairing.next_bracket_round([(p.a, p.b) for p in sf], {"e", "c"})
    assert [(p.a, p.b) for p in final] == [("e", "c")]
    rounds = [
        [("a", "h", "a"), ("d", "e", "e"), ("b", "g", "g"), ("c", "f", "c")],
        [("a", "e", "e"), ("g", "c", "c")],
        [("e", "c", "c")],
    ]
    assert pairing.final_placings(seeds, rounds) == ("c", "e", "a", "g", "b", "d", "f", "h")
    with pytest.raises(PairingError, match="exactly one winner"):
        pairing.next_bracket_round([("a", "h"), ("d", "e")], {"a"})


# ------------------------------------------------------------------ recommended rounds


@pytest.mark.parametrize(
    ("players", "byes", "preset", "rounds", "cut"),
    [
        (50, [3, 3, 3, 3], "chess", 7, 0),  # four 3-round byes: 50 + 4 × 7 = 78 → 7 rounds
        (16, [], "chess", 4, 0),
        (17, [], "backgammon", 5, 0),
        (9, [], "mtg", 5, 4),
        (16, [], "mtg", 5, 4),
        (17, [], "mtg", 5, 8),
        (33, [], "mtg", 6, 8),
        (100, [], "mtg", 7, 8),
        (226, [], "mtg", 8, 8),
        (227, [], "mtg", 9, 8),
        (409, [], "mtg", 9, 8),
        (410, [], "mtg", 10, 8),
        (31, [1], "mtg", 5, 8),  # a 1-round bye counts as 2 players: 32
        (31, [2], "mtg", 6, 8),  # a 2-round bye counts as 4 players: 34
    ],
)
def test_recommended_rounds(players, byes, preset, rounds, cut):
    rec = pairing.recommended_rounds(players, byes, preset)
    assert (rec.rounds, rec.top_cut) == (rounds, cut)
    assert str(players) in rec.explanation


def test_small_mtg_events_are_single_elimination():
    rec = pairing.recommended_rounds(6, [], "mtg")
    assert rec.single_elimination and rec.rounds == 0 and rec.top_cut == 8
    assert "single elimination" in rec.explanation


# ------------------------------------------------------------------ swaps


def test_swap_reports_the_rematch_it_creates():
    e = event("abcd", [[("a", "b", W), ("c", "d", W)], [("a", "c", W), ("b", "d", W)]])
    inp = pairing.from_event(e, seed=1)
    result = pairing.pair(inp)
    assert {frozenset((p.a, p.b)) for p in result.pairs} == {frozenset("ad"), frozenset("bc")}
    problems = pairing.validate_swap(inp, result, "d", "c")
    assert len(problems) == 2 and all("have already played (table" in w for w in problems)
    assert any("A and C" in w for w in problems) and any("B" in w and "D" in w for w in problems)
    swapped = pairing.swap(inp, result, "d", "c")
    assert swapped.rematches == 2
    assert all("swapped by hand" in w for w in swapped.warnings)
    assert ids(swapped) == ids(result)
    assert pairing.validate_swap(inp, result, "a", "d") == ()


def test_swap_into_the_bye_reports_a_second_bye():
    e = event("abc", [[("a", "b", W), ("c", None)]])
    inp = pairing.from_event(e, seed=2)
    result = pairing.pair(inp)
    assert result.byes != ("c",)
    problems = pairing.validate_swap(inp, result, result.byes[0], "c")
    assert problems[-1] == "C would get a bye again, having had 1"
    assert len(problems) == 2 and "have already played" in problems[0]


def test_swap_refuses_pre_awarded_byes_and_strangers():
    players = [Player("a", "A", byes=1), Player("b", "B"), Player("c", "C")]
    inp = pairing.from_event(event(players), seed=0)
    result = pairing.pair(inp)
    with pytest.raises(PairingError, match="pre-awarded bye"):
        pairing.swap(inp, result, "a", "b")
    with pytest.raises(PairingError, match="not paired"):
        pairing.swap(inp, result, "zz", "b")


def test_points_may_be_fractions():
    e = event("abcd", [[("a", "b", D), ("c", "d", W)]], preset="chess", best_of=3)
    by = {x.id: x.points for x in pairing.entrants_from_event(e).entrants}
    assert by["a"] == Fraction(1, 2)


def test_command_seeds_the_top_cut_after_the_planned_rounds(tmp_path):
    players = "abcdefgh"
    swiss = [
        [(players[k], players[k + 1], W) for k in range(0, 8, 2)],
        [("a", "c", W), ("e", "g", W), ("b", "d", W), ("f", "h", W)],
    ]
    e = event(players, swiss, planned_rounds=2, top_cut=4)
    doc = json.loads(run(write(tmp_path, e), "--format", "json", "--seed", "0"))
    assert doc["round"] == 3
    top4 = [r.player_id for r in __import__("standings").compute(e).rows[:4]]
    assert [(r["a"], r["b"]) for r in doc["pairings"]] == [(top4[0], top4[3]), (top4[1], top4[2])]
