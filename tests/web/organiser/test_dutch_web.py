"""The FIDE Dutch system in the web app (docs/engines.md): chosen per event (the chess preset's default), saved from
the settings, and carried by the event file. (A large round is paired by the worker: test_jobs.py.)"""

import json

import pytest
from django.urls import reverse

from pairing import DutchInput, PairingInput, from_event, pair
from tests.conftest import new_chess_event
from tournament.models import Event
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_file

pytestmark = pytest.mark.django_db


@pytest.fixture
def chess(organiser):
    # Registered out of rating order: the Dutch system numbers them by rating, not by arrival.
    ratings = [1900, 2300, 1500, 2100, 1700, 2500, 1600, 2000]
    return new_chess_event(organiser, {f"Player {i}": r for i, r in enumerate(ratings)}, slug="club")


def by_rating(event):
    return {p.pk: rank for rank, p in enumerate(event.players.order_by("-rating"), start=1)}


def test_a_chess_event_pairs_round_one_by_the_dutch_system(chess, organiser):
    assert isinstance(from_event(event_to_file(chess), 1), DutchInput)
    rnd = pair_next_round(chess, organiser)
    number = by_rating(chess)
    games = sorted(
        sorted((number[m.player_a_id], number[m.player_b_id])) for m in rnd.matches.filter(player_b__isnull=False)
    )
    # C.04.3: the top half meets the bottom half in order, 1-5, 2-6, 3-7, 4-8.
    assert games == [[1, 5], [2, 6], [3, 7], [4, 8]]
    # And the colours alternate board by board from the first: the two top boards have opposite colours.
    top = {number[m.player_a_id]: "W" for m in rnd.matches.all()} | {
        number[m.player_b_id]: "B" for m in rnd.matches.all()
    }
    assert top[1] != top[2] and top[1] == top[3] and top[2] == top[4]


def test_the_round_is_what_the_engine_gives_for_the_same_file(chess, organiser):
    rnd = pair_next_round(chess, organiser)
    chess.refresh_from_db()  # with the initial colour its pairing drew (tests/web/organiser/test_initial_colour.py)
    expected = pair(from_event(event_to_file(chess), 1), seed=rnd.seed)
    stored = {(m.player_a.key, m.player_b.key) for m in rnd.matches.select_related("player_a", "player_b")}
    assert stored == {(p.a, p.b) for p in expected.pairs}


def test_the_optimal_system_can_be_chosen_for_a_chess_event(chess):
    Event.objects.filter(pk=chess.pk).update(pairing="optimal")
    chess.refresh_from_db()
    assert isinstance(from_event(event_to_file(chess), 1), PairingInput)


def test_the_settings_save_the_pairing_system_and_acceleration(client, organiser, chess):
    from tests.web.organiser.test_organiser import settings_data

    client.force_login(organiser)
    data = settings_data(
        chess,
        win_points="1",
        draw_points="1/2",
        best_of=1,
        colours="on",
        pairing="dutch",
        acceleration="baku",
    )
    r = client.post(reverse("org_settings", args=[chess.slug]), data)
    assert r.status_code == 302, r.content.decode()[:2000]
    chess.refresh_from_db()
    assert (chess.pairing, chess.acceleration) == ("dutch", "baku")
    settings = event_to_file(chess).settings
    assert (settings.pairing_system, settings.acceleration) == ("dutch", "baku")
    exported = json.loads(client.get(reverse("org_export_json", args=[chess.slug])).content)
    assert exported["acceleration"] == "baku"
    # Left out of the form (an older page): no acceleration, not an error.
    r = client.post(reverse("org_settings", args=[chess.slug]), {**data, "acceleration": ""})
    chess.refresh_from_db()
    assert chess.acceleration == "none"


def test_an_unknown_pairing_system_is_refused(client, organiser, chess):
    from tests.web.organiser.test_organiser import settings_data

    client.force_login(organiser)
    data = settings_data(chess, win_points="1", draw_points="1/2", best_of=1, pairing="monrad")
    r = client.post(reverse("org_settings", args=[chess.slug]), data)
    assert r.status_code == 200
    chess.refresh_from_db()
    assert chess.pairing == ""
