"""Registrations, placements and moves at once in one event's sections (docs/sections.md: Locks): none waits on
another for ever, and every player keeps a number of their own in the venue's run."""

import pytest

from tests.web.organiser.test_concurrency import at_once
from tournament.models import Player
from tournament.services.roster import NewPlayer, add_players
from tournament.services.sections import move_player, place_unplaced, register, update_section

pytestmark = pytest.mark.django_db(transaction=True)


def test_registering_in_sections_and_at_the_event_while_players_are_placed_and_moved(venue, organiser):
    a, b = venue.section_list
    update_section(a, organiser, rating_min=1800)
    update_section(b, organiser, rating_max=1799)
    Player.objects.bulk_create(Player(event=venue, name=f"Waiting {i}", rating=1000 + 300 * i) for i in range(4))
    mover = a.players.get(name="A Player D")
    results = at_once(
        lambda: add_players(a, organiser, [NewPlayer(name=f"Late A{i}") for i in range(3)]),
        lambda: add_players(b, organiser, [NewPlayer(name=f"Late B{i}") for i in range(3)]),
        lambda: register(venue, organiser, [(NewPlayer(name="New", rating=2000), None)]),
        lambda: place_unplaced(venue, organiser),
        lambda: move_player(mover, b, organiser),
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    numbers = list(Player.objects.filter(event__in=[venue, a, b]).values_list("number", flat=True))
    assert len(numbers) == 12 + 4 + 7 and len(set(numbers)) == len(numbers)
    assert Player.objects.get(pk=mover.pk).event == b
    assert not venue.players.exists()
