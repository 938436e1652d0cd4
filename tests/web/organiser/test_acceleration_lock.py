"""The acceleration of a FIDE Dutch event (Baku, C.04.7) is chosen in the settings until round 1 is paired;
from then on it is shown but not taken from the form, as the initial colour is: round 1's virtual points were
given by it, and the later rounds' pairings and the TRF export carry on from them. The initial colour, fixed
then too, shows the seed of round 1, from which a colour not chosen before was drawn by lot: the lot is
reproducible."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db


def test_the_acceleration_is_locked_once_round_one_is_paired(client, organiser):
    from tests.web.organiser.test_organiser import settings_data

    chess = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEFGH")}, slug="c")
    client.force_login(organiser)
    data = settings_data(chess, win_points="1", draw_points="1/2", best_of=1, colours="on", acceleration="baku")
    assert client.post(reverse("org_settings", args=[chess.slug]), data).status_code == 302
    chess.refresh_from_db()
    assert chess.acceleration == "baku"
    pair_next_round(chess, organiser)
    page = client.get(reverse("org_settings", args=[chess.slug])).content.decode()
    field = page[page.index('name="acceleration"') - 200 : page.index('name="acceleration"') + 50]
    assert "disabled" in field
    data["acceleration"] = "none"
    client.post(reverse("org_settings", args=[chess.slug]), data)
    chess.refresh_from_db()
    assert chess.acceleration == "baku"
    assert "192 FIDE_DUTCH_2025_BAKU" in event_to_trf(chess).splitlines()


def test_the_seed_of_the_initial_colour_lot_is_shown_and_draws_it_again(client, organiser):
    import random

    from pairing.dutch import BLACK, WHITE

    chess = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCD")}, slug="c")
    client.force_login(organiser)
    rnd = pair_next_round(chess, organiser)
    chess.refresh_from_db()
    assert chess.initial_colour == {WHITE: "white", BLACK: "black"}[random.Random(rnd.seed).choice((WHITE, BLACK))]
    page = client.get(reverse("org_settings", args=[chess.slug])).content.decode()
    assert f"Fixed since round 1 was paired with seed {rnd.seed}" in page
    for language, words in (("da", str(rnd.seed)), ("ja", str(rnd.seed))):
        page = client.get(reverse("org_settings", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE=language)
        assert words in page.content.decode()
