"""Files into an event on the web (docs/sections.md "Files"): a TRF file imported as a new section of an event
(named from the file or the form, numbered on in the venue's run, its start ranks kept as pairing numbers, the
venue's language, zone and visibility kept; a bad file refused with the reader's words and nothing stored), and a
swiss-event file of either version imported as a new event on the "New event" page, with a round trip: an event
with sections exported from the web and imported on the web has the same sections, players and standings."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import standings
from standings import points_by_player
from swiss import trf, venuefile
from swiss.numbers import pairing_numbers
from tests.engines.test_trf import blocks_of
from tests.web.jobs.test_jobs import work
from tests.web.sections.test_section_files import venue_text
from tournament.models import Event, EventRole, Job, Player
from tournament.services.event_files import import_file
from tournament.snapshot import event_to_file

pytestmark = pytest.mark.django_db

HELD = Path(__file__).parents[2] / "data" / "trf" / "held-exercises-2024.trf"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def import_trf(client: Client, event: Event, data: bytes, name: str = "", once: str = ""):
    form = {"file": SimpleUploadedFile("section.trf", data), "name": name, "once": once}
    return client.post(reverse("org_section_import_trf", args=[event.slug]), form)


def import_json(client: Client, text: str | bytes, once: str = ""):
    data = text.encode() if isinstance(text, str) else text
    return client.post(reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", data), "once": once})


def ranks(event: Event) -> list[tuple[int, str, str]]:
    """(rank, name, points) of the event's standings, as the engines compute them from the database."""
    doc = event_to_file(event)
    names = {p.id: p.name for p in doc.players}
    return [(r.rank, names[r.player_id], str(r.points)) for r in standings.compute(doc).rows]


# ---------------------------------------------------------------- a TRF file as a new section


def test_the_event_page_offers_a_trf_upload_for_a_new_section(organiser, venue):
    page = signed_in(organiser).get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_section_import_trf", args=[venue.slug]) in page and 'enctype="multipart/form-data"' in page
    # Its name field is told apart from the new section's (a screen reader, or a test, finds each by its label).
    assert page.count(">Section name</label>") == 1 and ">Name of the section from the file</label>" in page


def test_a_trf_becomes_a_section_named_from_its_file_numbered_on_in_the_venues_run(organiser, venue):
    Event.objects.filter(pk=venue.pk).update(language="ja", time_zone="Asia/Tokyo", public=False)
    r = import_trf(signed_in(organiser), venue, HELD.read_bytes())
    alone = trf.loads(HELD.read_bytes(), points_by_player)
    section = Event.objects.get(parent=venue, name=alone.settings.name)
    assert r.status_code == 302 and r.url == reverse("org_event", args=[section.slug])
    assert [s.name for s in Event.objects.get(pk=venue.pk).section_list] == ["A", "B", alone.settings.name]
    # The file's settings, the venue's language, zone and visibility.
    assert (section.preset, section.tiebreakers, section.planned_rounds) == ("chess", ["BH-C1", "BH", "SB", "DE"], 5)
    assert (section.language, section.time_zone, section.public) == ("ja", "Asia/Tokyo", False)
    # The venue's twelve players hold 1-12: the file's sixteen take 13-28, in start-rank order, and keep their
    # start ranks (their keys) as pairing numbers.
    players = list(section.players.order_by("number"))
    assert [p.number for p in players] == list(range(13, 29))
    assert [p.key for p in players] == [str(k) for k in range(1, 17)]
    assert pairing_numbers(event_to_file(section)) == {str(k): k for k in range(1, 17)}
    # The rounds and standings are the file's, and its TRF comes back as it went in.
    assert section.rounds.count() == 5
    names = {p.id: p.name for p in alone.players}
    assert ranks(section) == [(r.rank, names[r.player_id], str(r.points)) for r in standings.compute(alone).rows]
    got = signed_in(organiser).get(reverse("org_export_trf", args=[section.slug]))
    assert blocks_of(got.content.decode()) == blocks_of(HELD.read_text())


def test_a_name_typed_on_the_form_names_the_section(organiser, venue):
    import_trf(signed_in(organiser), venue, HELD.read_bytes(), name="  Open A  ")
    section = Event.objects.get(parent=venue, position=3)
    assert (section.name, section.slug) == ("Open A", "regionals-open-a")


def test_a_malformed_trf_is_refused_with_its_line_and_nothing_is_stored(organiser, venue):
    lines = HELD.read_text().splitlines()
    lines[8] = lines[8][:98] + "7" + lines[8][99:]  # round 1 result code 7
    r = import_trf(signed_in(organiser), venue, ("\n".join(lines) + "\n").encode(), name="Open")
    page = r.content.decode()
    assert "Nothing was imported: line 9: round 1: unknown result code &#x27;7&#x27;" in page
    assert 'value="Open"' in page  # the name as typed, to send again with a good file
    assert venue.sections.count() == 2 and Player.objects.count() == 12


def test_a_section_name_already_there_is_refused_and_nothing_is_stored(organiser, venue):
    r = import_trf(signed_in(organiser), venue, HELD.read_bytes(), name="A")
    assert "This event already has a section called “A”." in r.content.decode()
    assert venue.sections.count() == 2 and Player.objects.count() == 12


def test_an_event_running_one_swiss_is_split_and_its_players_wait_unplaced(organiser, event):
    r = import_trf(signed_in(organiser), event, HELD.read_bytes(), name="Open")
    section = Event.objects.get(parent=event)
    assert r.status_code == 302 and section.players.count() == 16
    # The event's eight players keep 1-8 and wait on it; the file's take 9-24.
    assert sorted(event.players.values_list("number", flat=True)) == list(range(1, 9))
    assert min(section.players.values_list("number", flat=True)) == 9


def test_a_judge_may_not_import_a_section_and_a_section_has_no_sections(organiser, judge, venue):
    assert import_trf(signed_in(judge), venue, HELD.read_bytes()).status_code == 403
    a = venue.sections.get(name="A")
    r = import_trf(signed_in(organiser), a, HELD.read_bytes())
    assert r.url == reverse("org_event", args=[venue.slug]) + "#sections"
    assert Event.objects.filter(parent=a).count() == 0 and venue.sections.count() == 2


def test_a_double_click_imports_the_section_once(organiser, venue):
    client = signed_in(organiser)
    first = import_trf(client, venue, HELD.read_bytes(), once="s1")
    again = import_trf(client, venue, HELD.read_bytes(), once="s1")
    assert again.status_code == 302 and again.url == first.url
    assert venue.sections.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_large_trf_makes_its_section_in_the_worker_and_the_event_page_follows_it(organiser, venue, settings):
    settings.JOBS_FROM = {"trf": 10}
    client = signed_in(organiser)
    r = import_trf(client, venue, HELD.read_bytes(), name="Open", once="j1")
    job = Job.objects.get(kind="trf")
    assert r.url == reverse("org_trf_job", args=[job.pk]) and job.event_id == venue.pk
    assert venue.sections.count() == 2  # nothing stored yet: the worker stores it
    assert import_trf(client, venue, HELD.read_bytes(), name="Open", once="j1").url == r.url
    assert (
        reverse("org_trf_job", args=[job.pk]) in client.get(reverse("org_event", args=[venue.slug])).content.decode()
    )  # the event page's job box follows it
    work()
    job.refresh_from_db()
    section = venue.sections.get(name="Open")
    assert job.state == "done" and job.event_id == section.pk
    assert [p.number for p in section.players.order_by("number")] == list(range(13, 29))
    assert client.get(r.url).url == reverse("org_event", args=[section.slug])


@pytest.mark.django_db(transaction=True)
def test_a_large_trf_whose_section_name_is_taken_fails_in_the_worker_and_stores_nothing(organiser, venue, settings):
    settings.JOBS_FROM = {"trf": 10}
    import_trf(signed_in(organiser), venue, HELD.read_bytes(), name="B")
    work()
    job = Job.objects.get(kind="trf")
    assert job.state == "failed" and "already has a section called “B”" in job.error
    assert venue.sections.count() == 2 and Player.objects.count() == 12


# ---------------------------------------------------------------- a swiss-event file as a new event


def test_the_new_event_page_offers_an_event_file_upload(organiser):
    page = signed_in(organiser).get(reverse("org_event_new")).content.decode()
    assert reverse("org_event_import_file") in page


def test_an_event_with_sections_exported_and_imported_on_the_web_comes_back_the_same(organiser):
    source = import_file(venuefile.loads(venue_text()))
    EventRole.objects.create(event=source, user=organiser, role=EventRole.Role.ORGANISER)
    Player.objects.create(event=source, name="Not Placed Yet", rating=1234)
    client = signed_in(organiser)
    exported = client.get(reverse("org_export_json", args=[source.slug])).content
    assert json.loads(exported)["version"] == 2

    r = import_json(client, exported)
    made = Event.objects.exclude(pk=source.pk).get(parent=None)
    assert r.status_code == 302 and r.url == reverse("org_event", args=[made.slug])
    assert made.slug != source.slug  # an address of its own, drawn as for any new event
    assert EventRole.objects.get(event=made).user == organiser
    assert (made.name, made.date) == (source.name, source.date)
    assert (
        [s.name for s in made.section_list]
        == [s.name for s in source.section_list]
        == [
            "Magic",
            "Backgammon",
            "Chess",
        ]
    )
    assert [s.slug for s in made.section_list] == [
        f"{made.slug}-magic",
        f"{made.slug}-backgammon",
        f"{made.slug}-chess",
    ]

    def players(event):
        return sorted(event.players.values_list("key", "name", "number", "rating"))

    assert players(made) == players(source)
    for was, now in zip(source.section_list, made.section_list, strict=True):
        assert players(now) == players(was) and now.rounds.count() == was.rounds.count() > 0
        assert ranks(now) == ranks(was)
    # And the imported event writes the same file again, but for its addresses.
    again = json.loads(client.get(reverse("org_export_json", args=[made.slug])).content)
    first = json.loads(exported)
    for doc in (again, first):
        doc.pop("slug")
        for s in doc["sections"]:
            s.pop("slug")
    assert again == first


def test_a_version_1_file_makes_an_event_the_uploader_organises(organiser):
    text = (Path(__file__).parents[2] / "data" / "seed002-hyogo.json").read_text(encoding="utf-8")
    r = import_json(signed_in(organiser), text)
    event = Event.objects.get()
    assert r.status_code == 302 and r.url == reverse("org_event", args=[event.slug])
    assert EventRole.objects.get(event=event).user == organiser and not event.sections.exists()
    assert event.players.count() == len(json.loads(text)["players"]) and event.rounds.exists()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d["sections"][1]["players"][3].update(rating=-5), "sections[1].players[3].rating: "),
        (lambda d: d["sections"][0].update(pair_with="Seniors"), "sections[0].pair_with: "),
        (lambda d: d.update(preset="chess"), "preset: "),
    ],
    ids=["a player's rating", "pair_with", "a section's key at the top"],
)
def test_a_bad_event_file_is_refused_with_its_json_path_and_nothing_is_stored(organiser, change, said):
    doc = json.loads(venue_text())
    change(doc)
    r = import_json(signed_in(organiser), json.dumps(doc))
    assert r.status_code == 400
    assert "Nothing was imported: " + said in r.content.decode()
    assert not Event.objects.exists() and not Player.objects.exists()


def test_a_file_that_is_not_json_is_refused(organiser):
    r = import_json(signed_in(organiser), b"012 Not JSON\n")
    assert r.status_code == 400 and "Nothing was imported: not valid JSON (line 1" in r.content.decode()
    assert not Event.objects.exists()


def test_an_account_that_may_not_create_events_may_not_import_one(outsider, settings):
    assert import_json(signed_in(outsider), venue_text()).status_code == 403
    assert not Event.objects.exists()
    settings.EVENT_CREATION = "open"
    assert import_json(signed_in(outsider), venue_text()).status_code == 302
    assert EventRole.objects.get(event__parent=None).user == outsider


def test_a_double_click_imports_the_file_once(organiser):
    client = signed_in(organiser)
    first = import_json(client, venue_text(), once="f1")
    again = import_json(client, venue_text(), once="f1")
    assert again.status_code == 302 and again.url == first.url
    assert Event.objects.filter(parent=None).count() == 1
