"""The public pairings of a round list every change made after it was published, oldest first, with the venue's
local time, what the table holds now and what it replaced, "changed by the organiser" and never who: at once,
however the page is kept (a version's rendering, a big page standing in for newer results). The phone of a
player whose table changed says it too; another player's phone does not."""

import re
import zoneinfo

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.public.test_public import ROUND_1, pair
from tournament.models import Event, Player, Round, RoundChange
from tournament.services.results import Outcome, correct_result, record_result
from tournament.services.rounds import publish_round, repair_round, swap_players

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).replace(" ,", ",").replace(" :", ":")


def pairings(client, event, **headers):
    return client.get(reverse("public:pairings", args=[event.slug]), **headers)


def local_time(event: Event, change: RoundChange) -> str:
    zone = zoneinfo.ZoneInfo(event.time_zone or "UTC")
    return f"{change.at.astimezone(zone):%H:%M}"


@pytest.fixture
def published(event):
    return pair(event, 1, ROUND_1, state=Round.State.PAIRED)


def swap_b_and_c(event, rnd, by):
    p = {x.name: x for x in event.players.all()}
    swap_players(rnd, p["Player B"], p["Player C"], by)
    return RoundChange.objects.get(event=event, kind="swap")


def test_a_swap_shows_on_the_public_pairings_at_once_with_what_it_replaced(event, published, organiser):
    client = Client()
    before = pairings(client, event)
    assert "Changes since this round was published" not in before.content.decode()
    change = swap_b_and_c(event, published, organiser)
    after = pairings(client, event, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    page = text(after)
    at = local_time(event, change)
    assert "Changes since this round was published" in page
    assert f"Table 1, {at}: Player A – Player C, was Player A – Player B, changed by the organiser." in page
    assert f"Table 2, {at}: Player B – Player D, was Player C – Player D, changed by the organiser." in page
    # Never who: the organiser's name, username or e-mail stays off the public page.
    assert organiser.username not in after.content.decode()
    # The poll's fragment carries it too (the part a phone replaces every 15 s).
    fragment = pairings(Client(), event, HTTP_HX_REQUEST="true").content.decode()
    assert 'class="trail"' in fragment and "<time datetime=" in fragment


def test_the_trail_is_never_a_stale_rendering_of_a_big_busy_page(event, published, organiser, settings):
    """Every page counts as big and slow here, so a rendering may stand in for newer results: never for a swap."""
    settings.PUBLIC_LAG_MIN_BYTES = 0
    settings.PUBLIC_LAG_FACTOR = 10_000
    settings.PUBLIC_LAG_MAX = 60
    client = Client()
    first = pairings(client, event)
    # A result stands in (the run of results the page may lag behind).
    record_result(published.matches.get(table=4), Outcome("played", (2, 0, 0)), organiser)
    assert pairings(client, event)["ETag"] == first["ETag"]
    # A correction does not: it is on the trail.
    m = published.matches.get(table=4)
    correct_result(m, Outcome("played", (0, 2, 0)), organiser, expected_version=m.version)
    page = pairings(client, event)
    assert page["ETag"] != first["ETag"]
    assert "Player G – Player H: result 2-0 corrected to 0-2 by the organiser." in text(page)


def test_a_swap_is_shown_at_once_on_a_big_busy_page_too(event, published, organiser, settings):
    settings.PUBLIC_LAG_MIN_BYTES = 0
    settings.PUBLIC_LAG_FACTOR = 10_000
    settings.PUBLIC_LAG_MAX = 60
    client = Client()
    first = pairings(client, event)
    swap_b_and_c(event, published, organiser)
    page = pairings(client, event)
    assert page["ETag"] != first["ETag"]
    assert "was Player A – Player B, changed by the organiser." in text(page)


def test_a_corrected_chess_result_is_said_as_chess_writes_it_in_the_venue_s_time(organiser):
    e = new_chess_event(organiser, {"Ann": 2000, "Bob": 1900, "Cid": 1800, "Dan": 1700}, time_zone="Asia/Tokyo")
    rnd = pair(e, 1, [("Ann", "Bob"), ("Cid", "Dan")], state=Round.State.PAIRED)
    m = rnd.matches.get(table=2)
    record_result(m, Outcome("played", (1, 0, 0)), organiser)
    m.refresh_from_db()
    correct_result(m, Outcome("played", (0, 0, 1)), organiser, expected_version=m.version)
    change = RoundChange.objects.get(event=e)
    page = text(pairings(Client(), e))
    assert f"Table 2, {local_time(e, change)}: Cid – Dan: result 1-0 corrected to ½-½ by the organiser." in page


def test_a_re_pairing_shows_each_table_it_changed_once_published_again(event, published, organiser):
    new = repair_round(published, organiser)
    # A draft: the public pages still show no round 1, and so no trail.
    assert "Changes since" not in pairings(Client(), event).content.decode()
    publish_round(new, organiser)
    change = RoundChange.objects.get(event=event, kind="repair")
    page = text(pairings(Client(), event))
    now = {(m.table, m.player_a.name, m.player_b.name) for m in new.matches.select_related("player_a", "player_b")}
    was = dict(enumerate(ROUND_1, start=1))
    for table, a, b in sorted(now):
        if (a, b) != was[table]:
            old = " – ".join(was[table])
            expected = f"Table {table}, {local_time(event, change)}: {a} – {b}, was {old}, changed by the organiser."
            assert expected in page


def test_the_trail_speaks_the_reader_s_language(event, published, organiser):
    swap_b_and_c(event, published, organiser)
    ja = text(pairings(Client(), event, HTTP_ACCEPT_LANGUAGE="ja"))
    da = text(pairings(Client(), event, HTTP_ACCEPT_LANGUAGE="da"))
    assert "公開後の変更" in ja and "Player A – Player C" in ja and "主催者" in ja
    assert "Ændringer siden runden blev offentliggjort" in da and "ændret af arrangøren" in da


def phone(event, name: str) -> Client:
    p = Player.objects.get(event=event, name=name)
    c = Client()
    assert c.get(reverse("player:link", args=[event.slug, p.pk, p.token])).status_code == 302
    return c


def test_the_phone_of_a_player_whose_table_changed_says_so_and_no_other(event, published, organiser):
    b, e = phone(event, "Player B"), phone(event, "Player E")
    before = b.get(reverse("player:me", args=[event.slug]))
    change = swap_b_and_c(event, published, organiser)
    page = text(b.get(reverse("player:me", args=[event.slug]), HTTP_IF_NONE_MATCH=before.get("ETag", "")))
    at = local_time(event, change)
    assert "Changed after publication" in page
    assert f"Round 1 · Table 1, {at}: Player A – Player C, was Player A – Player B, changed by the organiser." in page
    assert f"Table 2, {at}: Player B – Player D, was Player C – Player D" in page
    assert "Changed after publication" not in text(e.get(reverse("player:me", args=[event.slug])))


def test_the_public_page_of_a_player_whose_table_changed_says_so(event, published, organiser):
    change = swap_b_and_c(event, published, organiser)
    b = Player.objects.get(event=event, name="Player B")
    page = text(Client().get(reverse("public:player", args=[event.slug, b.pk])))
    assert f"Round 1 · Table 1, {local_time(event, change)}: Player A – Player C, was Player A – Player B" in page
    e = Player.objects.get(event=event, name="Player E")
    assert "Changed after publication" not in text(Client().get(reverse("public:player", args=[event.slug, e.pk])))
