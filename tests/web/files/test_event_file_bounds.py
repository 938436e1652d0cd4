"""An event file is bounded whole (players, sections, rounds and results, every section's together), refused at
once with a message naming the place; and a large one is stored by the worker, as a large TRF or roster is, the
request answering at once (an upload of 20,000 rounds once held the request 48 s, one of 5,000 sections ran into
the proxy's 60 s, and 2 sections of 45,000 players made one event of 90,000)."""

import base64
import json
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.web.jobs.test_jobs import work
from tournament.models import Event, Job, Player

pytestmark = pytest.mark.django_db(transaction=True)


def players(n: int, prefix: str = "p") -> list[dict]:
    return [{"id": f"{prefix}{i}", "name": f"{prefix.upper()} Player {i}"} for i in range(n)]


def v1(n_players: int = 4, n_rounds: int = 0) -> dict:
    return {
        "format": "swiss-event",
        "version": 1,
        "name": "Open",
        "players": players(n_players),
        "rounds": [{"number": r, "matches": []} for r in range(1, n_rounds + 1)],
    }


def v2(sections: int, each: int = 2) -> dict:
    return {
        "format": "swiss-event",
        "version": 2,
        "name": "Venue",
        "sections": [{"name": f"S{i}", "players": players(each, f"s{i}x")} for i in range(sections)],
    }


def upload(client, doc: dict, once: str = "f1"):
    data = json.dumps(doc).encode()
    return client.post(reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", data), "once": once})


def refused(client, doc: dict) -> str:
    started = time.perf_counter()
    response = upload(client, doc)
    assert time.perf_counter() - started < 10
    assert response.status_code == 400
    assert not Event.objects.exists() and not Job.objects.exists()
    return response.content.decode()


def test_more_rounds_than_the_players_could_play_are_refused_at_once(client, organiser):
    client.force_login(organiser)
    page = refused(client, v1(4, 20_000))
    assert "rounds: 20000 rounds for 4 players: at most 30 (twice the players, or 30)" in page


def test_more_sections_than_an_event_holds_are_refused_at_once(client, organiser):
    client.force_login(organiser)
    assert "sections: 101 sections; an event holds at most 100" in refused(client, v2(101))


def test_the_player_cap_counts_every_section_together(client, organiser, settings):
    settings.MAX_PLAYERS_PER_EVENT = 10
    client.force_login(organiser)
    # Each section alone fits; together they do not.
    assert "sections: 12 players; an event holds at most 10" in refused(client, v2(2, 6))


def test_the_results_are_bounded_too(client, organiser, settings):
    settings.MAX_RESULTS_PER_EVENT = 3
    client.force_login(organiser)
    doc = v1(8, 1)
    doc["rounds"][0]["matches"] = [{"a": f"p{2 * k}", "b": f"p{2 * k + 1}", "games": [1, 0, 0]} for k in range(4)]
    assert "rounds: 4 results; an event holds at most 3" in refused(client, doc)


def test_the_import_command_is_bounded_alike(tmp_path):
    path = tmp_path / "e.json"
    path.write_text(json.dumps(v1(4, 31)))
    with pytest.raises(CommandError, match="31 rounds for 4 players"):
        call_command("import_event", str(path))
    assert not Event.objects.exists()


def test_a_large_event_file_is_stored_by_the_worker(client, organiser, settings):
    settings.JOBS_FROM = {**settings.JOBS_FROM, "event_file": 2_000}
    client.force_login(organiser)
    doc = v2(3, 4)  # 3 sections (a thousand each) and 12 players: past 2,000
    r = upload(client, doc, once="big")
    job = Job.objects.get(kind="event_file")
    assert r.status_code == 302 and r.url == reverse("org_trf_job", args=[job.pk])
    assert not Event.objects.exists() and job.event is None
    assert json.loads(base64.b64decode(job.payload))["name"] == "Venue"
    assert "Import an event file…" in client.get(r.url).content.decode()
    again = upload(client, doc, once="big")  # the same submission again: the same job
    assert again.url == r.url and Job.objects.filter(kind="event_file").count() == 1
    work()
    job.refresh_from_db()
    assert job.state == "done", job.error
    event = job.event
    assert [s.name for s in event.section_list] == ["S0", "S1", "S2"]
    assert Player.objects.filter(event__parent=event).count() == 12
    assert event.roles.filter(user=organiser, role="organiser").exists()
    assert client.get(r.url).url == reverse("org_event", args=[event.slug])


def test_a_small_event_file_stays_in_the_request(client, organiser):
    client.force_login(organiser)
    r = upload(client, v1(6, 2))
    assert r.status_code == 302 and not Job.objects.exists()
    assert Event.objects.get().players.count() == 6


def test_run_again_asks_whether_the_account_may_still_create(client, organiser, settings):
    from django.contrib.auth.models import Permission

    settings.JOBS_FROM = {**settings.JOBS_FROM, "event_file": 1}
    client.force_login(organiser)
    upload(client, v1(6), once="x")
    job = Job.objects.get(kind="event_file")
    organiser.user_permissions.remove(Permission.objects.get(codename="add_event"))
    work()
    job.refresh_from_db()
    assert job.state == "failed" and not Event.objects.exists()
