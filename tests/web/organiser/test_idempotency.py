"""A form submitted twice at the same moment does its work once, and a roster import
is one bulk write under one short lock, capped and size-limited.

The double clicks are real: two logged-in clients in two threads with their own database
connections, released together by a barrier (`at_once`).
"""

import threading
import time

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from swiss import eventfile as ef
from tests.web.organiser.test_concurrency import at_once, logged_in, published_round
from tournament.models import Event, EventLog, FormSubmission, Match, Player, Round
from tournament.services.clock import change_clock
from tournament.services.results import Outcome, record_result
from tournament.services.roster import NewPlayer, add_players
from tournament.snapshot import import_event

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HX-Request": "true"}


def same_session_twice(user) -> tuple[Client, Client]:
    """One browser sending one form twice: two connections sharing the session cookie."""
    first = logged_in(user)
    second = Client()
    second.cookies = first.cookies
    return first, second


def roster(event) -> list[str]:
    return sorted(event.players.values_list("name", flat=True))


# ---------------------------------------------------------------- the double click


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_quick_add_clicked_twice_at_once_adds_the_player_once(event, organiser, htmx):
    url = reverse("org_player_add", args=[event.slug])
    clients = same_session_twice(organiser)
    data = {"name": "Zoe Late, 1700", "once": "page-1-org_player_add"}
    responses = at_once(*(lambda c=c: c.post(url, data, headers=HX if htmx else {}) for c in clients))
    assert sorted(r.status_code for r in responses) == ([200, 200] if htmx else [302, 302])
    assert event.players.filter(name="Zoe Late").count() == 1
    assert event.players.count() == 9


def test_pasting_a_list_twice_at_once_adds_it_once(event, organiser):
    url = reverse("org_players_paste", args=[event.slug])
    data = {"lines": "Ann One, 1600\nBen Two\nCyd Three, 1400", "once": "page-2-org_players_paste"}
    responses = at_once(*(lambda c=c: c.post(url, data, follow=True) for c in same_session_twice(organiser)))
    assert [r.status_code for r in responses] == [200, 200]
    assert event.players.count() == 11
    texts = [r.content.decode() for r in responses]
    assert sum("Added 3 players" in t for t in texts) == 1
    assert sum("Those players were added already" in t for t in texts) == 1


def test_confirming_a_csv_import_from_four_tabs_at_once_imports_it_once(event, organiser):
    url = reverse("org_players_csv_confirm", args=[event.slug])
    text = "name,rating\n" + "".join(f"Import {i},{1000 + i}\n" for i in range(40))
    clients = [logged_in(organiser) for _ in range(4)]
    version = event.version
    responses = at_once(*(lambda c=c: c.post(url, {"text": text}, follow=True) for c in clients))
    assert [r.status_code for r in responses] == [200] * 4
    assert event.players.count() == 48
    texts = [r.content.decode() for r in responses]
    assert sum("Imported 40 players" in t for t in texts) == 1
    assert sum("imported already" in t for t in texts) == 3
    event.refresh_from_db()
    assert event.version == version + 1


def test_creating_an_event_twice_at_once_makes_one_event_and_both_land_on_it(organiser):
    url = reverse("org_event_new")
    data = {
        "name": "Saturday Open",
        "date": "2026-11-28",
        "preset": "mtg",
        "top_cut": 0,
        "round_minutes": 50,
        "once": "page-3-new",
    }
    responses = at_once(*(lambda c=c: c.post(url, data) for c in same_session_twice(organiser)))
    assert Event.objects.filter(name="Saturday Open").count() == 1
    event = Event.objects.get(name="Saturday Open")
    players = reverse("org_players", args=[event.slug])
    assert [(r.status_code, r["Location"]) for r in responses] == [(302, players), (302, players)]


def test_the_same_swap_clicked_twice_at_once_swaps_once(event, organiser):
    rnd = published_round(event)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.DRAFT)
    first, second = rnd.matches.order_by("table")[:2]
    before = {m.table: (m.player_a_id, m.player_b_id) for m in rnd.matches.all()}
    url = reverse("org_round_swap", args=[event.slug, 1])
    data = {"first": first.player_a_id, "second": second.player_a_id, "once": "page-4-org_round_swap"}
    at_once(*(lambda c=c: c.post(url, data) for c in same_session_twice(organiser)))
    after = {m.table: (m.player_a_id, m.player_b_id) for m in rnd.matches.all()}
    assert after[1] == (second.player_a_id, first.player_b_id)
    assert after[2] == (first.player_a_id, second.player_b_id)
    assert {t: after[t] for t in after if t > 2} == {t: before[t] for t in before if t > 2}
    assert EventLog.objects.filter(event=event, action="swap").count() == 1


def test_plus_five_minutes_clicked_twice_at_once_adds_five(event, organiser):
    rnd = published_round(event)
    change_clock(rnd, "start", organiser)
    url = reverse("org_round_clock", args=[event.slug, 1])
    data = {"action": "add", "minutes": 5, "once": "page-5-org_round_clock"}
    at_once(*(lambda c=c: c.post(url, data) for c in same_session_twice(organiser)))
    rnd.refresh_from_db()
    assert rnd.clock_minutes == event.round_minutes + 5


def test_a_submission_that_failed_can_be_sent_again(event, organiser, settings):
    """The token is claimed in the transaction that does the work: a refusal leaves it free."""
    settings.MAX_PLAYERS_PER_EVENT = 8
    c = logged_in(organiser)
    url = reverse("org_player_add", args=[event.slug])
    data = {"name": "Nina Ninth", "once": "page-6-org_player_add"}
    refused = c.post(url, data, headers=HX)
    assert b"at most 8 players" in refused.content and event.players.count() == 8
    assert not FormSubmission.objects.exists()
    settings.MAX_PLAYERS_PER_EVENT = 9
    c.post(url, data, headers=HX)
    c.post(url, data, headers=HX)
    assert event.players.filter(name="Nina Ninth").count() == 1


def test_two_different_pages_add_two_players(event, organiser):
    """Only a repeat of one page's form is one submission; the same name typed twice is two players."""
    c = logged_in(organiser)
    url = reverse("org_player_add", args=[event.slug])
    c.post(url, {"name": "Twin", "once": "page-7-org_player_add"}, headers=HX)
    r = c.post(url, {"name": "Twin", "once": "page-8-org_player_add"}, headers=HX)
    assert event.players.filter(name="Twin").count() == 2
    assert b"Another player has this name" in r.content


def test_every_form_that_creates_rows_carries_a_one_time_token(event, organiser):
    c = logged_in(organiser)
    players = c.get(reverse("org_players", args=[event.slug])).content.decode()
    assert players.count('name="once"') == 2  # quick add and paste; a CSV file is its own token
    # The new event form and the TRF and event-file uploads beside it.
    assert c.get(reverse("org_event_new")).content.decode().count('name="once"') == 3


# ---------------------------------------------------------------- the bulk import


@pytest.mark.needs_postgresql(reason="one INSERT per bulk write (SQLite splits one into batches of 999 parameters)")
def test_an_import_is_one_insert_and_one_change_whatever_its_size(event, organiser, django_assert_max_num_queries):
    version = event.version
    rows = [NewPlayer(name=f"Bulk {i}", rating=i) for i in range(2000)]
    # Measured: the same 13 queries for 5 rows as for 2000 (key, number and code each drawn in one query).
    with django_assert_max_num_queries(13):
        added, notes = add_players(event, organiser, rows)
    assert list(event.players.filter(pk__in=added).order_by("pk").values_list("name", flat=True)) == [
        f"Bulk {i}" for i in range(2000)
    ]
    event.refresh_from_db()
    assert event.version == version + 1 and event.players.count() == 2008
    assert notes == []


@pytest.mark.needs_postgresql(reason="one INSERT per bulk write (SQLite splits one into batches of 999 parameters)")
def test_a_late_import_records_the_missed_rounds_for_every_player(event, organiser, django_assert_max_num_queries):
    event.late_entry = Event.LateEntry.LOSSES
    event.save(update_fields=["late_entry"])
    first = published_round(event)
    for m in first.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    published_round(event, 2)
    # A fixed number of queries whatever the size of the import (keys, numbers and codes drawn in bulk), and of the
    # rounds missed: the losses' entries on the rounds' trails take one read of the new players and one insert.
    with django_assert_max_num_queries(18):
        added, notes = add_players(event, organiser, [NewPlayer(name=f"Late {i}") for i in range(300)])
    assert set(Player.objects.filter(pk__in=added).values_list("joined_round", flat=True)) == {3}
    losses = Match.objects.filter(player_a__in=added, result=Match.Result.LOSS)
    assert losses.count() == 600
    assert notes == ["300 players join late, from round 3.", "Unpaired losses recorded for rounds 1–2."]


def test_the_roster_cap_refuses_an_import_and_writes_nothing(event, organiser, settings):
    settings.MAX_PLAYERS_PER_EVENT = 20
    c = logged_in(organiser)
    text = "".join(f"Capped {i}\n" for i in range(13))
    r = c.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text}, follow=True)
    assert "An event holds at most 20 players; it has 8, so 13 more do not fit." in r.content.decode()
    assert event.players.count() == 8
    r = c.post(reverse("org_players_paste", args=[event.slug]), {"lines": text, "once": "x"}, follow=True)
    assert "at most 20 players" in r.content.decode() and event.players.count() == 8


def test_the_size_limit_holds_on_confirm_too(event, organiser, settings):
    settings.CSV_MAX_BYTES = 1000
    c = logged_in(organiser)
    text = "".join(f"Long Name Number {i}\n" for i in range(100))
    r = c.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text}, follow=True)
    assert "too large for a player list" in r.content.decode()
    assert event.players.count() == 8


def test_the_preview_of_a_big_file_shows_the_first_rows_and_counts_the_rest(event, organiser):
    from django.core.files.uploadedfile import SimpleUploadedFile

    c = logged_in(organiser)
    text = "name\n" + "".join(f"Row {i}\n" for i in range(3000)) + ",notanumber\n"
    upload = SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")
    r = c.post(reverse("org_players_csv", args=[event.slug]), {"file": upload})
    page = r.content.decode()
    assert "1 row cannot be imported" in page and "no name" in page
    assert "and 2501 more rows, not shown" in page
    assert 'enctype="multipart/form-data"' in page


@pytest.mark.needs_postgresql(reason="a row lock that holds one event and not another (SQLite locks the whole file)")
def test_an_import_holding_its_event_does_not_hold_another_event(event, organiser):
    """Only the importing event's row is locked: another event's entries go through meanwhile."""
    other = Event.objects.create(slug="other", name="Other")
    locked, release = threading.Event(), threading.Event()

    def hold_first_event():
        with transaction.atomic():
            Event.objects.select_for_update().get(pk=event.pk)
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold_first_event)
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        add_players(other, organiser, [NewPlayer(name=f"Other {i}") for i in range(500)])
        assert time.monotonic() - started < 5
        assert other.players.count() == 500
    finally:
        release.set()
        holder.join(10)


def test_a_file_with_only_a_header_adds_nobody_and_changes_nothing(event, organiser):
    version = event.version
    r = logged_in(organiser).post(
        reverse("org_players_csv_confirm", args=[event.slug]), {"text": "name,rating\n"}, follow=True
    )
    assert r.status_code == 200 and "Imported 0 players" in r.content.decode()
    event.refresh_from_db()
    assert event.players.count() == 8 and event.version == version


def test_an_event_file_over_the_roster_cap_is_refused_and_writes_nothing(settings):
    settings.MAX_PLAYERS_PER_EVENT = 1
    with pytest.raises(ef.EventFileError) as info:
        import_event(
            ef.loads(
                '{"format": "swiss-event", "version": 1, "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}'
            )
        )
    assert info.value.path == "players" and "at most 1" in str(info.value)
    assert Player.objects.count() == 0
