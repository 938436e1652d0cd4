"""The rendering cache: one computation per key however many requests miss at once."""

import threading
import time

import pytest
from django.core.cache import cache
from django.test import Client

from tournament.pages.memo import cached, single_flight
from tournament.services.locks import changed
from tournament.services.results import Outcome, record_result
from tournament.services.standings import _settled_key, event_standings, settled_marker


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_concurrent_misses_compute_once():
    calls = []

    def make():
        calls.append(1)
        time.sleep(0.2)
        return "page"

    results = []
    threads = [threading.Thread(target=lambda: results.append(cached("k", make))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["page"] * 8
    assert len(calls) == 1


def test_different_keys_do_not_wait_for_each_other():
    started = time.monotonic()
    threads = [threading.Thread(target=cached, args=(f"k{n}", lambda n=n: time.sleep(0.3) or n)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.monotonic() - started < 1.0
    assert [cache.get(f"k{n}") for n in range(4)] == [0, 1, 2, 3]


def test_the_shared_lock_is_released_even_when_the_computation_fails():
    with pytest.raises(RuntimeError), single_flight("boom"):
        raise RuntimeError("the standings engine failed")
    assert cache.get("lock:boom") is None
    assert cached("boom", lambda: "recovered") == "recovered"


# --- A big page lags a fast-changing event by a bounded time (`public_cache.may_lag`) --------------


@pytest.fixture
def paired(event, organiser):
    from tests.web.public.test_public import ROUND_1, pair

    rnd = pair(event, 1, ROUND_1)
    return event, rnd.matches.get(table=1)


def store(match, organiser, games=(2, 0, 0)):
    from tournament.services.results import Outcome, record_result

    record_result(match, Outcome("played", games), organiser)


def every_page_may_lag(settings, seconds: int) -> None:
    """However small or quick a page, it may stand in for newer versions for `seconds`."""
    settings.PUBLIC_LAG_MIN_BYTES = 0
    settings.PUBLIC_LAG_FACTOR = 10_000
    settings.PUBLIC_LAG_MAX = seconds


def pairings(client, slug, **headers):
    return client.get(f"/e/{slug}/pairings/", **headers)


# A stored 2-0 as the pairings show it: the score between the two players, each row's player first.
WON, LOST = '<td class="score">2-0<', '<td class="score">0-2<'


@pytest.mark.django_db
def test_a_quick_page_is_always_exact(paired, organiser, client):
    """The default threshold: a small event's pages are small, and never lag however long they took."""
    event, match = paired
    first = pairings(client, event.slug)
    store(match, organiser)
    second = pairings(client, event.slug)
    assert second["ETag"] != first["ETag"]
    assert WON in second.content.decode()


@pytest.mark.django_db
def test_a_slow_page_stands_in_for_newer_versions_for_a_bounded_time(paired, organiser, client, settings):
    """Every page counts as slow here; it may lag for LAG_MAX seconds, then the next request renders anew."""
    every_page_may_lag(settings, seconds=1)
    event, match = paired
    first = pairings(client, event.slug)
    made = time.monotonic()
    store(match, organiser)

    # Within the window: the last rendering with its own ETag, so a phone holding it gets a 304.
    again = pairings(client, event.slug, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    lagging = pairings(client, event.slug)
    assert lagging["ETag"] == first["ETag"]
    assert WON not in lagging.content.decode()
    assert time.monotonic() - made < 1, "the machine was too slow for this test's window"

    time.sleep(1.05)
    fresh = pairings(client, event.slug, HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200
    assert fresh["ETag"] != first["ETag"]
    assert WON in fresh.content.decode()


@pytest.mark.django_db
def test_a_page_never_lags_into_being_hidden_or_shown(paired, organiser, client, settings):
    """Hiding an event changes who may see it and how it may be cached: no rendering from before stands in."""
    every_page_may_lag(settings, seconds=60)
    event, _match = paired
    client.force_login(organiser)
    first = pairings(client, event.slug)
    assert "private" not in first["Cache-Control"]
    event.public = False
    event.save(update_fields=["public"])
    changed(event)
    hidden = pairings(client, event.slug)
    assert hidden["ETag"] != first["ETag"]
    assert "private" in hidden["Cache-Control"]
    assert pairings(Client(), event.slug).status_code == 404


def test_a_request_that_need_not_wait_is_told_the_rendering_is_taken():
    """`wait=False`: taken in this process (a thread) or by another app server (the shared key) -> False."""
    with single_flight("a-key") as mine:
        assert mine
        seen = []
        t = threading.Thread(target=lambda: seen.append(_try("a-key")))
        t.start()
        t.join()
    assert seen == [False]
    cache.add("lock:b-key", 1, 30)  # another app server holds it
    assert _try("b-key") is False
    cache.delete("lock:b-key")
    assert _try("b-key") is True
    assert cache.get("lock:b-key") is None


def _try(key):
    with single_flight(key, wait=False) as mine:
        return mine


# --- The standings after a finished round are computed once while the next round's results come in ------


@pytest.mark.django_db
def test_settled_standings_carry_over_a_later_rounds_results_and_nothing_else(
    event, organiser, django_assert_num_queries
):
    from django.db.models import F

    from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
    from tournament.models import Event, Match, Player, Round

    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    rnd = pair(event, 2, ROUND_2)
    event.refresh_from_db()
    marker = settled_marker(event, 1)
    after_one = event_standings(event, after_round=1)
    key = _settled_key(event, 1)

    # Round-2 results: the marker for "after round 1" holds over their versions in every process. One
    # that stored none of them, whose cache holds only what it read before, still reads no query.
    for table in (1, 2):
        record_result(rnd.matches.get(table=table), Outcome("played", (2, 0, 0)), organiser)
    event.refresh_from_db()
    assert _settled_key(event, 1) == key
    assert _settled_key(event, 2).endswith(f":{event.version}:2")  # round 2's own: every version
    # (A fresh row each time: an event remembers the markers it was told, for the rest of its request.)
    cache.clear()
    cache.set(key, marker)
    fresh = Event.objects.get(pk=event.pk)
    with django_assert_num_queries(0):
        assert settled_marker(fresh, 1) == marker
    cache.clear()
    # Read again: nothing it is made of changed.
    assert settled_marker(Event.objects.get(pk=event.pk), 1) == marker
    assert event_standings(event, after_round=1) == after_one

    # A correction in round 1 changes the standings after round 1: a new marker, new standings.
    first = Match.objects.get(round__event=event, round__number=1, table=1)
    record_result(first, Outcome("played", (0, 2, 0)), organiser, expected_version=first.version, replace=True)
    event.refresh_from_db()
    assert _settled_key(event, 1) != key
    assert settled_marker(event, 1) != marker
    corrected = event_standings(event, after_round=1)
    assert corrected != after_one
    assert {r.player_id: r.points for r in corrected.rows}[first.player_b.key] == 3

    # Any other change (a renamed player here) is read again too.
    marker = settled_marker(event, 1)
    Player.objects.filter(pk=first.player_a_id).update(name="Renamed")
    changed(event)
    assert settled_marker(event, 1) != marker
    assert "Renamed" in {r.name for r in event_standings(event, after_round=1).rows}

    # A run of round-2 results is broken by any other bump, even one made past `touch` (a bare UPDATE).
    record_result(rnd.matches.get(table=3), Outcome("played", (2, 0, 0)), organiser)
    event.refresh_from_db()
    key = _settled_key(event, 1)
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
    event.refresh_from_db()
    assert _settled_key(event, 1) != key


@pytest.mark.django_db
def test_a_new_version_renders_only_the_rows_that_changed_and_never_serves_a_stale_row(paired, organiser, client):
    """Rows rendered before are reused (a 2048-row page renders only what a result changed), but never when
    something besides the row shapes its HTML: here a rename makes two names clash, so both get numbers."""
    from tournament.models import Player
    from tournament.pages import memo

    event, match = paired
    memo._row_memo.clear()  # noqa: SLF001
    pairings(client, event.slug)
    rendered = len(memo._row_memo)  # noqa: SLF001
    store(match, organiser)
    page = pairings(client, event.slug).content.decode()
    assert WON in page and LOST in page
    # The two players of the stored match got new rows (in both the page and the absent lists: none here).
    assert len(memo._row_memo) == rendered + 2  # noqa: SLF001

    c = Player.objects.get(event=event, name="Player C")
    d = Player.objects.get(event=event, name="Player D")
    Player.objects.filter(pk=d.pk).update(name="Player C")
    changed(event)
    page = pairings(client, event.slug).content.decode()
    assert f"Player C (#{c.number})" in page and f"Player C (#{d.number})" in page
