"""The back button after an htmx swap that pushed its URL (the round page's filters and pages, the public
standings' pages): when htmx has not kept the page it asks for it again with HX-History-Restore-Request,
and must get the whole page, not the fragment a swap gets."""

import pytest
from django.urls import reverse

from tests.conftest import new_chess_event
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

SWAP = {"HTTP_HX_REQUEST": "true"}
RESTORE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}


@pytest.fixture
def paired(client, organiser):
    event = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEF")})
    publish_round(pair_next_round(event, organiser), organiser)
    client.force_login(organiser)
    return event


@pytest.mark.parametrize("query", ["?view=all", "?outstanding=1", "?view=disputed"])
def test_the_round_page_restores_whole(client, paired, query):
    url = reverse("org_round", args=[paired.slug, 1]) + query
    swapped = client.get(url, **SWAP)
    assert swapped.status_code == 200 and b"<html" not in swapped.content
    restored = client.get(url, **RESTORE)
    assert restored.status_code == 200 and b"<html" in restored.content and b'id="matches"' in restored.content
    assert "HX-Request" in restored["Vary"] and "HX-History-Restore-Request" in restored["Vary"]


def test_the_players_page_restores_whole(client, paired):
    url = reverse("org_players", args=[paired.slug])
    assert b"<html" not in client.get(url, **SWAP).content
    restored = client.get(url, **RESTORE)
    assert b"<html" in restored.content and "HX-Request" in restored["Vary"]
