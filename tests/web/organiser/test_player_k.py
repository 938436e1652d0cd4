"""The organiser gives a chess player's K-factor on the player's page, as the FIDE rating list has it: blank,
10, 20 or 40, and the rating change uses it (docs/ratings.md)."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from tests.web.phone.test_player_page import me, phone
from tests.web.phone.test_rating_phone import chorrera  # noqa: F401 (a fixture)
from tournament.models import EventRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def _data(player, **more):
    return {"name": player.name, "rating": str(player.rating), "byes": "0", **more}


def test_the_form_offers_k_with_when_fide_uses_each(chess, org):
    alice = chess.players.get(name="Player A")
    html = org.get(reverse("org_player_edit", args=[chess.slug, alice.pk])).content.decode()
    assert 'name="k"' in html
    assert all(f'<option value="{k}"' in html for k in ("", "10", "20", "40"))
    assert "until 30 rated games" in html and "under 2300" in html and "reached 2400" in html


@pytest.mark.parametrize(("typed", "stored"), [("40", 40), ("10", 10), ("", None)])
def test_the_organiser_sets_and_clears_k(chess, org, typed, stored):
    alice = chess.players.get(name="Player A")
    alice.k = 20
    alice.save(update_fields=["k"])
    url = reverse("org_player_edit", args=[chess.slug, alice.pk])
    assert org.post(url, _data(alice, k=typed)).status_code == 302
    alice.refresh_from_db()
    assert alice.k == stored


@pytest.mark.parametrize(
    ("language", "refused"), [("en", "K is 10, 20 or 40"), ("ja", "Kは10・20・40"), ("da", "K er 10, 20 eller 40")]
)
def test_a_k_fide_does_not_use_is_refused(chess, org, language, refused):
    alice = chess.players.get(name="Player A")
    with translation.override(language):
        url = reverse("org_player_edit", args=[chess.slug, alice.pk])
    response = org.post(url, _data(alice, k="25"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and refused in response.content.decode()
    alice.refresh_from_db()
    assert alice.k is None


def test_an_event_without_colours_has_no_k(event, org):
    p = event.players.first()
    assert 'name="k"' not in org.get(reverse("org_player_edit", args=[event.slug, p.pk])).content.decode()


def test_the_k_the_organiser_gives_is_the_phones(chorrera, org, organiser):  # noqa: F811
    EventRole.objects.create(event=chorrera, user=organiser, role=EventRole.Role.ORGANISER)
    b = chorrera.players.get(name="Player B")
    assert "-6.6 (K 20)" in me(phone(chorrera, "Player B"), chorrera).content.decode()
    assert org.post(reverse("org_player_edit", args=[chorrera.slug, b.pk]), _data(b, k="10")).status_code == 302
    cache.clear()
    assert "-3.3 (K 10)" in me(phone(chorrera, "Player B"), chorrera).content.decode()
