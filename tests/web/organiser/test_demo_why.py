"""`make run`'s demo event played through its Swiss rounds as an organiser plays it: every player of every
published round has a reason, on the stored explanation and on their phone."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tournament.management.commands.demo import DEMO_SLUG, DEMO_USER
from tournament.models import Event, Player
from tournament.pages.why import phone_why
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round

pytestmark = pytest.mark.django_db


def test_every_player_of_every_published_demo_round_has_a_reason():
    call_command("demo", stdout=io.StringIO())
    event = Event.objects.get(slug=DEMO_SLUG)
    organiser = get_user_model().objects.get(username=DEMO_USER)
    for _number in range(event.planned_rounds):
        rnd = pair_next_round(event, organiser)
        publish_round(rnd, organiser)
        seated = list(Player.objects.filter(seats__round=rnd))
        assert len(seated) == 12
        for p in seated:
            why = phone_why(event, rnd, p)
            assert why is not None and why["lines"] and all(why["lines"]), (rnd.number, p.name)
        # Every player's phone shows them.
        p = seated[rnd.number % len(seated)]
        c = Client()
        assert c.get(reverse("player:link", args=[event.slug, p.pk, p.token])).status_code == 302
        page = c.get(reverse("player:me", args=[event.slug])).content.decode()
        assert all(escape(line) in page for line in phone_why(event, rnd, p)["lines"])
        for m in rnd.matches.filter(player_b__isnull=False):
            record_result(m, Outcome("played", (2, 1, 0) if m.table % 2 else (0, 2, 0)), organiser)
