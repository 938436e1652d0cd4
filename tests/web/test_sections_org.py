"""The organiser's side of sections (docs/sections.md): the event's page and list, placing players by the rules,
moving them, registering at the event (one, pasted, CSV), table ranges, and the staff of a section."""

import pytest
from django.urls import reverse

from tests.web.test_concurrency import logged_in
from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.locks import ServiceError
from tournament.services.rounds import pair_next_round, publish_round
from tournament.services.sections import (
    add_section,
    move_player,
    place_unplaced,
    range_size,
    reenter_player,
    table_ranges,
    update_section,
)

pytestmark = pytest.mark.django_db


def test_the_event_page_lists_its_sections_and_pairs_nothing_itself(venue, organiser):
    a, b = venue.section_list
    page = logged_in(organiser).get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_event", args=[a.slug]) in page and reverse("org_event", args=[b.slug]) in page
    assert reverse("org_section_add", args=[venue.slug]) in page
    assert reverse("org_round_pair", args=[venue.slug]) not in page
    with pytest.raises(ServiceError, match="sections"):
        pair_next_round(venue, organiser)
