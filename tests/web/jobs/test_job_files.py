"""Large imports, exports and prints as jobs (tournament/jobs/files.py, views/jobs.py): the request answers at once,
the page follows the job, a second click starts no second job, a failure says why and stores nothing, and what an
export or a print made is kept for download, bounded and cleaned up. The limits are lowered so that small files
are "large" here; the real worker (as `db_worker --batch` runs it, tests/web/jobs/test_jobs.py's `work`) runs them."""

import base64
import gzip
import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from tests.conftest import new_chess_event
from tests.web.jobs.test_jobs import mtg_event, work
from tournament.jobs import workflow as jobs
from tournament.jobs.files import players_payload
from tournament.models import Event, EventRole, Job

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def small_jobs(settings):
    settings.JOBS_FROM = {"players": 5, "trf": 10, "export": 10, "crosstable": 10, "cards": 5}


def roster(n: int, start: int = 0) -> str:
    return "name,rating\n" + "".join(f"Entrant {i:03d},{1500 + i}\n" for i in range(start, start + n))


def confirm(client, event, text: str):
    return client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text})


def test_a_large_csv_import_is_stored_by_the_worker_and_the_roster_follows_it(client, organiser, small_jobs):
    event = mtg_event(organiser, 0)
    client.force_login(organiser)
    r = confirm(client, event, roster(8))
    assert r.status_code == 302 and r.url == reverse("org_players", args=[event.slug])
    assert not event.players.exists()  # answered before anything was stored
    job = Job.objects.get(event=event)
    assert (job.kind, job.state, job.round_number) == ("players", "queued", 0)
    page = client.get(r.url).content.decode()
    assert "Import players…" in page and "Waiting for the worker…" in page

    r = confirm(client, event, roster(8))  # the second click
    assert "imported already" in client.get(r.url).content.decode()
    assert Job.objects.count() == 1

    work()
    job.refresh_from_db()
    assert job.state == "done" and job.payload == "" and job.progress == "Imported 8 players."
    assert event.players.count() == 8
    r = client.get(reverse("org_job", args=[event.slug]) + f"?job={job.pk}", headers={"HX-Request": "true"})
    assert r.headers["HX-Redirect"] == reverse("org_players", args=[event.slug])
    assert "Imported 8 players." in client.get(reverse("org_players", args=[event.slug])).content.decode()


def test_a_small_import_stays_in_the_request(client, organiser, small_jobs):
    event = mtg_event(organiser, 0)
    client.force_login(organiser)
    confirm(client, event, roster(3))
    assert event.players.count() == 3 and not Job.objects.exists()


def test_a_large_pasted_list_is_a_job_too(client, organiser, small_jobs):
    event = mtg_event(organiser, 0)
    client.force_login(organiser)
    lines = "\n".join(f"Pasted {i}" for i in range(6))
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": lines, "once": "k1"})
    assert r.url == reverse("org_players", args=[event.slug]) and not event.players.exists()
    work()
    assert sorted(event.players.values_list("name", flat=True)) == [f"Pasted {i}" for i in range(6)]


def test_a_failing_import_says_why_in_the_organisers_language_and_stores_nothing(client, organiser, settings):
    settings.MAX_PLAYERS_PER_EVENT = 10
    event = mtg_event(organiser, 4)
    with translation.override("da"):
        job = jobs.start(event, Job.Kind.PLAYERS, 0, organiser, payload=players_payload("csv", roster(8)))
    work()  # 4 + 8 > 10: refused under the event's lock
    job.refresh_from_db()
    with translation.override("da"):
        expected = gettext(
            "An event holds at most %(cap)s players; it has %(have)s, so %(adding)s more do not fit."
        ) % {"cap": 10, "have": 4, "adding": 8}
    assert job.state == "failed" and job.error == expected and not expected.startswith("An event")
    assert event.players.count() == 4 and job.payload  # kept, to run again
    client.force_login(organiser)
    page = client.get(reverse("org_players", args=[event.slug])).content.decode()
    assert "Import players: failed" in page and "Run again</button>" in page


def test_a_job_busy_with_the_event_refuses_a_second_kind_and_keeps_the_file(client, organiser, small_jobs):
    event = mtg_event(organiser, 12)
    client.force_login(organiser)
    client.post(reverse("org_job_start", args=[event.slug, "export"]))
    r = confirm(client, event, roster(8))
    assert "The worker is busy with this event already" in client.get(r.url).content.decode()
    assert Job.objects.count() == 1
    work()
    r = confirm(client, event, roster(8))  # the same file, confirmed again once the worker is free
    assert Job.objects.filter(kind="players").count() == 1


def test_the_event_file_is_made_by_the_worker_and_kept_for_download(client, organiser, judge, small_jobs):
    event = mtg_event(organiser, 12)
    EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    client.force_login(organiser)
    url = reverse("org_export_json", args=[event.slug])
    page = client.get(url).content.decode()
    assert "Make it</button>" in page and not Job.objects.exists()  # a GET starts nothing
    r = client.post(reverse("org_job_start", args=[event.slug, "export"]))
    job = Job.objects.get()
    assert r.url == reverse("org_job_page", args=[event.slug, job.pk])
    client.post(reverse("org_job_start", args=[event.slug, "export"]))  # the second click
    assert Job.objects.count() == 1
    work()
    job.refresh_from_db()
    assert job.state == "done" and job.result_name == f"{event.slug}.json"
    page = client.get(r.url).content.decode()
    download = reverse("org_job_download", args=[event.slug, job.pk])
    assert download in page and "Download" in page
    got = client.get(download)
    assert got["Content-Disposition"] == f'attachment; filename="{event.slug}.json"'
    doc = json.loads(got.content)
    assert len(doc["players"]) == 12
    assert len(gzip.decompress(bytes(job.result))) == len(got.content) > len(bytes(job.result))
    client.force_login(judge)  # a judge may download the event file (as in the request), not the cards
    assert client.get(download).status_code == 200
    cards = jobs.start(event, Job.Kind.CARDS, 0, organiser)
    work()
    assert client.get(reverse("org_job_download", args=[event.slug, cards.pk])).status_code == 403
    assert client.get(reverse("org_job_page", args=[event.slug, cards.pk])).status_code == 404


def test_the_event_file_of_an_event_with_sections_is_one_version_2_file_from_the_worker(
    client, organiser, venue, small_jobs
):
    client.force_login(organiser)
    assert "Make it</button>" in client.get(reverse("org_export_json", args=[venue.slug])).content.decode()
    client.post(reverse("org_job_start", args=[venue.slug, "export"]))
    work()
    job = Job.objects.get()
    doc = json.loads(client.get(reverse("org_job_download", args=[venue.slug, job.pk])).content)
    assert (doc["version"], [s["name"] for s in doc["sections"]]) == (2, ["A", "B"])
    assert [len(s["players"]) for s in doc["sections"]] == [6, 6]


def test_a_small_event_file_is_still_downloaded_at_once(client, organiser, event):
    client.force_login(organiser)
    r = client.get(reverse("org_export_json", args=[event.slug]))
    assert r["Content-Type"] == "application/json" and not Job.objects.exists()


def test_every_player_card_in_one_file(client, organiser, outsider, small_jobs):
    event = mtg_event(organiser, 12)
    client.force_login(organiser)
    assert "Make it</button>" in client.get(reverse("org_print_cards", args=[event.slug])).content.decode()
    assert "Player 0011" in client.get(reverse("org_print_cards", args=[event.slug]) + "?part=1").content.decode()
    client.post(reverse("org_job_start", args=[event.slug, "cards"]))
    work()
    job = Job.objects.get()
    html = client.get(reverse("org_job_download", args=[event.slug, job.pk])).content.decode()
    assert html.count('class="player-card"') == 12
    some = event.players.first()
    assert f"http://testserver/p/{event.slug}/{some.pk}/{some.token}" in html or some.card_code in html
    client.force_login(outsider)
    assert client.get(reverse("org_job_download", args=[event.slug, job.pk])).status_code == 404
    assert client.post(reverse("org_job_start", args=[event.slug, "cards"])).status_code == 404


def test_the_whole_crosstable_in_one_file(client, organiser, small_jobs):
    event = mtg_event(organiser, 12)
    client.force_login(organiser)
    client.post(reverse("org_job_start", args=[event.slug, "crosstable"]))
    work()
    job = Job.objects.get()
    assert job.state == "done"
    html = client.get(reverse("org_job_download", args=[event.slug, job.pk])).content.decode()
    assert "Player 0000" in html and "Player 0011" in html


def test_a_result_is_bounded_and_emptied_a_day_later(client, organiser, small_jobs, settings):
    event = mtg_event(organiser, 12)
    settings.JOB_RESULT_MAX_BYTES = 50
    job = jobs.start(event, Job.Kind.EXPORT, 0, organiser)
    work()
    job.refresh_from_db()
    assert job.state == "failed" and "larger than this server keeps" in job.error and job.result is None
    settings.JOB_RESULT_MAX_BYTES = 20_000_000
    job = jobs.start(event, Job.Kind.EXPORT, 0, organiser)
    work()
    Job.objects.filter(pk=job.pk).update(finished_at=timezone.now() - timedelta(hours=25))
    jobs.start(event, Job.Kind.CARDS, 0, organiser)  # each job's start sweeps
    job.refresh_from_db()
    assert job.result is None
    client.force_login(organiser)
    r = client.get(reverse("org_job_download", args=[event.slug, job.pk]), follow=True)
    assert "This file is no longer kept; make it again." in r.content.decode()


def test_only_the_jobs_own_kinds_are_started_by_a_button(client, organiser, small_jobs):
    event = mtg_event(organiser, 12)
    client.force_login(organiser)
    assert client.post(reverse("org_job_start", args=[event.slug, "pair"])).status_code == 404
    assert client.get(reverse("org_job_start", args=[event.slug, "export"])).status_code == 405


def test_a_large_trf_file_makes_its_event_in_the_worker(client, organiser, settings):
    from tournament.snapshot import event_to_trf

    settings.JOBS_FROM = {"trf": 10}
    source = new_chess_event(organiser, {f"Chess {i:02d}": 2000 - i for i in range(12)}, slug="source")
    text = event_to_trf(source).encode()
    upload = SimpleUploadedFile("open.trf", text)
    client.force_login(organiser)
    events = Event.objects.count()
    r = client.post(reverse("org_event_import_trf"), {"file": upload, "once": "t1"})
    job = Job.objects.get(kind="trf")
    assert r.url == reverse("org_trf_job", args=[job.pk]) and Event.objects.count() == events
    assert base64.b64decode(job.payload) == text
    assert "Import a TRF file…" in client.get(r.url).content.decode()
    again = client.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("open.trf", text), "once": "t1"})
    assert again.url == r.url and Job.objects.filter(kind="trf").count() == 1
    work()
    job.refresh_from_db()
    assert job.state == "done" and job.event is not None and job.event.players.count() == 12
    assert job.event.roles.filter(user=organiser, role="organiser").exists()
    r = client.get(r.url)
    assert r.url == reverse("org_event", args=[job.event.slug])
