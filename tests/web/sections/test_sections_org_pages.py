"""The organiser's pages of an event with sections lead somewhere (docs/sections.md): the event ranks nobody
itself, so its Standings and Top cut lead to a list of its sections' standings and top cuts, its prints to that
list, and no page reached from its own pages is an empty one."""

import re

import pytest
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_divisions import pairing
from tournament.models import Event
from tournament.services.rounds import pair_next_round

pytestmark = pytest.mark.django_db


def test_the_events_standings_list_each_sections_standings_and_top_cut(venue, organiser):
    a, b = venue.section_list
    Event.objects.filter(pk=b.pk).update(top_cut=4)
    client = logged_in(organiser)
    home = client.get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_standings", args=[venue.slug]) in home  # the nav's Standings
    page = client.get(reverse("org_standings", args=[venue.slug])).content.decode()
    for section in (a, b):
        assert reverse("org_standings", args=[section.slug]) in page
        assert reverse("org_print_standings", args=[section.slug]) in page
    assert reverse("org_top_cut", args=[b.slug]) in page and reverse("org_top_cut", args=[a.slug]) not in page
    assert "each has its own standings and top cut" in page
    # The event's own top-cut page is that list too, never a top cut of nobody to start.
    top = client.get(reverse("org_top_cut", args=[venue.slug])).content.decode()
    assert reverse("org_top_cut", args=[b.slug]) in top and reverse("org_top_cut_start", args=[venue.slug]) not in top


def test_a_joined_sections_line_leads_to_its_partners_standings(venue, organiser):
    a, b = pairing(venue, below=8)
    pair_next_round(a, organiser)
    page = logged_in(organiser).get(reverse("org_standings", args=[venue.slug])).content.decode()
    assert f'Plays in <a href="{reverse("org_standings", args=[b.slug])}">B</a>' in page
    assert reverse("org_print_standings", args=[a.slug]) not in page


def test_the_events_prints_lead_to_its_sections(venue, organiser):
    client = logged_in(organiser)
    for name in ("org_print_standings", "org_print_crosstable"):
        response = client.get(reverse(name, args=[venue.slug]))
        assert response.status_code == 302 and response["Location"] == reverse("org_standings", args=[venue.slug])


def test_the_events_standings_list_needs_a_role(venue, outsider, judge):
    for name in ("org_standings", "org_top_cut"):
        assert logged_in(outsider).get(reverse(name, args=[venue.slug])).status_code == 404  # as event_for hides it
        assert logged_in(judge).get(reverse(name, args=[venue.slug])).status_code == 200


def test_the_events_cards_are_every_sections_players_cards(venue, organiser):
    a, b = venue.section_list
    html = logged_in(organiser).get(reverse("org_print_cards", args=[venue.slug])).content.decode()
    for p in (a.players.get(name="A Player A"), b.players.get(name="B Player F")):
        assert p.name in html and p.card_code in html
    assert "Regionals · A" in html and "Regionals · B" in html  # each card names its player's section


def test_no_page_linked_from_the_events_own_pages_is_a_dead_end(venue, organiser):
    client = logged_in(organiser)
    own = f"/events/{venue.slug}/"
    pages = ["org_event", "org_players", "org_standings", "org_top_cut", "org_settings"]
    links = set()
    for name in pages:
        html = client.get(reverse(name, args=[venue.slug])).content.decode()
        assert "Pair the next round" not in html, name  # it pairs nothing itself
        links |= {href for href in re.findall(r'href="([^"#?]+)"', html) if href.startswith(own)}
    assert reverse("org_standings", args=[venue.slug]) in links
    for href in sorted(links):
        response = client.get(href, follow=True)
        assert response.status_code == 200, href
        text = response.content.decode()
        for empty in ("No players yet", "No round has been published yet"):
            assert empty not in text, href
