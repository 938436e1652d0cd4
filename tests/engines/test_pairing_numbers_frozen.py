"""Pairing numbers frozen (swiss/numbers.py): until round 4 is paired every change numbers the players again
by the rule, all of them at once; once the numbers are frozen (each player's `pairing_number`) a later entry
gets the next number whatever its rating, and a frozen player deleted since leaves no gap. No database."""

from swiss import eventfile as ef
from swiss.model import Event, Player, settings_for_preset
from swiss.numbers import pairing_numbers

SETTINGS = settings_for_preset("chess", planned_rounds=7)


def test_before_the_freeze_a_late_entry_is_numbered_among_the_others_by_rating():
    players = [Player(id="a", name="A", rating=2000), Player(id="b", name="B", rating=1800)]
    assert pairing_numbers(Event(SETTINGS, tuple(players))) == {"a": 1, "b": 2}
    late = Player(id="c", name="C", rating=1900)
    assert pairing_numbers(Event(SETTINGS, (*players, late))) == {"a": 1, "c": 2, "b": 3}


def test_once_frozen_a_late_entry_gets_the_next_number_whatever_its_rating():
    frozen = (
        Player(id="a", name="A", rating=2000, pairing_number=1),
        Player(id="b", name="B", rating=1800, pairing_number=2),
        # Re-rated since: keeps the number it had.
        Player(id="d", name="D", rating=2500, pairing_number=3),
    )
    late = (Player(id="c", name="C", rating=2700), Player(id="e", name="E", rating=2600))
    assert pairing_numbers(Event(SETTINGS, (*frozen, *late))) == {"a": 1, "b": 2, "d": 3, "c": 4, "e": 5}
    # A frozen player deleted since: the others close up in their order.
    assert pairing_numbers(Event(SETTINGS, (frozen[0], frozen[2], late[0]))) == {"a": 1, "d": 2, "c": 3}


def test_the_swiss_event_file_carries_the_frozen_number():
    event = Event(SETTINGS, (Player(id="a", name="A", pairing_number=2), Player(id="b", name="B")))
    doc = ef.dump(event)
    assert doc["players"][0]["pairing_number"] == 2 and "pairing_number" not in doc["players"][1]
    assert ef.parse(doc) == event


def test_a_player_added_to_a_trf_past_round_four_gets_the_next_number():
    from swiss.model import Match, Round

    file_players = tuple(Player(id=str(k), name=f"F{k}", rating=2000 - k, number=k) for k in range(1, 5))
    added = Player(id="p9", name="Added", rating=2500)
    header = settings_for_preset("chess", planned_rounds=7, trf_header=("012 Open",))
    rounds = tuple(Round(n, (Match("1", "2", (0, 0, 1)), Match("3", "4", (0, 0, 1)))) for n in range(1, 5))
    # Three rounds in the file: the added player goes among the file's players by the rule (here first).
    assert pairing_numbers(Event(header, (*file_players, added), rounds[:3]))["p9"] == 1
    # Four: the numbers are frozen as the file gave them, and the added player is number 5.
    numbers = pairing_numbers(Event(header, (*file_players, added), rounds))
    assert numbers == {"1": 1, "2": 2, "3": 3, "4": 4, "p9": 5}
