"""The explanation of a round is stored when the engine pairs it (both engines, pairing and re-pairing alike), by
player pk, and a change by hand replaces the engine's reasons of the players it moved with a true one."""

import pytest

from tests.web.public.test_public import ROUND_1, pair
from tournament.models import Round, RoundExplanation
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import flip_colours, pair_next_round, publish_round, repair_round, swap_players

pytestmark = pytest.mark.django_db


def codes(ex: RoundExplanation, pk: int) -> list[str]:
    return [r["code"] for r in ex.players[str(pk)]["reasons"]]


def test_the_optimal_engine_s_round_is_explained_for_every_player(event, organiser):
    rnd = pair_next_round(event, organiser)
    ex = rnd.explanation
    assert ex.method != "dutch"
    assert set(ex.players) == {str(pk) for pk in event.players.values_list("pk", flat=True)}
    for pk in event.players.values_list("pk", flat=True):
        entry = ex.players[str(pk)]
        assert entry["reasons"], pk
        group = ex.groups[entry["group"]]
        assert pk in group["residents"]  # a player's group holds them, by pk
    assert ex.groups and all(g["notes"] for g in ex.groups)
    assert sum(len(g["pairs"]) for g in ex.groups) == 4


def test_the_dutch_system_s_round_is_explained_and_a_re_pairing_explains_the_new_one(chess, organiser):
    first = pair_next_round(chess, organiser)
    assert first.explanation.method == "dutch"
    publish_round(first, organiser)
    for m in first.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (1, 0, 0)), organiser)
    second = pair_next_round(chess, organiser)
    ex = second.explanation
    for pk in chess.players.values_list("pk", flat=True):
        assert "score_group" in codes(ex, pk)
        assert "colour" in codes(ex, pk)
    again = repair_round(second, organiser)
    assert RoundExplanation.objects.filter(round__event=chess, round__number=2).get().round_id == again.pk


def test_a_swap_replaces_the_moved_players_reasons_and_leaves_the_others(event, organiser):
    rnd = pair_next_round(event, organiser)
    a, b = (m.player_a for m in rnd.matches.order_by("table")[:2])
    stay = rnd.matches.order_by("table")[2].player_a
    before = rnd.explanation.players[str(stay.pk)]
    swap_players(rnd, a, b, organiser)
    ex = RoundExplanation.objects.get(round=rnd)
    moved = {pk for m in rnd.matches.order_by("table")[:2] for pk in (m.player_a_id, m.player_b_id)}
    for pk in moved:
        assert codes(ex, pk) == ["paired_by_hand"] and ex.players[str(pk)]["group"] is None
        assert ex.players[str(pk)]["reasons"][0]["params"]["time"]
    assert ex.players[str(stay.pk)] == before
    # The groups keep only the engine's pairs that still stand, and name who was changed by hand.
    standing = {frozenset(p) for g in ex.groups for p in g["pairs"]}
    assert not any(moved & set(p) for p in standing)
    assert {pk for g in ex.groups for pk in g.get("by_hand", [])} == moved
    assert (ex.revision, [c["kind"] for c in ex.by_hand]) == (1, ["swap"])


def test_a_flip_replaces_only_the_colour_reasons(chess, organiser):
    rnd = pair_next_round(chess, organiser)
    m = rnd.matches.filter(player_b__isnull=False).first()
    was = codes(rnd.explanation, m.player_a_id)
    flip_colours(rnd, m.pk, organiser)
    ex = RoundExplanation.objects.get(round=rnd)
    for pk in (m.player_a_id, m.player_b_id):
        assert "colour" not in codes(ex, pk) and codes(ex, pk)[-1] == "colours_by_hand"
    assert [c for c in was if c != "colour"] == codes(ex, m.player_a_id)[:-1]


def test_a_round_paired_before_explanations_were_stored_has_none(event):
    rnd = pair(event, 1, ROUND_1, state=Round.State.PAIRED)
    assert not RoundExplanation.objects.filter(round=rnd).exists()
