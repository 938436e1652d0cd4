"""Why two players are not paired together (pairing/explain/why_not.py, docs/explanations.md#why-not): each
answer on a history made for it, for the optimal engine and for the FIDE Dutch system."""

from __future__ import annotations

from fractions import Fraction

import pytest

import pairing
from pairing.dutch import BLACK, WHITE, DutchInput, DutchPlayer, Game
from pairing.explain import why_not
from pairing.types import Entrant, PairingError, PairingInput

W, B = WHITE, BLACK
ABSENT = (None, "", "0")


def entrant(pid: str, points: int = 0, rank: int = 1, **kw) -> Entrant:
    return Entrant(id=pid, points=Fraction(points), rank=rank, **kw)


def card(*entrants: Entrant, **kw) -> tuple[PairingInput, pairing.Pairing]:
    inp = PairingInput(round=3, entrants=entrants, seed=kw.pop("seed", 1), **kw)
    return inp, pairing.pair(inp)


def games(*entries: tuple[str | None, str, str]) -> tuple[Game, ...]:
    """(opponent, colour, result) a round: 1, =, 0 a game; + or - a forfeit; U the allocated bye."""
    points = {"1": 1, "=": Fraction(1, 2), "0": 0, "U": 1, "+": 1, "-": 0}
    return tuple(
        Game(Fraction(points[r]), o, c if r not in "+-" else "", o is not None and r not in "+-", r == "U")
        for o, c, r in entries
    )


def dutch(histories: dict[str, tuple[Game, ...]], rounds: int = 5, **kw) -> tuple[DutchInput, pairing.Pairing]:
    players = tuple(DutchPlayer(pid, int(pid), h) for pid, h in histories.items())
    present = kw.pop("present", frozenset(histories))
    inp = DutchInput(len(next(iter(histories.values()))) + 1, rounds, players, frozenset(present), **kw)
    return inp, pairing.pair(inp)


def pairs_of(result: pairing.Pairing) -> set[frozenset[str]]:
    return {frozenset((p.a, p.b)) for p in result.pairs}


def forced(answer) -> set[frozenset[str]]:
    return {frozenset((r["a"], r["b"])) for r in answer.params["pairings"] if r["b"] is not None}


# ------------------------------------------------------------------ the optimal engine


def test_card_paired_and_not_in_round():
    inp, result = card(entrant("p1"), entrant("p2"), entrant("p3"), awarded_byes=(entrant("p4"),))
    inp = PairingInput(round=3, entrants=inp.entrants[:2], awarded_byes=(entrant("p4"),), seed=1)
    result = pairing.pair(inp)
    answer = why_not(inp, result, "p1", "p2")
    assert (answer.code, answer.params["table"]) == ("paired", 1)
    answer = why_not(inp, result, "p1", "p4")
    assert answer.code == "not_in_round" and answer.params["player"] == "p4" and answer.params["round"] == 3
    assert why_not(inp, result, "zz", "p1").params["player"] == "zz"
    with pytest.raises(PairingError):
        why_not(inp, result, "p1", "p1")
    # A pairing of other players than the input's (a round changed since) is refused, not explained.
    other = pairing.Pairing(round=3, seed=1, pairs=(pairing.Pair(1, "p1", "p9"),))
    with pytest.raises(ValueError, match="not the round's") as refused:
        why_not(inp, other, "p1", "p2")
    assert refused.value.args[0].code == "why_not_other_players"


def test_card_a_rematch_is_a_cost_the_round_avoids():
    inp, result = card(
        entrant("p1", 3, opponents=frozenset({"p2"})),
        entrant("p2", 3, opponents=frozenset({"p1"})),
        entrant("p3", 3),
        entrant("p4", 3),
    )
    answer = why_not(inp, result, "p1", "p2")
    assert answer.code == "met_before" and answer.params["round"] is None  # who met is known, not when
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("rematches", 0, 1)
    assert forced(answer) == {frozenset(("p1", "p2")), frozenset(("p3", "p4"))}
    assert str(answer) == "p1 and p2 have played each other before (rematches: 0 in this round, 1 with the pair)"
    # When every pairing has a rematch anyway, theirs is no worse: a later rule answers.
    inp, result = card(
        entrant("p1", 3, opponents=frozenset({"p2", "p3"})),
        entrant("p2", 3, opponents=frozenset({"p1", "p3"})),
        entrant("p3", 3, opponents=frozenset({"p1", "p2"})),
        entrant("p4", 3),
    )
    assert result.rematches == 1
    with_p4 = next(g.a if g.b == "p4" else g.b for g in result.pairs if "p4" in (g.a, g.b))
    other = next(p for p in ("p1", "p2", "p3") if p != with_p4)
    answer = why_not(inp, result, with_p4, other)
    assert answer.code == "lot"


def test_card_other_group_and_the_spread_between_equal_players():
    inp, result = card(entrant("p1", 6, 1), entrant("p2", 3, 2), entrant("p3", 3, 2), entrant("p4", 0, 4))
    assert pairs_of(result) in (
        {frozenset(("p1", "p2")), frozenset(("p3", "p4"))},
        {frozenset(("p1", "p3")), frozenset(("p2", "p4"))},
    )
    # Two players on 3 paired together push 6 against 0: 36 against 18.
    answer = why_not(inp, result, "p2", "p3")
    assert answer.code == "worse"
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("spread", "18", "36")
    inp, result = card(entrant("p1", 3, 1), entrant("p2", 3, 1), entrant("p3", 0, 3), entrant("p4", 0, 3))
    answer = why_not(inp, result, "p1", "p3")
    assert answer.code == "other_group"
    assert (answer.params["score_a"], answer.params["score_b"]) == ("3", "0")
    # Half points only among the two asked about: the rest is paired in the whole field's unit.
    half = PairingInput(
        round=3,
        entrants=(
            Entrant("p1", points=Fraction(3, 2), rank=1),
            Entrant("p2", points=Fraction(1, 2), rank=4),
            entrant("p3", 1, 2),
            entrant("p4", 1, 2),
            entrant("p5", 0, 5),
        ),
        seed=1,
    )
    result = pairing.pair(half)
    assert pairs_of(result) == {frozenset(("p1", "p3")), frozenset(("p2", "p4"))} and result.byes == ("p5",)
    answer = why_not(half, result, "p1", "p2")  # 1 against 0.25 + 0.25: other_group only where the spread loses
    assert (answer.code, answer.params["score_a"], answer.params["score_b"]) == ("other_group", "1.5", "0.5")


def test_card_bye_second_bye_and_bye_rank():
    # p3 alone has had no bye: giving it to another is a second bye.
    inp, result = card(entrant("p1", byes=1), entrant("p2", byes=1), entrant("p3", 0, 1))
    assert result.byes == ("p3",)
    answer = why_not(inp, result, "p3", "p1")
    assert answer.code == "bye" and answer.params["player"] == "p3"
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("second_byes", 0, 1)
    # All equal: the bye goes to the lowest-ranked player, none below it.
    inp, result = card(entrant("p1", 0, 1), entrant("p2", 0, 2), entrant("p3", 0, 3))
    assert result.byes == ("p3",)
    answer = why_not(inp, result, "p3", "p1")
    assert answer.code == "bye"
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("bye_rank", 0, 1)
    assert {"table": None, "a": "p2", "b": None} in answer.params["pairings"]


def test_card_colour_trouble_then_the_lot():
    inp, result = card(
        entrant("p1", colours="WW"),
        entrant("p2", colours="WW"),
        entrant("p3", colours="BB"),
        entrant("p4", colours="BB"),
        colours=True,
    )
    answer = why_not(inp, result, "p1", "p2")
    assert answer.code == "worse" and answer.params["rule"] == "colour"
    assert answer.params["this_round"] < answer.params["with_pair"]
    inp, result = card(entrant("p1"), entrant("p2"), entrant("p3"), entrant("p4"))
    mate = next(p.b if p.a == "p1" else p.a for p in result.pairs if "p1" in (p.a, p.b))
    other = next(p for p in ("p2", "p3", "p4") if p != mate)
    answer = why_not(inp, result, "p1", other)
    assert answer.code == "lot" and answer.params["seed"] == 1
    assert frozenset(("p1", other)) in forced(answer)


def test_card_round_one_by_rating():
    inp = PairingInput(
        round=1,
        entrants=tuple(Entrant(f"p{k}", rating=2000 - k, rank=1) for k in range(1, 5)),
        method="rating",
    )
    result = pairing.pair(inp)
    answer = why_not(inp, result, "p1", "p2")
    assert answer.code == "by_rating"
    assert (answer.params["place_a"], answer.params["place_b"], answer.params["count"]) == (1, 2, 4)


# ------------------------------------------------------------------ the FIDE Dutch system

ROUND_ONE_DONE = {
    "1": games(("4", W, "1")),
    "2": games(("5", B, "1")),
    "3": games(("6", W, "1")),
    "4": games(("1", B, "0")),
    "5": games(("2", W, "0")),
    "6": games(("3", B, "0")),
}


def test_dutch_paired_met_before_and_not_in_round():
    inp, result = dutch(ROUND_ONE_DONE)
    assert pairs_of(result) == {frozenset("12"), frozenset("34"), frozenset("56")}
    assert why_not(inp, result, "1", "2").code == "paired"
    answer = why_not(inp, result, "1", "4")
    assert (answer.code, answer.params["round"]) == ("met_before", 1)
    assert str(answer) == "1 and 4 played each other in round 1"
    inp, result = dutch(ROUND_ONE_DONE, present=frozenset("12345"), awarded_byes=("6",))
    assert why_not(inp, result, "1", "6").params["player"] == "6"


def test_dutch_a_forfeit_is_not_a_game_played():
    histories = {
        "1": games(("2", W, "+")),
        "2": games(("1", B, "-")),
        "3": games(("4", W, "1")),
        "4": games(("3", B, "0")),
    }
    inp, result = dutch(histories)
    answer = why_not(inp, result, "1", "2")
    assert answer.code != "met_before"


def test_dutch_colour_clash_but_not_for_topscorers_in_the_last_round():
    histories = {
        "1": games(("3", W, "1"), ("4", W, "1")),
        "2": games(("5", W, "1"), ("6", W, "1")),
        "3": games(("1", B, "0"), ("5", W, "1")),
        "4": games(("6", W, "1"), ("1", B, "0")),
        "5": games(("2", B, "0"), ("3", B, "0")),
        "6": games(("4", B, "0"), ("2", B, "0")),
    }
    inp, result = dutch(histories, rounds=5)
    answer = why_not(inp, result, "1", "2")
    assert (answer.code, answer.params["colour"]) == ("colour_clash", "black")
    inp, result = dutch(histories, rounds=3)
    assert why_not(inp, result, "1", "2").code == "paired"
    # 5 and 6 (both Black twice, no points) are no topscorers: the rule holds for them in the last round too.
    answer = why_not(inp, result, "5", "6")
    assert (answer.code, answer.params["colour"]) == ("colour_clash", "white")


def test_dutch_worse_by_colours_and_the_order_of_transpositions():
    inp, result = dutch(ROUND_ONE_DONE)
    # 1 and 3 both prefer Black: one of them goes without it.
    answer = why_not(inp, result, "1", "3")
    assert answer.code == "worse"
    assert (answer.params["rule"], answer.params["bracket"]) == ("C.12", "1")
    assert (answer.params["this_round"], answer.params["with_pair"]) == (0, 1)
    assert frozenset("13") in forced(answer)
    # 1 against 5: 1 floats down instead of 3, which no criterion tells apart; 3 is the one the order floats.
    answer = why_not(inp, result, "1", "5")
    assert answer.code == "dutch_order"
    assert (answer.params["bracket"], answer.params["this_round"], answer.params["with_pair"]) == ("1", "1-2", "2-3")


def test_dutch_other_group_and_no_completion():
    histories = {
        "1": games(("4", W, "1"), ("5", B, "1"), ("6", W, "0")),
        "2": games(("5", B, "="), ("6", W, "0"), ("4", B, "1")),
        "3": games(("6", W, "1"), ABSENT, ("5", B, "0")),
        "4": games(("1", B, "0"), ABSENT, ("2", W, "0")),
        "5": games(("2", W, "="), ("1", W, "0"), ("3", W, "1")),
        "6": games(("3", B, "0"), ("2", B, "1"), ("1", B, "1")),
    }
    inp, result = dutch(histories)
    assert pairs_of(result) == {frozenset("12"), frozenset("56"), frozenset("34")}
    # Only 3 and 4 may meet among 3, 4, 5, 6 with 1 and 2: with 1 against 3, nobody is left for 4.
    answer = why_not(inp, result, "1", "3")
    assert (answer.code, answer.params["rule"]) == ("no_completion", "C.4")
    inp, result = dutch(ROUND_ONE_DONE)
    answer = why_not(inp, result, "2", "6")
    assert answer.code == "worse"  # a float would be needed: 2 and 6 are not apart by their groups alone
    four = {"1": games(("3", W, "1")), "2": games(("4", B, "1")), "3": games(("1", B, "0")), "4": games(("2", W, "0"))}
    inp, result = dutch(four)
    answer = why_not(inp, result, "1", "4")
    assert answer.code == "other_group"
    assert (answer.params["score_a"], answer.params["score_b"]) == ("1", "0")


def test_dutch_the_bye_goes_to_the_lowest_score():
    histories = {
        "1": games(("3", W, "1")),
        "2": games(("4", B, "1")),
        "3": games(("1", B, "0")),
        "4": games(("2", W, "0")),
        "5": games((None, "", "U")),
    }
    inp, result = dutch(histories)
    bye = result.byes[0]
    assert bye in ("3", "4")
    other = "4" if bye == "3" else "3"
    answer = why_not(inp, result, bye, other)
    assert answer.code == "bye" and answer.params["player"] == bye
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("C.5", "0", "1")


def test_a_round_changed_by_hand_is_not_the_best_and_says_so():
    inp, result = card(entrant("p1", 3, 1), entrant("p2", 3, 1), entrant("p3", 0, 3), entrant("p4", 0, 3))
    assert pairs_of(result) == {frozenset(("p1", "p2")), frozenset(("p3", "p4"))}
    swapped = pairing.swap(inp, result, "p2", "p3")
    answer = why_not(inp, swapped, "p1", "p2")
    assert answer.code == "better_found"
    assert (answer.params["rule"], answer.params["this_round"], answer.params["with_pair"]) == ("spread", "18", "0")
    inp, result = dutch(ROUND_ONE_DONE)
    by_hand = pairing.Pairing(
        round=2, seed=0, pairs=(pairing.Pair(1, "1", "3"), pairing.Pair(2, "2", "4"), pairing.Pair(3, "5", "6"))
    )
    answer = why_not(inp, by_hand, "1", "2")  # 1 and 3 both prefer Black: pairing 1 with 2 is better by C.12
    assert (answer.code, answer.params["rule"], answer.params["bracket"]) == ("better_found", "C.12", "1")
