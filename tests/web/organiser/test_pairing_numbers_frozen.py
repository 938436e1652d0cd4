"""The pairing numbers of a Dutch event freeze when round 4 is paired: a late entry before that is numbered
among the others by rating (everyone renumbered at once), one after it gets the next number, and the TRF
export writes those numbers as the start ranks."""

import pytest

from swiss.numbers import pairing_numbers
from tests.conftest import new_chess_event
from tournament.models import Player
from tournament.services.results import parse_outcome, record_result
from tournament.services.roster import add_player
from tournament.services.rounds import pair_next_round, publish_round
from tournament.snapshot import event_to_file, event_to_trf

pytestmark = pytest.mark.django_db


def play_round(event, organiser):
    rnd = pair_next_round(event, organiser)
    publish_round(rnd, organiser)
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, parse_outcome("1/2-1/2", 1, chess=True), organiser)
    return rnd


def numbers(event) -> dict[str, int]:
    names = {p.key: p.name for p in event.players.all()}
    return {names[k]: n for k, n in pairing_numbers(event_to_file(event)).items()}


def test_a_late_entry_before_round_four_is_numbered_by_rating_and_after_it_gets_the_next(organiser):
    event = new_chess_event(organiser, {f"P{k}": 2400 - 100 * k for k in range(1, 9)}, planned_rounds=7)
    for _ in range(2):
        play_round(event, organiser)
    add_player(event, organiser, name="Early", rating=2350)
    assert numbers(event)["Early"] == 1 and numbers(event)["P1"] == 2 and numbers(event)["P2"] == 3
    assert not Player.objects.filter(event=event, pairing_number__isnull=False).exists()
    play_round(event, organiser)
    play_round(event, organiser)  # round 4: the numbers freeze
    frozen = dict(Player.objects.filter(event=event).values_list("name", "pairing_number"))
    assert frozen == numbers(event) and sorted(frozen.values()) == list(range(1, 10))
    add_player(event, organiser, name="Late", rating=2800)
    assert numbers(event)["Late"] == 10
    assert all(numbers(event)[name] == n for name, n in frozen.items())
    # A rating changed since leaves the number as it was.
    Player.objects.filter(event=event, name="P8").update(rating=2900)
    assert numbers(event)["P8"] == frozen["P8"]
    # The export writes them as the start ranks.
    ranks = {line[14:47].strip(): int(line[4:8]) for line in event_to_trf(event).splitlines() if line[:3] == "001"}
    assert ranks == numbers(event)
    rnd = play_round(event, organiser)  # round 5 pairs the late entry with the frozen numbers
    assert rnd.matches.filter(player_a__name="Late").exists() or rnd.matches.filter(player_b__name="Late").exists()
