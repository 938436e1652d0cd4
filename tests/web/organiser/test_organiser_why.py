"""The organiser sees the whole round group by group, with the rule that decided each (on the draft before
publishing it and on the published round), in their language, the changes made by hand since, and asks why any two
players of a round are not paired together."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from tests.web.phone.test_phone_why import played_rounds
from tournament.models import Player, RoundExplanation
from tournament.pages.why import why_not_said
from tournament.services import explanations
from tournament.services.rounds import pair_next_round, swap_players
from tournament.text import engine_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def notes(rnd, language: str) -> list[str]:
    with translation.override(language):
        return [engine_text.sentence(n) for g in RoundExplanation.objects.get(round=rnd).groups for n in g["notes"]]


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_draft_shows_every_group_with_its_notes(client, chess, organiser, language):
    rnd = pair_next_round(chess, organiser)
    client.force_login(organiser)
    page = client.get(reverse("org_round", args=[chess.slug, rnd.number]), HTTP_ACCEPT_LANGUAGE=language)
    html = page.content.decode()
    assert 'id="why-log"' in html
    assert all(escape(n) in html for n in notes(rnd, language))
    if language != "en":
        assert not any(escape(n) in html for n in notes(rnd, "en"))


def test_the_published_round_shows_the_log_and_the_changes_by_hand(client, event, organiser):
    rnd = played_rounds(event, organiser)
    a, b = (m.player_a for m in rnd.matches.filter(player_b__isnull=False).order_by("table")[:2])
    swap_players(rnd, a, b, organiser)
    client.force_login(organiser)
    html = client.get(reverse("org_round", args=[event.slug, rnd.number])).content.decode()
    assert 'id="why-log"' in html and "Changed by hand after the engine paired it" in html
    assert all(escape(n) in html for n in notes(rnd, "en"))
    assert escape(a.name) in html.split('id="why-log"')[1]


def test_the_organiser_asks_why_not_about_any_two_players(client, chess, organiser, judge):
    from tournament.models import EventRole

    rnd = played_rounds(chess, organiser)
    m = rnd.matches.filter(player_b__isnull=False).order_by("table")
    a, b = m[0].player_a, m[1].player_b
    ask = reverse("org_round_why_not", args=[chess.slug, rnd.number])
    client.force_login(organiser)
    page = client.get(ask, {"a": a.pk, "b": b.pk}, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    with translation.override("da"):
        said = why_not_said(explanations.answer(rnd, a, b), rnd, a, b)
    assert escape(said) in page
    # By the players' names, as the rest of the page, never by their keys (the engine's ids).
    keys = "|".join(re.escape(k) for k in chess.players.values_list("key", flat=True))
    assert a.name in said and b.name in said and not re.search(rf"\b(?:{keys})\b", said), said
    # The first round too, and two players who play each other.
    first = chess.rounds.get(number=1)
    pairs = first.matches.filter(player_b__isnull=False).first()
    page = client.get(
        reverse("org_round_why_not", args=[chess.slug, 1]), {"a": pairs.player_a_id, "b": pairs.player_b_id}
    )
    said = why_not_said(
        explanations.answer(first, pairs.player_a, pairs.player_b), first, pairs.player_a, pairs.player_b
    )
    assert escape(said) in page.content.decode()
    assert pairs.player_a.name in said and pairs.player_b.name in said
    # A judge may ask too; a player of another event is refused with a sentence.
    EventRole.objects.get_or_create(event=chess, user=judge, defaults={"role": EventRole.Role.JUDGE})
    client.force_login(judge)
    stranger = Player.objects.exclude(event=chess).first() or a
    page = client.get(ask, {"a": a.pk, "b": 999999 if stranger == a else stranger.pk})
    assert page.status_code == 200 and "Both players must be in this event." in page.content.decode()
