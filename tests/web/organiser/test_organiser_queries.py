"""The desk pages cost a constant number of queries whatever the size of the event (64 or 512 players)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournament.models import Event, EventRole, Match, Player, Report, Round
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db

RESULTS_PAGE_QUERIES = 17  # 15, and the round's explanation with its players' names (pages/why.py)


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


def with_reports(event: Event) -> Event:
    """Players' reports on the open half: tables stored from phones, waiting for the opponent, disputed."""
    matches = list(Match.objects.filter(round__event=event, games_a__isnull=True).order_by("table"))
    for m in matches[:4]:
        Match.objects.filter(pk=m.pk).update(games_a=2, games_b=0, games_drawn=0, entered_by_player=m.player_a)
    waiting, disputed = matches[4:14], matches[14:20]
    Report.objects.bulk_create(
        [Report(match=m, player=m.player_a, games_a=2, games_b=1, games_drawn=0) for m in waiting + disputed]
        + [Report(match=m, player=m.player_b, games_a=0, games_b=2, games_drawn=0) for m in disputed[:3]]
        + [Report(match=m, player=m.player_b, disputes=True) for m in disputed[3:]]
    )
    return event


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?view=all",
        "?view=disputed",
        "?view=waiting",
        "?view=attention",
        "?outstanding=1",
        "?from=31",
        "?q=Player+00",
    ],
)
def test_every_view_of_the_results_page_costs_the_same_queries_at_any_size(client, organiser, query):
    """A judge's phone at 2048 players; every view, with players' reports in every state."""
    client.force_login(organiser)
    small, large = with_reports(big_event(organiser, 64, "small")), with_reports(big_event(organiser, 512, "large"))
    counts = {event.slug: count(client, reverse("org_round", args=[event.slug, 1]) + query) for event in (small, large)}
    assert counts["small"] == counts["large"] <= RESULTS_PAGE_QUERIES, counts
    page = client.get(reverse("org_round", args=["large", 1]) + query).content.decode()
    assert "132 of 256 stored" in page and "6 disputed" in page and "10 waiting for the opponent" in page
    if query in ("", "?view=disputed", "?view=attention", "?view=all"):
        assert page.count('class="match state-disputed') == 6 and "that&#x27;s not right" in page


def test_a_one_click_result_answers_with_its_row_at_a_constant_cost(client, organiser):
    """The HTMX answer to a result button shows its row and the counts, not the whole default view again."""
    client.force_login(organiser)
    queries = {}
    for n, slug in ((64, "small"), (512, "large")):
        with_reports(big_event(organiser, n, slug))
        m = Match.objects.get(round__event__slug=slug, table=n // 4 + 10)  # waiting for the opponent
        url = reverse("org_match_result", args=[slug, 1, m.pk])
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(url, {"result": "2-1", "version": m.version}, headers={"HX-Request": "true"})
        assert response.status_code == 200
        queries[slug] = len(ctx.captured_queries)
        body = response.content.decode()
        assert body.count('class="match ') == 1 and f'id="m-{m.pk}"' in body and 'class="res chosen"' in body
        # The row's links are built from the round's address: they are the ones the URLconf names.
        assert f'action="{url}"' in body and f'href="{reverse("org_match", args=[slug, 1, m.pk])}"' in body
    assert queries["small"] == queries["large"], queries
