"""Sections share what is the venue's (docs/sections.md): staff, player numbers, the address's slug."""

import pytest
from django.urls import reverse

from tests.web.organiser.test_concurrency import logged_in
from tournament.models import Event, Player
from tournament.services.locks import ServiceError
from tournament.services.sections import add_section

pytestmark = pytest.mark.django_db


def test_sections_take_their_place_and_a_slug_under_the_event(venue):
    a, b = venue.section_list
    assert (a.name, a.position, a.slug) == ("A", 1, "regionals-a")
    assert (b.name, b.position, b.slug) == ("B", 2, "regionals-b")
    assert a.root == venue and b.parent == venue and not venue.is_section and a.is_section
    assert sorted(a.venue_ids()) == sorted(venue.venue_ids()) == sorted([venue.pk, a.pk, b.pk])


def test_player_numbers_run_across_the_sections(venue):
    numbers = sorted(Player.objects.filter(event__parent=venue).values_list("number", flat=True))
    assert numbers == list(range(1, 13))
    late = Player.objects.create(event=venue.section_list[0], name="Late")
    unplaced = Player.objects.create(event=venue, name="Not placed yet")
    assert (late.number, unplaced.number) == (13, 14)


def test_a_section_name_is_not_taken_twice(venue, organiser):
    with pytest.raises(ServiceError):
        add_section(venue, "A", organiser)
    with pytest.raises(ServiceError):
        add_section(venue, "  ", organiser)
    with pytest.raises(ServiceError):
        add_section(venue, " A ", organiser)
    assert add_section(venue, "A2", organiser).slug == "regionals-a2"


def test_event_staff_act_in_every_section(venue, judge, outsider):
    for section in venue.section_list:
        assert logged_in(judge).get(reverse("org_event", args=[section.slug])).status_code == 200
        assert logged_in(outsider).get(reverse("org_event", args=[section.slug])).status_code == 404


def test_an_event_without_sections_is_its_own_only_swiss(event):
    assert event.root == event and event.section_list == [] and event.venue_ids() == [event.pk]
    assert not Event.objects.filter(parent=event).exists()
