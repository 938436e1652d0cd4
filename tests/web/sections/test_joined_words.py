"""A Pokémon record is wins-losses-ties (W-L-T), every other game's keeps its words; before round 1 a section
whose players will be paired with another's recommends rounds for everyone who will play together."""

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing, play
from tournament.models import Event, Player
from tournament.services.rounds import pair_next_round, recommended_rounds

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("preset", "short", "long"),
    [
        ("pokemon", "W-L-T", "wins-losses-ties"),
        ("mtg", "W-L-D", "wins-losses-draws"),
        ("chess", "W-D-L", "wins-draws-losses"),
    ],
)
def test_the_record_heading_is_the_games_own(venue, organiser, client, preset, short, long):
    a, b = pairing(venue, below=0)
    Event.objects.filter(pk=b.pk).update(preset=preset)
    play(pair_next_round(b, organiser), organiser)
    for url in (reverse("public:standings", args=[b.slug]),):
        html = client.get(url).content.decode()
        assert f'<abbr title="{long}">{short}</abbr>' in html
    player = b.players.first()
    page = client.get(reverse("public:player", args=[b.slug, player.pk])).content.decode()
    assert f">{short}</abbr>" in page


@pytest.mark.parametrize(("language", "short"), [("da", "V-T-U"), ("ja", "勝-敗-分")])
def test_a_pokemon_record_in_danish_and_japanese(venue, organiser, client, language, short):
    a, b = pairing(venue, below=0)
    play(pair_next_round(b, organiser), organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("public:standings", args=[b.slug])).content.decode()
    assert f">{short}</abbr>" in html and "W-L-T" not in html


def test_before_round_1_a_section_recommends_rounds_for_everyone_paired_together(venue, organiser):
    a, b = venue.section_list
    Player.objects.filter(event=a, name__in=["A Player E", "A Player F"]).delete()  # 4 juniors
    Player.objects.bulk_create(Player(event=b, name=f"B Late {c}", rating=1000) for c in "XYZ")  # 9 seniors
    a, b = pairing(venue, below=8)
    assert recommended_rounds(a).players == 13 and recommended_rounds(b).players == 13
    assert (recommended_rounds(a).rounds, recommended_rounds(a).top_cut) == (5, 4)  # Pokémon: 13 players
    org = logged_in(organiser)
    for section in (a, b):
        for name in ("org_event", "org_players", "org_settings"):
            html = org.get(reverse(name, args=[section.slug])).content.decode()
            assert "13 players" in html, (section.name, name)
    home = org.get(reverse("org_event", args=[a.slug])).content.decode()
    assert "Counted with B" in home
    # Above the threshold the two pair apart: each counts its own.
    Event.objects.filter(pk=a.pk).update(pair_with_below=3)
    a.refresh_from_db()
    assert recommended_rounds(a).players == 4
    # Once joined, the partner holds them all and the joined section recommends nothing of its own.
    Event.objects.filter(pk=a.pk).update(pair_with_below=8)
    a.refresh_from_db()
    pair_next_round(a, organiser)
    b.refresh_from_db()
    assert recommended_rounds(b).players == 13 and recommended_rounds(a) is None
