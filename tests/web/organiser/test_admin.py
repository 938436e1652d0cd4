"""Django's admin, the superuser's escape hatch: what is changed there is changed for every page too."""

from fractions import Fraction

import pytest
from django.contrib import admin as django_admin
from django.contrib.messages.storage.fallback import FallbackStorage

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.admin import EventAdmin, MatchAdmin, PlayerAdmin
from tournament.models import Event, EventLog, Match, Player, Round
from tournament.services.results import Outcome, record_result
from tournament.services.rounds import pair_next_round
from tournament.services.standings import _settled_key, event_standings, settled_marker

pytestmark = pytest.mark.django_db


def test_a_change_in_the_admin_moves_the_event_on_as_the_apps_own_changes_do(event, organiser, rf, admin_user):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    rnd = pair(event, 2, ROUND_2)
    record_result(rnd.matches.get(table=1), Outcome("played", (2, 0, 0)), organiser)
    event.refresh_from_db()
    marker, key = settled_marker(event, 1), _settled_key(event, 1)
    request = rf.post("/admin/")
    request.user = admin_user

    # A player renamed in the admin, in the middle of a run of round-2 results: the standings after
    # round 1 name them anew, and every cached page and ETag of the old version is out of date.
    renamed = event.players.get(name="Player A")
    renamed.name = "Renamed In Admin"
    PlayerAdmin(Player, django_admin.site).save_model(request, renamed, None, True)
    event.refresh_from_db()
    assert _settled_key(event, 1) != key
    assert settled_marker(event, 1) != marker
    assert "Renamed In Admin" in {r.name for r in event_standings(event, after_round=1).rows}

    # A round-1 result changed in the admin (no audit there: the app's correction form keeps one).
    version = event.version
    first = Match.objects.get(round__event=event, round__number=1, table=1)
    first.games_a, first.games_b = 0, 2
    MatchAdmin(Match, django_admin.site).save_model(request, first, None, True)
    event.refresh_from_db()
    assert event.version == version + 1

    # The event's own form, loaded before results moved the version on, does not put it back.
    stale = Event.objects.get(pk=event.pk)
    record_result(rnd.matches.get(table=2), Outcome("played", (2, 1, 0)), organiser)
    now = Event.objects.get(pk=event.pk).version
    stale.name = "Renamed Event"
    EventAdmin(Event, django_admin.site).save_model(request, stale, None, True)
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.name, fresh.version) == ("Renamed Event", now + 1)
    assert _settled_key(fresh, 1).endswith(f":{fresh.version}:1")


def test_deleting_in_the_admin_moves_the_event_on(event, rf, admin_user):
    request = rf.post("/admin/")
    request.user = admin_user
    version = event.version
    PlayerAdmin(Player, django_admin.site).delete_model(request, event.players.get(name="Player H"))
    PlayerAdmin(Player, django_admin.site).delete_queryset(request, event.players.filter(name="Player G"))
    assert Event.objects.get(pk=event.pk).version == version + 2


def test_the_events_admin_form_shows_its_change_counters_without_letting_them_be_edited(event, admin_client):
    page = admin_client.get(f"/admin/tournament/event/{event.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not set(form.fields) & Event.CHANGE_FIELDS and "name" in form.fields


def admin_form(request, event, **changes):
    """The admin's own change form for `event` as loaded now, sent back with `changes`."""
    model_admin = EventAdmin(Event, django_admin.site)
    form_class = model_admin.get_form(request, event, change=True)
    loaded = form_class(instance=event)
    data = {}
    for name in loaded.fields:
        value = loaded[name].value()  # as the page shows it (a JSON field's text)
        if value is not None and value is not False:
            data[name] = value
    data.update(changes)
    form = form_class(data, instance=Event.objects.get(pk=event.pk))
    assert form.is_valid(), form.errors
    return model_admin, form


def test_the_admin_follows_the_settings_pages_rules_after_pairing(chess, organiser, rf, admin_user):
    request = rf.post("/admin/")
    request.user = admin_user
    request.session = {}
    request._messages = FallbackStorage(request)
    pair_next_round(chess, organiser)
    chess.refresh_from_db()
    drawn = chess.initial_colour
    assert "initial_colour" in EventAdmin(Event, django_admin.site).get_readonly_fields(request, chess)
    other = "black" if drawn == "white" else "white"
    model_admin, form = admin_form(request, chess, initial_colour=other, win_points="3", name="Renamed")
    model_admin.save_model(request, form.instance, form, True)
    chess.refresh_from_db()
    assert chess.initial_colour == drawn and chess.name == "Renamed" and Fraction(chess.win_points) == 3
    assert EventLog.objects.get(action="settings_after_pairing").detail["fields"] == ["win_points"]
