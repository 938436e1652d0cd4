"""The acceleration of a FIDE Dutch event (Baku, C.04.7) is chosen in the settings until round 1 is paired;
from then on it is shown but not taken from the form, as the initial colour is: round 1's virtual points were
given by it, and the later rounds' pairings and the TRF export carry on from them."""

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
