"""The desk pages cost a constant number of queries whatever the size of the event (64 or 512 players)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.eventio import create_matches
from tournament.models import Event, EventRole, Match, Player, Round

pytestmark = pytest.mark.django_db

RESULTS_PAGE_QUERIES = 18


def big_event(organiser, n: int, slug: str) -> Event:
    event = Event.objects.create(slug=slug, name=f"{n} players", tiebreakers=["omw", "gw", "ogw"], planned_rounds=9)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=event, name=f"Player {i:04d}", rating=2000 - i) for i in range(n))
    rnd = Round.objects.create(event=event, number=1, state=Round.State.PAIRED)
    players = list(event.players.order_by("id"))
    create_matches(
        rnd,
        [Match(round=rnd, table=i // 2 + 1, player_a=players[i], player_b=players[i + 1]) for i in range(0, n, 2)],
    )
    # Half the results are in, so the page shows both kinds of rows.
    Match.objects.filter(round=rnd, table__lte=n // 4).update(games_a=2, games_b=1, games_drawn=0)
    return event


def count(client, path, **kw) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(path, **kw)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_results_page_query_count_does_not_grow(client, organiser, django_assert_max_num_queries):
    client.force_login(organiser)
    small, large = big_event(organiser, 64, "small"), big_event(organiser, 512, "large")
    counts = {}
    for event in (small, large):
        path = reverse("org_round", args=[event.slug, 1])
        with django_assert_max_num_queries(RESULTS_PAGE_QUERIES):
            assert client.get(path).status_code == 200
        counts[event.slug] = count(client, path)
    assert counts["small"] == counts["large"]
    # A large round opens on one range of tables (what needs a judge first); the full list is a click away.
    page = client.get(reverse("org_round", args=["large", 1])).content.decode()
    assert page.count('class="match') == 30 and "128 results outstanding" in page
    page = client.get(reverse("org_round", args=["large", 1]) + "?from=31").content.decode()
    assert 'id="m-' in page and "Tables 31–60" in page and "?from=1" in page and "?from=61" in page
    assert "128 of 256 stored" in page
    page = client.get(reverse("org_round", args=["large", 1]) + "?view=all").content.decode()
    assert page.count('class="match') == 256


def test_results_fragment_query_count_does_not_grow(client, organiser):
    client.force_login(organiser)
    big_event(organiser, 64, "small")
    big_event(organiser, 512, "large")
    hx = {"headers": {"HX-Request": "true"}}
    assert count(client, "/events/small/rounds/1/?outstanding=1", **hx) == count(
        client, "/events/large/rounds/1/?outstanding=1", **hx
    )
