"""A Day-2 cut is made when the round after it is paired, as a draft the organiser may still re-pair; phones,
standings and screens show it only once that round is published, for the cut and the Day-2 players together."""

import pytest
from django.urls import reverse

from tests.web.sections.test_day2_cut import cut_event, play, text_of
from tournament.models import Player
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

RULE = "Day 2: at least 6 match points (a 2–0 record)"


def pages(client, event, player) -> dict[str, str]:
    return {
        "own": text_of(client.get(reverse("player:link", args=[event.slug, player.pk, player.token]), follow=True)),
        "public": text_of(client.get(reverse("public:player", args=[event.slug, player.pk]))),
    }


def test_cut_and_day_2_players_see_the_cut_when_the_round_is_published(client, event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    draft = pair_next_round(event, organiser)
    cut = Player.objects.filter(event=event, cut_after=2).first()
    made = Player.objects.filter(event=event, cut_after__isnull=True).first()
    assert cut is not None and made is not None  # the cut is made with the draft
    # While round 3 is a draft, every phone still shows the rule: neither the cut nor Day 2.
    for player in (cut, made):
        for where, text in pages(client, event, player).items():
            assert RULE in text, (player.name, where)
            assert "cut after" not in text.lower() and "Day 2." not in text, (player.name, where)
    for url in (reverse("public:standings", args=[event.slug]), reverse("public:screen", args=[event.slug])):
        assert 'class="cut-line"' not in client.get(url).content.decode(), url
    publish_round(draft, organiser)
    # Published: both change at once.
    for where, text in pages(client, event, cut).items():
        assert "ut after round 2, in place" in text and RULE not in text, where
    own = pages(client, event, made)
    assert "You made Day 2." in own["own"] and "Made Day 2." in own["public"]
    assert RULE not in own["own"] and RULE not in own["public"]
    standings = client.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert standings.count('class="cut-line"') == 1
