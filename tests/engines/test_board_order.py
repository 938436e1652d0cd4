"""Board order of a Dutch round (FIDE C.04.2): the boards go by the score of the pair's higher player, then the
sum of both players' scores, then the higher player's pairing number, the smaller first. Scores are the points
scored: the virtual points of an acceleration (Baku, C.04.7) pair players but seat no one (as bbpPairings
orders its output). Checked on random events played round by round, accelerated and not. No database."""

import random
from fractions import Fraction as F

import pytest

from pairing import from_event, pair
from standings import points_by_player
from swiss.model import Event, Match, Player, Round, settings_for_preset
from swiss.numbers import pairing_numbers


def play(size: int, rounds: int, baku: bool, seed: int) -> list[tuple[Event, tuple]]:
    """Every round of a random Dutch event: (the event before the round, the round's pairs in table order)."""
    lot = random.Random(seed)
    players = tuple(Player(id=f"p{k}", name=f"P{k:02d}", rating=lot.randrange(1400, 2600)) for k in range(size))
    settings = settings_for_preset(
        "chess", planned_rounds=rounds, initial_colour="white", acceleration="baku" if baku else "none"
    )
    event = Event(settings=settings, players=players)
    out = []
    for number in range(1, rounds + 1):
        pairing = pair(from_event(event))
        out.append((event, pairing.pairs))
        matches = [Match(p.a, p.b, lot.choice([(1, 0, 0), (0, 1, 0), (0, 0, 1)]), table=p.table) for p in pairing.pairs]
        matches += [Match(b, result="bye") for b in pairing.byes]
        event = Event(settings, players, (*event.rounds, Round(number, tuple(matches))))
    return out


def board_key(event: Event, a: str, b: str) -> tuple:
    points = points_by_player(event) if event.rounds else {p.id: F(0) for p in event.players}
    number = pairing_numbers(event)
    top, low = sorted((a, b), key=lambda x: (-points[x], number[x]))
    return (-points[top], -(points[top] + points[low]), number[top])


@pytest.mark.parametrize(("size", "rounds", "baku", "seed"), [(12, 5, False, 1), (17, 7, False, 2), (20, 7, True, 3)])
def test_the_boards_go_by_the_higher_score_then_the_sum_then_the_pairing_number(size, rounds, baku, seed):
    for event, pairs in play(size, rounds, baku, seed):
        keys = [board_key(event, p.a, p.b) for p in pairs]
        assert keys == sorted(keys), (len(event.rounds) + 1, keys)
        assert [p.table for p in pairs] == list(range(1, len(pairs) + 1))


def test_the_sum_of_both_scores_decides_between_boards_whose_higher_players_are_level():
    # Some round of the event seats two boards whose higher players are level by the lower players' scores.
    seen_sum_break = False
    for event, pairs in play(16, 5, False, 7):
        keys = [board_key(event, p.a, p.b) for p in pairs]
        seen_sum_break |= any(x[0] == y[0] and x[1] < y[1] for x, y in zip(keys, keys[1:], strict=False))
    assert seen_sum_break  # the rule was put to the test, not only the first key


def test_acceleration_points_seat_no_one():
    # Rounds 2 and 3 of a Baku event: the accelerated half carries virtual points, which pair them but leave
    # the boards to the points scored. Seated by the accelerated scores, some round would read otherwise.
    from pairing.dutch.players import Round as DutchRound

    differs = False
    for event, pairs in play(20, 7, True, 11)[1:3]:
        keys = [board_key(event, p.a, p.b) for p in pairs]
        assert keys == sorted(keys)
        inp = from_event(event)
        rnd = DutchRound(inp)
        accelerated = {x.id: rnd.score(x, 0) for x in rnd.players.values()}
        by_virtual = [-max(accelerated[p.a], accelerated[p.b]) for p in pairs]
        differs |= by_virtual != sorted(by_virtual)
    assert differs
