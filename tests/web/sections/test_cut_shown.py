"""A Day-2 cut where the venue watches it and the desk works (docs/sections.md): the line is drawn in the standings
of an event's screen, of a section's own screen and of its board on the venue's screen, and the organiser's
roster marks every cut player, as it marks a dropped one."""

import pytest
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tests.web.sections.test_day2_cut import cut_event, play, text_of
from tournament.models import Player

pytestmark = pytest.mark.django_db


def test_every_screen_draws_the_cut_line_in_its_standings(client, venue, organiser):
    a, _b = venue.section_list
    cut_event(a, cut_points="6")
    for n in (1, 2, 3):
        play(a, organiser, n)
    assert Player.objects.filter(event=a, cut_after=2).exists()
    for path in (reverse("public:screen", args=[a.slug]), reverse("public:screen_panel", args=[a.slug])):
        html = client.get(path).content.decode()
        assert 'class="board-list standings"' in html, path
        assert html.count('class="cut-line"') == 1 and "Cut after round 2" in html, path


def test_a_plain_events_screen_draws_the_line_too(client, event, organiser):
    cut_event(event, cut_points="6")
    for n in (1, 2, 3):
        play(event, organiser, n)
    html = client.get(reverse("public:screen", args=[event.slug])).content.decode()
    assert html.count('class="cut-line"') == 1
    # Day 2's two first, then the line, then the six cut players.
    board = html[html.index('class="board-list standings"') :]
    assert board[: board.index('class="cut-line"')].count("<li>") == 2


def test_the_roster_marks_cut_players_as_it_marks_dropped_ones(event, organiser):
    cut_event(event, cut_points="6")
    play(event, organiser, 1)
    play(event, organiser, 2)
    page = text_of(logged_in(organiser).get(reverse("org_players", args=[event.slug])))
    assert "cut after R2" not in page  # the cut is made when round 3 is paired
    play(event, organiser, 3)
    page = text_of(logged_in(organiser).get(reverse("org_players", args=[event.slug])))
    assert page.count("cut after R2") == Player.objects.filter(event=event, cut_after=2).count() == 6
    assert "dropped after" not in page
