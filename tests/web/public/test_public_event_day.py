"""What a real event day showed on the public pages: which standings a page shows
mid-round, what a live update replaces, the end of the event, and the phone's small words."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.web.public.test_public import ALL_WON_BY_A, HTMX, ROUND_1, ROUND_2, pair, text, url
from tournament.models import Event, Match, Player, Round
from tournament.services.locks import changed
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import publish_round
from tournament.services.standings import standings_shown
from tournament.services.top_cut import final_places, final_placings, start_top_cut

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def points_of(body: str, name: str) -> str:
    return re.search(rf">{name}</a>.*?<td class=\"num\">([\d.]+)</td>", body, re.S).group(1)


# --- One rule for the standings every page shows ---------------------------------------------


@pytest.fixture
def bye_round(event):
    """Round 1 complete; round 2 published with a bye for Player H and no result in yet (7 players play)."""
    Player.objects.filter(event=event, name="Player G").update(dropped_after=1)
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(
        event,
        2,
        [("Player A", "Player C"), ("Player E", "Player B"), ("Player D", "Player F"), ("Player H", None)],
        state=Round.State.PAIRED,
    )
    event.refresh_from_db()
    return event


def test_a_bye_does_not_move_the_public_standings_before_the_round_is_complete(client, bye_round):
    shown = standings_shown(bye_round)
    assert (shown.standings.after_round, shown.playing, shown.entered, shown.total) == (1, 2, 0, 3)
    body = client.get(url("standings", bye_round)).content.decode()
    assert "Standings after round 1 · round 2 is being played" in body
    # H lost round 1 and has its round-2 bye: still 0 points where the public looks.
    assert points_of(body, "Player H") == "0"
    live = standings_shown(bye_round, live=True)
    assert live.live and live.label == "live: round 2, 0 of 3 results"
    assert {r.name: r.points for r in live.standings.rows}["Player H"] == 3


def test_every_page_uses_the_same_rule(client, organiser, bye_round):
    h = bye_round.players.get(name="Player H")
    player = text(client.get(url("player", bye_round, h.pk)))
    assert "Standings after round 1 · round 2 is being played" in player
    assert "Points 0" in player
    # The screen shows pairings mid-round; the printed standings (for the wall) follow the public rule.
    client.force_login(organiser)
    printed = text(client.get(reverse("org_print_standings", args=[bye_round.slug])))
    assert "after round 1" in printed
    # The organiser's own page shows the live figures, labelled as such.
    own = text(client.get(reverse("org_standings", args=[bye_round.slug])))
    assert "live: round 2, 0 of 3 results" in own


def test_the_standings_move_on_when_the_last_result_is_in(client, bye_round):
    rnd = bye_round.rounds.get(number=2)
    for m in rnd.matches.filter(player_b__isnull=False):
        record_result(m, Outcome("played", (2, 0, 0)), None)
    bye_round.refresh_from_db()
    shown = standings_shown(bye_round)
    assert (shown.standings.after_round, shown.playing, shown.label) == (2, None, "Standings after round 2")
    body = client.get(url("standings", bye_round)).content.decode()
    assert points_of(body, "Player H") == "3"


def test_before_any_complete_round_the_page_says_why_it_is_empty(client, event):
    pair(event, 1, ROUND_1, results={1: (2, 0, 0)})
    body = text(client.get(url("standings", event)))
    assert "Round 1 is being played: standings appear when all its results are in." in body


# --- A live update replaces everything it changes -------------------------------------------------


FRAGMENTS = {"home": "live", "pairings": "pairings", "standings": "standings", "bracket": "bracket", "screen": "board"}


def outside_fragment(client, event, name, *args) -> str:
    """The page with its polled part cut out: what a live update can never change."""
    full = client.get(url(name, event, *args)).content.decode()
    part = client.get(url(name, event, *args), **HTMX).content.decode()
    assert part.strip() and part.strip() in full, name
    return full.replace(part.strip(), "")


def test_a_live_update_replaces_everything_that_changes_on_every_polled_page(client, event):
    """Each state of an event day, each polled page: outside the replaced part nothing may differ."""
    Event.objects.filter(pk=event.pk).update(top_cut=4)
    event.refresh_from_db()
    a = event.players.get(name="Player A")
    steps = [
        lambda: pair(event, 1, ROUND_1, state=Round.State.PAIRED),
        lambda: Match.objects.filter(round__number=1, round__event=event).update(games_a=2, games_b=0, games_drawn=0),
        lambda: pair(event, 2, ROUND_2, state=Round.State.PAIRED),
        lambda: Match.objects.filter(round__number=2, round__event=event).update(games_a=2, games_b=1, games_drawn=0),
        lambda: start_top_cut(event, None),
    ]
    seen = {name: {outside_fragment(client, event, name)} for name in FRAGMENTS}
    seen["player"] = {outside_fragment(client, event, "player", a.pk)}
    for step in steps:
        step()
        changed(event)
        event.refresh_from_db()
        for name in FRAGMENTS:
            seen[name].add(outside_fragment(client, event, name))
        seen["player"].add(outside_fragment(client, event, "player", a.pk))
    for name, versions in seen.items():
        assert len(versions) == 1, f"{name}: a live update left something stale outside what it replaces"


def test_the_pairings_heading_is_inside_the_live_part(client, event):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, state=Round.State.PAIRED)
    part = client.get(url("pairings", event), **HTMX).content.decode()
    assert re.search(r"<h2[^>]*>Round 2</h2>", part)


# --- The phone's small words ----------------------------------------------------------------------


def test_one_point_is_singular(client, event):
    pair(
        event,
        1,
        [("Player A", "Player B"), ("Player C", "Player D")],
        state=Round.State.COMPLETE,
        results={1: (1, 1, 0), 2: (2, 0, 0)},
    )
    pair(event, 2, [("Player A", "Player C"), ("Player B", "Player D")], state=Round.State.PAIRED)
    body = client.get(url("pairings", event)).content.decode()
    row = re.search(r'<tr data-name="Player A">.*?</tr>', body, re.S).group(0)
    assert '<span class="pts">1 pt</span>' in row
    assert '<span class="pts">3 pts</span>' in row  # Player C
    row = re.search(r'<tr data-name="Player D">.*?</tr>', body, re.S).group(0)
    assert '<span class="pts">0 pts</span>' in row


def test_searching_for_a_dropped_player_says_they_dropped(client, event):
    Player.objects.filter(event=event, name="Player H").update(name="Bob O’Brien", dropped_after=1)
    late = Player.objects.create(event=event, name="Kim Late", joined_round=3)
    pair(event, 1, [*ROUND_1[:3], ("Player G", "Bob O’Brien")], state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, [("Player A", "Player C"), ("Player E", "Player G"), ("Player B", "Player D"), ("Player F", None)])
    # Typed on a phone with a straight apostrophe, registered with a curly one.
    found = text(client.get(url("pairings", event), {"q": "o'brien"}))
    assert "Bob O’Brien has dropped" in found
    assert "Nobody’s name contains" not in found
    assert "1 player matches" in found
    assert "Kim Late plays from round 3" in text(client.get(url("pairings", event), {"q": "kim"}))
    # Without a search the list is the round's players only; the others wait hidden for the browser's filter.
    body = client.get(url("pairings", event)).content.decode()
    assert '<tr data-name="Bob O’Brien" data-absent hidden>' in body
    assert f'data-name="{late.name}" data-absent hidden' in body


# --- The end of the event is a state ----------------------------------------------------------------


@pytest.fixture
def finished(event):
    """Three Swiss rounds, a top 4 played to the end: Player C wins the final against Player A."""
    Event.objects.filter(pk=event.pk).update(top_cut=4)
    event.refresh_from_db()
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    semis = start_top_cut(event, None)
    publish_round(semis, None)
    for m in semis.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), None)
    final = event.rounds.order_by("-number").first()
    m = final.matches.get()
    record_result(m, Outcome("played", (0, 2, 0) if m.player_a.name == "Player A" else (2, 0, 0)), None)
    event.refresh_from_db()
    return event


def test_the_winner_is_announced_on_every_public_page(client, finished):
    placings = final_placings(finished)
    winner = placings[0][1]
    assert "wins the event" in text(client.get(url("home", finished)))
    assert f"{winner.name} wins the event" in text(client.get(url("home", finished)))
    standings = text(client.get(url("standings", finished)))
    assert re.search(rf"Final placings 1?\s*{winner.name} winner", standings)
    assert "Swiss rounds · Standings after round 2" in standings
    screen = text(client.get(url("screen", finished)))
    assert "Final placings" in screen and f"{winner.name} wins the event" in screen
    page = text(client.get(url("player", finished, winner.pk)))
    assert f"{winner.name} wins the event." in page and "Swiss rank" in page
    second = placings[1][1]
    assert "Final place: 2" in text(client.get(url("player", finished, second.pk)))
    # Everybody has a final place: the top cut's, then the Swiss order.
    places = final_places(finished)
    assert sorted(places.values()) == list(range(1, finished.players.count() + 1))
    assert "<svg" in client.get(url("bracket", finished)).content.decode()
