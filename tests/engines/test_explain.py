"""pairing.explain (docs/explanations.md): its API, worked examples of the Dutch system's causes, and
`swiss pair --explain` / `manage.py pair --explain` on both file formats. The facts of every reason are checked
against the history in test_explain_truth.py."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from io import StringIO
from pathlib import Path

from django.core.management import call_command

from pairing import pair
from pairing.dutch import BLACK, WHITE, DutchInput, DutchPlayer, Game
from pairing.event import dutch_from_event, from_event, requested_byes
from pairing.explain import Explanation, Group, explain, reason_json
from pairing.tools.main import main
from pairing.types import Entrant, PairingInput
from standings import points_by_player
from swiss import eventfile, trf
from tests.engines.test_explain_truth import check_dutch, check_optimal

DATA = Path(__file__).parents[1] / "data"
TRF = sorted((DATA / "dutch").glob("t0*.trf"))[0]
CARDS = DATA / "seed002-hyogo.json"


def _games(*entries):
    """(opponent, colour, points) per round; opponent None: a pairing-allocated bye."""
    return tuple(
        Game(Fraction(p), o, c, played=o is not None, pairing_bye=o is None and Fraction(p) == 1) for o, c, p in entries
    )


def _dutch(histories: dict[str, tuple[Game, ...]], rounds: int = 5, **kw) -> DutchInput:
    players = tuple(DutchPlayer(pid, int(pid), h) for pid, h in histories.items())
    return DutchInput(len(next(iter(histories.values()))) + 1, rounds, players, frozenset(histories), **kw)


def codes(ex: Explanation, pid: str) -> list[tuple[str, str]]:
    return [(m.code, m.params.get("cause", "")) for m in ex.players[pid]]


def test_round_one_every_player_has_a_group_and_a_colour_by_lot_or_the_initial_colour():
    inp = _dutch({str(k): () for k in range(1, 6)}, initial_colour=BLACK, initial_by_lot=True)
    result = pair(inp)
    ex = explain(inp, result)
    assert set(ex.players) == {str(k) for k in range(1, 6)}
    assert codes(ex, "5") == [("score_group", ""), ("bye", "lowest_without_bye")]
    one = ex.players["1"]
    assert [m.code for m in one] == ["score_group", "colour"]
    colour = reason_json(one[1])
    assert colour["cause"] == "lot" and colour["colour"] == "black" and colour["initial"] == "black"
    assert colour["text"].startswith("Black: no preference on either side: the initial colour drawn by lot")
    assert check_dutch(inp, result, ex.players) == 10


def test_a_player_alone_in_the_top_group_floats_down_and_one_who_has_met_everyone_left_for_no_opponent():
    histories = {
        "1": _games(("2", WHITE, "0"), ("3", BLACK, "1")),
        "2": _games(("1", BLACK, "1"), ("4", WHITE, "1")),
        "3": _games(("4", WHITE, "1"), ("1", WHITE, "0")),
        "4": _games(("3", BLACK, "0"), ("2", BLACK, "0")),
    }
    inp = _dutch(histories)
    result = pair(inp)
    ex = explain(inp, result)
    scores = {pid: reason_json(ex.players[pid][0])["score"] for pid in histories}
    assert scores == {"1": "1", "2": "2", "3": "1", "4": "0"}
    down = reason_json(ex.players["2"][1])
    assert down["code"] == "float_down" and down["cause"] == "odd_group" and down["size"] == 1
    assert "alone" in down["text"]
    check_dutch(inp, result, ex.players)
    # Two on top who have met: the group's most pairs is none, both go down, neither could play the other.
    histories = {
        "1": _games(("2", WHITE, "0.5"), ("3", BLACK, "1")),
        "2": _games(("1", BLACK, "0.5"), ("4", WHITE, "1")),
        "3": _games(("4", WHITE, "0.5"), ("1", WHITE, "0")),
        "4": _games(("3", BLACK, "0.5"), ("2", BLACK, "0")),
    }
    inp = _dutch(histories)
    result = pair(inp)
    ex = explain(inp, result)
    assert ("float_down", "no_opponent") in codes(ex, "1") and ("float_down", "no_opponent") in codes(ex, "2")
    assert ("float_up", "no_opponent") in codes(ex, "3") and ("float_up", "no_opponent") in codes(ex, "4")
    top = ex.groups[0]
    assert isinstance(top, Group) and top.score == "1.5" and top.pairs == () and set(top.floated) == {"1", "2"}
    assert [n.code for n in top.notes] == ["note_group", "note_most_pairs"]
    assert check_dutch(inp, result, ex.players) >= 12


def test_the_optimal_engine_explains_floats_byes_and_rematches_by_its_order_of_costs():
    # Three players who have all met: one rematch is unavoidable, and the bye goes to the lowest ranked.
    a = Entrant("a", "Ann", Fraction(6), 1, 0, frozenset("bc"))
    b = Entrant("b", "Bo", Fraction(3), 2, 0, frozenset("ac"))
    c = Entrant("c", "Cy", Fraction(0), 3, 0, frozenset("ab"))
    inp = PairingInput(3, (a, b, c), seed=1)
    result = pair(inp)
    ex = explain(inp, result)
    assert ("bye", "lowest_without_bye") in codes(ex, "c")
    rematch = [m for m in ex.players["a"] if m.code == "rematch"][0]
    assert rematch.params["reason"].code == "reason_played_everyone"
    assert ("float_down", "odd_group") in codes(ex, "a") and ("float_up", "odd_group") in codes(ex, "b")
    assert check_optimal(inp, result, ex.players) >= 6
    as_dict = ex.as_dict()
    assert json.loads(json.dumps(as_dict)) == as_dict
    assert as_dict["players"]["c"][1]["params"]["because"]["code"] == "why_bye_lowest"
    assert [g["score"] for g in as_dict["groups"]] == ["6", "3", "0"]


def test_a_pre_awarded_bye_is_requested_and_a_foreign_pairing_is_refused():
    a, b, c = (Entrant(x, x.upper(), Fraction(0), 1) for x in "abc")
    inp = PairingInput(1, (a, b), awarded_byes=(c,), seed=2)
    result = pair(inp)
    ex = explain(inp, result)
    assert codes(ex, "c") == [("bye", "requested")]
    other = pair(PairingInput(1, (a, c), seed=2))
    try:
        explain(inp, other)
    except ValueError as e:
        assert "not of this input" in str(e)
    else:
        raise AssertionError("a pairing of other players was explained")


def test_swiss_pair_explain_json_on_a_trf_gives_every_row_its_reasons():
    out = StringIO()
    assert main(["pair", str(TRF), "--explain", "--format", "json", "--seed", "1"], out=out) == 0
    doc = json.loads(out.getvalue())
    event = trf.loads(TRF.read_text(), points_by_player)
    inp = dutch_from_event(event)
    ex = explain(inp, pair(inp), names={p.id: p.name for p in event.players})
    for row in doc["pairings"]:
        ids = [x for x in (row["a"], row["b"]) if x is not None]
        assert set(row["why"]) == set(ids)
        for pid in ids:
            assert row["why"][pid] and row["why"][pid][0]["code"] == "score_group"
            assert row["why"][pid] == [reason_json(m) for m in ex.players[pid]]
    assert all("text" in r for row in doc["pairings"] for rs in row["why"].values() for r in rs)


def test_swiss_pair_explain_text_on_a_swiss_event_file_writes_a_line_per_player():
    out = StringIO()
    assert main(["pair", str(CARDS), "--explain", "--seed", "3"], out=out) == 0
    lines = out.getvalue().splitlines()
    why = [line for line in lines if line.strip().startswith("why ")]
    tables = [line for line in lines if line[:5].strip().isdigit()]
    assert len(why) == 2 * len(tables) and all("Score group" in line for line in why)
    # Without --explain, the table alone, as before.
    plain = StringIO()
    main(["pair", str(CARDS), "--seed", "3"], out=plain)
    assert [line for line in plain.getvalue().splitlines() if "why " in line] == []


def test_manage_py_pair_explain_in_both_formats():
    out = StringIO()
    call_command("pair", str(CARDS), "--explain", "--format", "json", "--seed", "3", stdout=out)
    doc = json.loads(out.getvalue())
    assert all(row["why"] for row in doc["pairings"])
    assert {r["code"] for row in doc["pairings"] for rs in row["why"].values() for r in rs} >= {"score_group"}
    out = StringIO()
    call_command("pair", str(TRF), "--explain", "--seed", "3", stdout=out)
    text = out.getvalue()
    assert "why " in text and ("White:" in text or "Black:" in text)


def test_colours_flipped_by_hand_get_no_colour_reason_and_names_change_only_the_sentences():
    event = trf.loads(TRF.read_text(), points_by_player)
    inp = dutch_from_event(event, 3)
    result = pair(inp)
    first = result.pairs[0]
    flipped = replace(result, pairs=(replace(first, a=first.b, b=first.a), *result.pairs[1:]))
    ex = explain(inp, flipped)
    for pid in (first.a, first.b):
        assert "colour" not in [m.code for m in ex.players[pid]]
    others = [p for g in result.pairs[1:] for p in (g.a, g.b)]
    assert all("colour" in [m.code for m in ex.players[pid]] for pid in others)
    named = explain(inp, result, names={p.id: p.name for p in event.players})
    plain = explain(inp, result)

    def facts(m):
        return {k: v for k, v in reason_json(m).items() if not k.endswith("_name") and k not in ("text", "player")}

    assert named.players.keys() == plain.players.keys()
    for pid, messages in plain.players.items():
        assert [facts(m) for m in messages] == [facts(m) for m in named.players[pid]]
    assert any(
        str(a) != str(b) for pid in plain.players for a, b in zip(plain.players[pid], named.players[pid], strict=True)
    )


ASKED = {"A": "half_bye", "B": "zero_bye", "C": "full_bye"}


def _asked_file(tmp_path: Path) -> Path:
    """The card event with a half-point bye, an absence and a full-point bye asked for its next round."""
    doc = json.loads(CARDS.read_text())
    after = len(doc["rounds"]) + 1
    for p in doc["players"]:
        if p["id"] in ASKED:
            p["requested_byes"] = [{"round": after, "result": ASKED[p["id"]]}]
    path = tmp_path / "asked.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_player_who_asked_for_a_bye_gets_it_as_their_reason_in_the_json(tmp_path):
    path = _asked_file(tmp_path)
    out = StringIO()
    assert main(["pair", str(path), "--explain", "--format", "json", "--seed", "3"], out=out) == 0
    doc = json.loads(out.getvalue())
    asked = {row["a"]: row for row in doc["pairings"] if "result" in row}
    assert {pid: row["result"] for pid, row in asked.items()} == ASKED
    words = {"half_bye": "a half-point", "zero_bye": "a zero-point", "full_bye": "a full-point"}
    for pid, row in asked.items():
        ((reason,),) = row["why"].values()
        assert set(row["why"]) == {pid}
        assert {k: reason[k] for k in ("code", "cause", "kind")} == {
            "code": "bye",
            "cause": "requested",
            "kind": ASKED[pid],
        }
        assert reason["text"].startswith(f"Bye: asked for {words[ASKED[pid]]} bye in this round")
    # Every row, paired or asked, has its reasons, and each is true: the asked ones are the event's own.
    assert all(row["why"] for row in doc["pairings"])
    event = eventfile.loads(path.read_text())
    inp = from_event(event, seed=3)
    assert isinstance(inp, PairingInput)
    requested = requested_byes(event, inp.round)
    assert requested == ASKED
    result = pair(inp)
    ex = explain(inp, result, asked=requested)
    assert check_optimal(inp, result, ex.players, requested) > len(ASKED)
    assert all(asked[pid]["why"][pid] == [reason_json(m) for m in ex.players[pid]] for pid in ASKED)


def test_the_text_writes_the_asked_bye_under_its_line(tmp_path):
    out = StringIO()
    assert main(["pair", str(_asked_file(tmp_path)), "--explain", "--seed", "3"], out=out) == 0
    lines = out.getvalue().splitlines()
    k = next(i for i, line in enumerate(lines) if "half-point bye (requested)" in line)
    assert lines[k + 1].strip() == "why Player A: Bye: asked for a half-point bye in this round."


def test_explain_refuses_an_asked_bye_for_a_paired_player_or_of_an_unknown_kind():
    inp = _dutch({str(k): () for k in range(1, 5)})
    result = pair(inp)
    ex = explain(inp, result, asked={"9": "zero_bye"})
    assert codes(ex, "9") == [("bye", "requested")] and ex.players["9"][0].params["kind"] == "zero_bye"
    assert str(ex.players["9"][0]) == "Bye: asked for a zero-point bye in this round: absent."
    assert explain(inp, result).players.keys() == {"1", "2", "3", "4"}  # without `asked`, as before
    for asked, words in (({"1": "half_bye"}, "pairs them"), ({"9": "forfeit"}, "not a bye a player may ask for")):
        try:
            explain(inp, result, asked=asked)
        except ValueError as e:
            assert words in str(e)
        else:
            raise AssertionError(f"{asked} was explained")
