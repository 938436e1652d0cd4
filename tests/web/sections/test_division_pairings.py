"""Divisions paired together show each player's division wherever a table is read: the draft (which marks a
table of two divisions), the round's results, the public pairings, the printed pairings and the match slips;
the settings say which styles Pokémon's rules allow."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing
from tournament.models import Match
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db

DIVISION = re.compile(r'<span class="division-tag">([^<]*)</span>')


def test_every_pairing_page_shows_each_players_division(venue, organiser, client):
    a, b = pairing(venue, below=8)
    draft = pair_next_round(a, organiser)
    assert draft.event == b
    matches = list(draft.matches.select_related("player_a", "player_b"))
    mixed = [m for m in matches if m.player_b and m.player_a.division != m.player_b.division]
    org = logged_in(organiser)
    html = org.get(reverse("org_round", args=[b.slug, 1])).content.decode()
    assert 'class="pairings"' in html  # the draft
    # Every seated player's division beside their name: six juniors (A), six seniors (B).
    assert sorted(DIVISION.findall(html)) == ["A"] * 6 + ["B"] * 6
    assert html.count("two divisions") == len(mixed)
    # A junior–senior table can be fixed by hand: the draft offers the swap.
    assert reverse("org_round_swap", args=[b.slug, 1]) in html
    publish_round(draft, organiser)
    pages = {
        "results": org.get(reverse("org_round", args=[b.slug, 1])),
        "by table": org.get(reverse("org_print_by_table", args=[b.slug, 1])),
        "slips": org.get(reverse("org_print_slips", args=[b.slug, 1])),
    }
    for name, response in pages.items():
        assert sorted(DIVISION.findall(response.content.decode())) == ["A"] * 6 + ["B"] * 6, name
    by_name = org.get(reverse("org_print_by_name", args=[b.slug, 1])).content.decode()
    assert sorted(DIVISION.findall(by_name)) == ["A"] * 12 + ["B"] * 12  # each line: the player and the opponent
    public = client.get(reverse("public:pairings", args=[b.slug])).content.decode()
    assert sorted(DIVISION.findall(public)) == ["A"] * 12 + ["B"] * 12
    assert Match.objects.filter(round=draft).count() == 6


def test_no_division_is_shown_where_sections_pair_apart(venue, organiser, client):
    a, b = pairing(venue, below=3)  # six in each: no join
    rnd = pair_next_round(a, organiser)
    html = logged_in(organiser).get(reverse("org_round", args=[a.slug, 1])).content.decode()
    assert not DIVISION.findall(html) and "two divisions" not in html
    publish_round(rnd, organiser)
    assert not DIVISION.findall(client.get(reverse("public:pairings", args=[a.slug])).content.decode())


@pytest.mark.parametrize("language", ["en", "da", "ja"])
def test_the_settings_offer_the_styles_pokemons_rules_allow(venue, organiser, language):
    a, _b = venue.section_list
    client = logged_in(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse("org_settings", args=[a.slug])).content.decode()
    said = {"en": "age-modified Swiss", "da": "aldersmodificeret", "ja": "年齢調整"}[language]
    assert said in html
