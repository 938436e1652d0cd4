"""Times in the venue's time zone: the server's `TIME_ZONE`, or the event's own, on every page of
the event (organiser and public); the database keeps UTC."""

import datetime as dt
import json
import re

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils import timezone

from swiss import eventfile as ef
from tests.web.i18n.test_l10n_inputs import fields
from tests.web.public.test_public import ROUND_1, pair
from tournament import snapshot
from tournament.models import Event, EventLog, Match, ResultChange
from tournament.settings import env_time_zone
from tournament.text import engine_text

# 01:05 UTC is 10:05 in Tokyo (UTC+9) and 02:05 in Copenhagen in December (UTC+1).
AT = dt.datetime(2026, 12, 6, 1, 5, tzinfo=dt.UTC)
LOCAL = {"Asia/Tokyo": "10:05", "Europe/Copenhagen": "02:05", "UTC": "01:05"}


def logged(event):
    EventLog.objects.create(event=event, action="publish", detail={"round": 1}, at=AT)


@pytest.mark.django_db
@pytest.mark.parametrize("zone", ["Asia/Tokyo", "Europe/Copenhagen"])
def test_recent_actions_read_in_the_events_time_zone(client, organiser, event, zone):
    event.time_zone = zone
    event.save()
    logged(event)
    client.force_login(organiser)
    body = client.get(reverse("org_event", args=[event.slug])).content.decode()
    assert f"{LOCAL[zone]} · " in body and "01:05 · " not in body


@pytest.mark.django_db
@pytest.mark.parametrize("zone", ["Asia/Tokyo", "Europe/Copenhagen"])
def test_an_event_without_its_own_zone_reads_the_servers(client, organiser, event, settings, zone):
    settings.TIME_ZONE = zone
    logged(event)
    client.force_login(organiser)
    body = client.get(reverse("org_event", args=[event.slug])).content.decode()
    assert f"{LOCAL[zone]} · " in body


@pytest.mark.django_db
def test_a_results_history_and_the_public_clock_read_in_the_events_zone(client, organiser, event):
    event.time_zone = "Asia/Tokyo"
    event.save()
    rnd = pair(event, 1, ROUND_1)
    rnd.clock_started, rnd.clock_minutes = AT, 50
    rnd.save()
    client.force_login(organiser)
    match = Match.objects.get(round=rnd, table=1)
    ResultChange.objects.create(
        match=match, before={"games": [2, 1, 0]}, after={"games": [2, 0, 0]}, by=organiser, at=AT
    )
    body = client.get(reverse("org_round", args=[event.slug, 1])).content.decode()
    assert "10:05 · olga" in body
    # The clock ends at 01:55 UTC: 10:55 at the venue.
    body = client.get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert "10:55" in body and "01:55" not in body


@pytest.mark.django_db
def test_the_zone_is_the_events_for_its_request_only(client, organiser, event):
    event.time_zone = "Asia/Tokyo"
    event.save()
    client.force_login(organiser)
    client.get(reverse("org_event", args=[event.slug]))
    assert timezone.get_current_timezone_name() == settings.TIME_ZONE


@pytest.mark.django_db
def test_the_settings_page_saves_a_time_zone_and_refuses_an_unknown_one(client, organiser, event):
    client.force_login(organiser)
    url = reverse("org_settings", args=[event.slug])
    body = client.get(url).content.decode()
    assert '<option value="Asia/Tokyo">Japan (Asia/Tokyo)</option>' in body
    assert '<option value="America/Chicago">America/Chicago</option>' in body
    data = fields(body, "settings-form").data
    data.update(time_zone=["Europe/Copenhagen"], save=["1"])
    assert client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.time_zone == "Europe/Copenhagen"
    data.update(time_zone=["Mars/Olympus_Mons"])
    response = client.post(url, data)
    assert response.status_code == 200 and "Mars/Olympus_Mons" in response.content.decode()
    event.refresh_from_db()
    assert event.time_zone == "Europe/Copenhagen"


@pytest.mark.django_db
def test_the_event_file_carries_the_time_zone_both_ways(event):
    event.time_zone = "Asia/Tokyo"
    event.save()
    doc = json.loads(ef.dumps(snapshot.event_to_file(event)))
    assert doc["time_zone"] == "Asia/Tokyo"
    assert ef.loads(json.dumps(doc)).settings.time_zone == "Asia/Tokyo"
    del doc["time_zone"]
    assert ef.loads(json.dumps(doc)).settings.time_zone == ""  # the key is optional
    doc["time_zone"] = "Tokyo"
    with pytest.raises(ef.EventFileError) as refused:
        ef.loads(json.dumps(doc))
    assert refused.value.path == "time_zone"
    assert engine_text.translate(refused.value.message) == (
        'unknown time zone "Tokyo"; a name such as Asia/Tokyo or Europe/Copenhagen'
    )


def test_the_servers_time_zone_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("TIME_ZONE", "Asia/Tokyo")
    assert env_time_zone("TIME_ZONE", "UTC") == "Asia/Tokyo"
    monkeypatch.setenv("TIME_ZONE", "")
    assert env_time_zone("TIME_ZONE", "UTC") == "UTC"
    monkeypatch.setenv("TIME_ZONE", "Copenhagen")
    with pytest.raises(ImproperlyConfigured, match="time zone name such as Europe/Copenhagen"):
        env_time_zone("TIME_ZONE", "UTC")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("ja", "日本（Asia/Tokyo）", "デンマーク（Europe/Copenhagen）"),
        ("da", "Danmark (Europe/Copenhagen)", "Japan (Asia/Tokyo)"),
    ],
)
def test_the_venues_zones_come_first_named_in_the_readers_language(client, organiser, event, language, first, second):
    client.force_login(organiser)
    body = client.get(reverse("org_settings", args=[event.slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    select = body[body.index('name="time_zone"') : body.index("</select>", body.index('name="time_zone"'))]
    options = re.findall(r"<option[^>]*>([^<]*)</option>", select)
    assert options[1:3] == [first, second]
    assert options.count("Asia/Tokyo") == 0 and len(options) > 300  # every other zone after them, once


@pytest.mark.django_db
def test_a_new_event_starts_in_the_organisers_language_and_last_venues_zone(client, organiser):
    client.force_login(organiser)
    data = {"name": "Kyoto Open", "date": "2026-12-05", "preset": "mtg", "top_cut": 0, "round_minutes": 50}
    assert client.post(reverse("org_event_new"), data, HTTP_ACCEPT_LANGUAGE="ja").status_code == 302
    first = Event.objects.get(name="Kyoto Open")
    assert (first.language, first.time_zone) == ("ja", "Asia/Tokyo")  # no venue yet: the language's venues'
    Event.objects.filter(pk=first.pk).update(time_zone="Asia/Seoul")
    data["name"] = "Osaka Open"
    assert client.post(reverse("org_event_new"), data, HTTP_ACCEPT_LANGUAGE="ja").status_code == 302
    second = Event.objects.get(name="Osaka Open")
    assert (second.language, second.time_zone) == ("ja", "Asia/Seoul")  # the last venue's, once there is one
    data["name"] = "Aarhus Open"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    assert client.post(reverse("org_event_new"), data).status_code == 302
    assert Event.objects.get(name="Aarhus Open").language == "da"


def zone_select(body: str) -> str:
    at = body.index('name="time_zone"')
    return body[body.rindex("<select", 0, at) : body.index("</select>", at)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "zone"), [("ja", "Asia/Tokyo"), ("da", "Europe/Copenhagen"), ("en", "")], ids=["ja", "da", "en"]
)
def test_the_new_event_form_shows_the_zone_it_starts_in(client, organiser, language, zone):
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    select = zone_select(client.get(reverse("org_event_new")).content.decode())
    assert f'<option value="{zone}" selected>' in select
    # English names no venue's zone: the page's script offers the browser's (static/js/organiser.js).
    assert ("data-browser-zone" in select) is (zone == "")
    data = {"name": "Open", "date": "2026-12-05", "preset": "mtg", "top_cut": 0, "round_minutes": 50}
    assert client.post(reverse("org_event_new"), {**data, "time_zone": "America/New_York"}).status_code == 302
    assert Event.objects.get(name="Open").time_zone == "America/New_York"
    # Now the organiser has a venue: its zone comes first, whatever the language, and no browser's zone is offered.
    select = zone_select(client.get(reverse("org_event_new")).content.decode())
    assert '<option value="America/New_York" selected>' in select and "data-browser-zone" not in select


@pytest.mark.django_db
def test_a_new_event_form_refuses_an_unknown_zone(client, organiser):
    client.force_login(organiser)
    data = {"name": "Open", "date": "2026-12-05", "preset": "mtg", "top_cut": 0, "round_minutes": 50}
    assert client.post(reverse("org_event_new"), {**data, "time_zone": "Mars/Olympus"}).status_code == 200
    assert not Event.objects.filter(name="Open").exists()


@pytest.mark.django_db
def test_a_sections_zone_is_the_events_and_its_log_agrees(client, organiser, venue):
    client.force_login(organiser)
    a = venue.section_list[0]
    assert 'name="time_zone"' not in client.get(reverse("org_settings", args=[a.slug])).content.decode()
    data = fields(client.get(reverse("org_settings", args=[venue.slug])).content.decode(), "settings-form").data
    data.update(time_zone=["Asia/Tokyo"], save=["1"])
    assert client.post(reverse("org_settings", args=[venue.slug]), data).status_code == 302
    assert set(venue.sections.values_list("time_zone", flat=True)) == {"Asia/Tokyo"}
    # An action at the section is logged at the event: both pages show it at the same local time.
    EventLog.objects.create(event=venue, action="section_add", detail={"section": a.name}, at=AT)
    for slug in (venue.slug, a.slug):
        body = client.get(reverse("org_event", args=[slug])).content.decode()
        assert "01:05" not in body
    assert "10:05" in client.get(reverse("org_event", args=[venue.slug])).content.decode()
