"""Public pages: what each shows, who may see it, and the conditional-request contract that keeps polling cheap."""

import gzip
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from standings.format import format_number
from swiss.eventfile import loads
from tests.conftest import EXAMPLES, example_files
from tournament.models import Event, Match, Player, Round
from tournament.services.locks import changed
from tournament.snapshot import create_matches, import_event

pytestmark = pytest.mark.django_db

PAGES = ["home", "pairings", "standings", "screen", "bracket"]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def pair(event, number, pairs, state=Round.State.IN_PROGRESS, kind=Round.Kind.SWISS, results=None):
    """A round of `pairs` of player names (None for a bye); `results` maps table -> (a, b, d)."""
    rnd = Round.objects.create(event=event, number=number, state=state, kind=kind)
    by_name = {p.name: p for p in event.players.all()}
    matches = []
    for table, (a, b) in enumerate(pairs, start=1):
        games = (results or {}).get(table)
        matches.append(
            Match(
                round=rnd,
                table=table,
                player_a=by_name[a],
                player_b=by_name[b] if b else None,
                result=Match.Result.PLAYED if b else Match.Result.BYE,
                games_a=games[0] if games else None,
                games_b=games[1] if games else None,
                games_drawn=games[2] if games else None,
            )
        )
    create_matches(rnd, matches)
    changed(event)
    return rnd


ROUND_1 = [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", "Player H")]
ROUND_2 = [("Player A", "Player C"), ("Player E", "Player G"), ("Player B", "Player D"), ("Player F", "Player H")]
ALL_WON_BY_A = {1: (2, 0, 0), 2: (2, 1, 0), 3: (2, 0, 0), 4: (2, 1, 0)}


@pytest.fixture
def running(event):
    """Round 1 complete (A, C, E, G won), round 2 in progress, round 3 still a draft."""
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, results={1: (2, 1, 0)})
    pair(event, 3, [("Player A", "Player H")], state=Round.State.DRAFT)
    event.refresh_from_db()
    return event


def url(name, event, *args):
    return reverse(f"public:{name}", args=[event.slug, *args])


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- Who may see what -------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_for_anybody(client, running, page):
    response = client.get(url(page, running))
    assert response.status_code == 200
    assert running.name in response.content.decode()


@pytest.mark.parametrize("page", PAGES)
def test_hidden_event_is_404_for_anonymous_and_outsiders_but_shown_to_its_organiser(
    client, running, outsider, organiser, page
):
    Event.objects.filter(pk=running.pk).update(public=False)
    assert client.get(url(page, running)).status_code == 404
    client.force_login(outsider)
    assert client.get(url(page, running)).status_code == 404
    client.force_login(organiser)
    response = client.get(url(page, running))
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


def test_unknown_event_and_unknown_player_are_404(client, running, event):
    assert client.get("/e/no-such-event/").status_code == 404
    assert client.get(url("player", running, 999999)).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_writes_are_refused(client, running, page):
    assert client.post(url(page, running)).status_code == 405


def test_drafts_are_never_public(client, running):
    # Round 3 is a draft pairing A against H: neither the pairings, the player page nor the screen show it.
    assert "round 2" in text(client.get(url("pairings", running))).lower()
    a = running.players.get(name="Player A")
    page = text(client.get(url("player", running, a.pk)))
    assert "Round 2" in page and "Round 3" not in page
    assert "Round 2" in text(client.get(url("screen", running)))


# --- Conditional requests ----------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_unchanged_page_answers_304_with_one_query_and_no_body(client, running, page, django_assert_num_queries):
    first = client.get(url(page, running))
    etag = first["ETag"]
    assert first["Last-Modified"]
    assert "s-maxage" in first["Cache-Control"]  # kept by a shared cache a few seconds, then asked again
    assert "HX-Request" in first["Vary"]
    with django_assert_num_queries(1):
        again = client.get(url(page, running), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag


def test_a_change_to_the_event_changes_the_etag(client, running):
    before = client.get(url("pairings", running))["ETag"]
    changed(running)
    response = client.get(url("pairings", running), HTTP_IF_NONE_MATCH=before)
    assert response.status_code == 200
    assert response["ETag"] != before


def test_a_clock_change_is_a_new_version(client, running):
    before = client.get(url("home", running))
    rnd = running.rounds.get(number=2)
    rnd.clock_started = timezone.now()
    rnd.save(update_fields=["clock_started"])
    changed(running)
    after = client.get(url("home", running), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert b"data-deadline" in after.content


def test_fragment_and_page_have_different_etags(client, running):
    page = client.get(url("pairings", running))
    fragment = client.get(url("pairings", running), **HTMX)
    assert fragment.status_code == 200
    assert page["ETag"] != fragment["ETag"]
    assert b"<html" in page.content and b"<html" not in fragment.content
    assert fragment.content.lstrip().startswith(b'<section id="pairings"')
    # The page's ETag never makes the fragment request answer 304, and vice versa.
    assert client.get(url("pairings", running), HTTP_IF_NONE_MATCH=page["ETag"], **HTMX).status_code == 200


def test_history_restore_gets_the_whole_page(client, running):
    response = client.get(url("standings", running), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert b"<html" in response.content


def test_a_cached_rendering_costs_one_query(client, running, django_assert_num_queries):
    client.get(url("standings", running))
    with django_assert_num_queries(1):
        response = client.get(url("standings", running))
    assert response.status_code == 200
    assert b"Player A" in response.content


def test_gzip_when_the_client_accepts_it(client, running):
    plain = client.get(url("pairings", running))
    packed = client.get(url("pairings", running), HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert "Accept-Encoding" in packed["Vary"]


def test_pages_share_nothing_personal(client, running, organiser):
    client.force_login(organiser)
    response = client.get(url("pairings", running))
    body = response.content.decode()
    # Rendered once for everybody: no user name, no CSRF token, no cookie set. (It varies on the
    # Cookie header only for the visitor's language cookie: the same page as an anonymous visitor's.)
    assert "olga" not in body
    assert not re.search(r'X-CSRFToken": "[^"]', body) and "csrfmiddlewaretoken" not in body
    assert not response.cookies
    assert Client().get(url("pairings", running)).content.decode() == body


# --- What the pages show -----------------------------------------------------------------------------


def test_pairings_list_every_player_by_name_with_table_opponent_and_points(client, running):
    response = client.get(url("pairings", running))
    rows = re.findall(r'<tr data-name="([^"]+)">(.*?)</tr>', response.content.decode(), re.S)
    assert [name for name, _ in rows] == [f"Player {c}" for c in "ABCDEFGH"]
    cells = {name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).split() for name, html in rows}
    # Player B (0 points) is at table 3 against Player D (0 points); A (3) at table 1 against C (3).
    assert cells["Player B"][:6] == ["Player", "B", "0", "pts", "3", "Player"]
    assert cells["Player B"][6:9] == ["D", "0", "pts"]
    assert cells["Player A"][:5] == ["Player", "A", "3", "pts", "1"]
    # The score stands between the two players, the row's player first, and names the winner.
    assert "1 2-1 · Player A won Player C" in " ".join(cells["Player A"])
    assert "1 1-2 · Player A won Player A" in " ".join(cells["Player C"])


def test_pairings_search_without_javascript(client, running):
    response = client.get(url("pairings", running), {"q": "  player   f "})
    names = re.findall(r'<tr data-name="([^"]+)">', response.content.decode())
    assert names == ["Player F"]
    assert 'value="player f"' in response.content.decode()
    assert (
        re.findall(r'<tr data-name="([^"]+)">', client.get(url("pairings", running), {"q": "zz"}).content.decode())
        == []
    )


def test_search_ignores_case_and_accents(client, event):
    Player.objects.create(event=event, name="José Ñúñez")
    pair(event, 1, [("José Ñúñez", "Player A")])
    body = client.get(url("pairings", event), {"q": "jose nun"}).content.decode()
    assert re.findall(r'<tr data-name="([^"]+)">', body) == ["José Ñúñez"]


def test_byes_and_awarded_byes_are_listed(client, event):
    Player.objects.filter(name="Player H").update(byes=1)
    pairs = [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", None)]
    pair(event, 1, pairs, results={1: (2, 0, 0), 2: (1, 1, 1)})
    page = text(client.get(url("pairings", event)))
    assert "Player G 0 pts 4 Bye" in page
    assert "Player H 0 pts — Bye (awarded)" in page
    # Points are those going into the round, whatever results are in already.
    assert "Player A 0 pts 1 2-0 · Player A won Player B 0 pts" in page
    assert "Player C 0 pts 2 1-1-1 · Draw Player D 0 pts" in page


def test_pairing_points_are_the_standings_before_the_round(client, running):
    from standings import compute
    from tournament.snapshot import event_to_file

    body = client.get(url("pairings", running)).content.decode()
    before = {r.name: r.points for r in compute(event_to_file(running), after_round=1).rows}
    shown = dict(re.findall(r'<tr data-name="([^"]+)">.*?<span class="pts">(\d+) pts</span>', body, re.S))
    assert shown == {name: str(points) for name, points in before.items()}


def test_user_text_is_escaped(client, event):
    Player.objects.filter(name="Player A").update(name="<script>alert(1)</script>")
    pair(event, 1, [("<script>alert(1)</script>", "Player B")])
    for page in PAGES:
        body = client.get(url(page, event)).content.decode()
        assert "<script>alert(1)" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(url("pairings", event)).content.decode()


def test_seed002_standings_order_and_exact_percentages(client, db):
    event = import_event(loads((EXAMPLES / "seed002-hyogo.json").read_text()))
    body = client.get(url("standings", event)).content.decode()
    names = re.findall(r'<th scope="row"><a href="[^"]+">Player (\w)</a>', body)
    assert names == list("AEBGDFCH")
    # B's OMW is 5/9 and F's 499/900: shown to 4 decimals, as the seed requires.
    assert "55.5556%" in body and "55.4444%" in body
    assert "Standings after round 3" in body


def test_standings_paginate_and_find_a_player(client, db):
    event = Event.objects.create(slug="big", name="Big", tiebreakers=["omw", "gw", "ogw"])
    Player.objects.bulk_create(Player(event=event, name=f"Entrant {k:03d}") for k in range(250))
    pairs = [(f"Entrant {k:03d}", f"Entrant {k + 1:03d}") for k in range(0, 250, 2)]
    pair(event, 1, pairs, state=Round.State.COMPLETE, results=dict.fromkeys(range(1, 126), (2, 0, 0)))
    first = client.get(url("standings", event)).content.decode()
    assert first.count('<th scope="row">') == 100
    assert "page 1 of 3" in first
    third = client.get(url("standings", event), {"page": 3}).content.decode()
    assert third.count('<th scope="row">') == 50
    assert client.get(url("standings", event), {"page": "junk"}).status_code == 200
    found = client.get(url("standings", event), {"q": "entrant 201"}).content.decode()
    assert re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', found) == ["Entrant 201"]
    fragment = client.get(url("standings", event), {"page": 2}, **HTMX).content.decode()
    assert 'hx-get="/e/big/standings/?page=2"' in fragment


def test_standings_show_vectors_as_slashes(client, db):
    event = import_event(loads((EXAMPLES / "seed004-drawboss.json").read_text()))
    Event.objects.filter(pk=event.pk).update(tiebreakers=["buchholz_cuts"])
    event.refresh_from_db()
    body = client.get(url("standings", event)).content.decode()
    assert re.search(r'<td class="num tb">\d+(/\d+){2,}</td>', body)


def test_player_page_lists_matches_round_by_round(client, running):
    a = running.players.get(name="Player A")
    response = client.get(url("player", running, a.pk))
    page = text(response)
    assert re.search(r"Round 1 1 Player B won 2-0.*Round 2 1 Player C won 2-1", page)
    # Round 2 is still being played: the standings are those after round 1, labelled so (one win).
    assert "Standings after round 1 · round 2 is being played" in page
    assert "Points 3" in page
    assert re.search(r"Record W-L-D 1-0-0", page)
    c = running.players.get(name="Player C")
    assert f'href="{url("player", running, c.pk)}"' in response.content.decode()


def test_screen_shows_pairings_during_a_round_and_standings_between_rounds(client, running):
    during = text(client.get(url("screen", running)))
    assert "Round 2 · pairings by name" in during
    assert "Player B 3 v Player D" in during
    Match.objects.filter(round__event=running, round__number=2, games_a__isnull=True).update(
        games_a=2, games_b=0, games_drawn=0
    )
    changed(running)
    between = text(client.get(url("screen", running)))
    assert "Standings after round 2" in between
    assert re.search(r"1 Player E 6 2-0-0", between)


def test_home_has_the_current_round_the_clock_and_a_qr_code(client, running):
    rnd = running.rounds.get(number=2)
    rnd.clock_started = timezone.now() - timedelta(minutes=10)
    rnd.save(update_fields=["clock_started"])
    changed(running)
    body = client.get(url("home", running), HTTP_HOST="localhost").content.decode()
    assert "Round 2" in body
    deadline = int(re.search(r'data-deadline="(\d+)"', body).group(1))
    assert abs(deadline / 1000 - (rnd.clock_started + timedelta(minutes=rnd.clock_minutes)).timestamp()) < 1
    assert "<svg" in body and "http://localhost/e/friday/" in body


def test_paused_clock_shows_the_time_left(client, running):
    rnd = running.rounds.get(number=2)
    now = timezone.now()
    rnd.clock_started = now - timedelta(minutes=20)
    rnd.clock_paused_at = now - timedelta(minutes=5)
    rnd.save(update_fields=["clock_started", "clock_paused_at"])
    changed(running)
    body = client.get(url("pairings", running)).content.decode()
    assert 'data-left="2100"' in body and "35:00 (paused)" in body


def test_bracket_shows_the_top_cut_with_seeds_and_the_winner(client, running):
    Round.objects.filter(event=running).update(state=Round.State.COMPLETE)
    Match.objects.filter(games_a__isnull=True, player_b__isnull=False).update(games_a=2, games_b=0, games_drawn=0)
    Event.objects.filter(pk=running.pk).update(top_cut=2)
    running.refresh_from_db()
    changed(running)
    projected = text(client.get(url("bracket", running)))
    assert "If the Swiss rounds ended now" in projected and "1 Player A v 2 Player E" in projected
    Round.objects.filter(event=running, number=3).delete()
    pair(running, 3, [("Player A", "Player E")], kind=Round.Kind.ELIMINATION, results={1: (2, 1, 0)})
    page = text(client.get(url("bracket", running)))
    assert "Final" in page and "Winner: Player A" in page
    assert "Final placings Player A Player E" in page
    assert "Top cut" in text(client.get(url("pairings", running)))


def test_last_modified_is_the_events_last_change(client, running):
    from django.utils.http import parse_http_date

    response = client.get(url("standings", running))
    assert parse_http_date(response["Last-Modified"]) == int(running.updated_at.timestamp())
    since = client.get(url("standings", running), HTTP_IF_MODIFIED_SINCE=response["Last-Modified"])
    assert since.status_code == 304


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.stem)
def test_pairing_points_match_the_engine_for_every_example(client, db, path):
    from standings import compute
    from tournament.snapshot import event_to_file

    event = import_event(loads(path.read_text()))
    last = event.rounds.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    body = client.get(url("pairings", event)).content.decode()
    before = {r.name: r.points for r in compute(event_to_file(event), after_round=last.number - 1).rows}
    shown = dict(re.findall(r'<tr data-name="([^"]+)">.*?<span class="pts">([\d.]+) pts?</span>', body, re.S))
    assert shown
    assert shown == {name: format_number(before[name]) for name in shown}


@pytest.mark.parametrize("page", PAGES)
def test_rendering_a_page_takes_a_few_queries_whatever_the_event_size(client, db, page):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (16, 128):
        event = Event.objects.create(slug=f"e{size}", name=f"Event {size}", tiebreakers=["omw", "gw", "ogw"], top_cut=8)
        Player.objects.bulk_create(Player(event=event, name=f"P{k:03d}", byes=k % 5 == 0) for k in range(size))
        names = [f"P{k:03d}" for k in range(size) if k % 5]
        pairs = list(zip(names[::2], names[1::2], strict=False))
        pair(event, 1, pairs, state=Round.State.COMPLETE, results=dict.fromkeys(range(1, len(pairs) + 1), (2, 1, 0)))
        pair(event, 2, pairs, results={1: (0, 2, 0)})
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(page, Event.objects.get(pk=event.pk))).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 20
