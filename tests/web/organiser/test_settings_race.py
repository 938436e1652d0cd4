"""A settings form saved after the event changed under it. Loaded before round 1
was paired and saved after, it once overwrote the initial colour (the TRF then said `XXC black1` while board 1
had number 1 as White, and the field was locked against repair) and saved a scoring change with no
confirmation and no log line. Now the save runs under the event's lock, re-validated as the event is now;
what others changed meanwhile is kept, and a field changed both here and there is asked about once."""

from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.i18n.test_l10n_inputs import fields
from tests.web.organiser.test_concurrency import at_once
from tournament.models import Event, EventLog
from tournament.services.rounds import pair_next_round
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db


def loaded_form(client: Client, event: Event) -> dict[str, list[str]]:
    body = client.get(reverse("org_settings", args=[event.slug])).content.decode()
    data = fields(body, "settings-form").data
    assert data.get("loaded"), "the form carries what it showed"
    return data | {"save": ["1"]}


def save(client: Client, event: Event, data: dict):
    return client.post(reverse("org_settings", args=[event.slug]), data)


def board_one_agrees_with_the_trf(event: Event) -> None:
    event.refresh_from_db()
    top = event.rounds.get(number=1).matches.get(table=1)
    first = event.players.get(name="Player A")
    white = "white" if top.player_a_id == first.pk else "black"
    assert event.initial_colour == white
    assert f"XXC {white}1" in event_to_trf(event)


@pytest.fixture
def desk(organiser):
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def chess(organiser):
    return new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEF")}, slug="c")


def test_a_form_loaded_before_pairing_keeps_the_colour_round_one_drew(desk, chess, organiser):
    for _ in range(4):  # the lot falls either way: each time the form's old "by lot" never overwrites it
        Event.objects.filter(pk=chess.pk).update(initial_colour="")
        chess.rounds.all().delete()
        stale = loaded_form(desk, chess)
        pair_next_round(chess, organiser)
        stale["name"] = ["Renamed Open"]
        assert save(desk, chess, stale).status_code == 302
        board_one_agrees_with_the_trf(chess)
        assert Event.objects.get(pk=chess.pk).name == "Renamed Open"


def test_a_scoring_change_from_a_form_loaded_before_pairing_asks_for_the_confirmation(desk, chess, organiser):
    stale = loaded_form(desk, chess)
    pair_next_round(chess, organiser)
    stale["win_points"] = ["3"]
    refused = save(desk, chess, stale)
    assert refused.status_code == 200 and "Tick to confirm" in refused.content.decode()
    chess.refresh_from_db()
    assert Fraction(chess.win_points) != 3 and not EventLog.objects.filter(action="settings_after_pairing").exists()
    again = fields(refused.content.decode(), "settings-form").data | {"save": ["1"], "confirm_locked": ["on"]}
    assert again["win_points"] == ["3"]  # what was typed is still in the form
    assert save(desk, chess, again).status_code == 302
    chess.refresh_from_db()
    assert Fraction(chess.win_points) == 3 and EventLog.objects.filter(action="settings_after_pairing").count() == 1
    board_one_agrees_with_the_trf(chess)


def test_two_organisers_keep_each_others_changes_and_a_clash_is_asked_once(desk, event, organiser):
    other = Client()
    other.force_login(organiser)
    mine, theirs = loaded_form(desk, event), loaded_form(other, event)
    theirs["name"], theirs["planned_rounds"] = ["Their name"], ["6"]
    assert save(other, event, theirs).status_code == 302
    mine["round_minutes"] = ["40"]  # not theirs: both changes are kept
    assert save(desk, event, mine).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.planned_rounds, event.round_minutes) == ("Their name", 6, 40)

    mine, theirs = loaded_form(desk, event), loaded_form(other, event)
    theirs["planned_rounds"] = ["7"]
    assert save(other, event, theirs).status_code == 302
    mine["planned_rounds"] = ["4"]  # the same field: asked, nothing lost
    refused = save(desk, event, mine)
    body = refused.content.decode()
    assert refused.status_code == 200 and "Changed by someone else since this page was loaded: Swiss rounds" in body
    event.refresh_from_db()
    assert event.planned_rounds == 7
    again = fields(body, "settings-form").data | {"save": ["1"]}
    assert again["planned_rounds"] == ["4"]
    assert save(desk, event, again).status_code == 302
    event.refresh_from_db()
    assert event.planned_rounds == 4


@pytest.mark.django_db(transaction=True)
def test_a_save_racing_the_pairing_of_round_one_never_corrupts_the_event(organiser):
    for trial in range(4):
        chess = new_chess_event(
            organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEF")}, slug=f"r{trial}"
        )
        client = Client()
        client.force_login(organiser)
        stale = loaded_form(client, chess)
        stale["win_points"] = ["3"]
        saved, paired = at_once(
            lambda c=client, e=chess, d=stale: save(c, e, d), lambda e=chess: pair_next_round(e, organiser)
        )
        assert not isinstance(paired, Exception), paired
        assert saved.status_code in (200, 302)
        board_one_agrees_with_the_trf(chess)
        chess.refresh_from_db()
        # Saved before the pairing (no confirmation needed), or refused after it: never saved unconfirmed and
        # unlogged after it.
        logged = EventLog.objects.filter(event=chess, action="settings_after_pairing").exists()
        assert not logged
        if Fraction(chess.win_points) == 3:
            assert saved.status_code == 302
