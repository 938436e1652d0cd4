"""Only an account that may create events creates an event or a section, whichever path it takes: the forms, the
file uploads, the jobs the worker runs later (asked again as the worker stores), and "Run again" of an old job.
Taking the permission ("Can add event") away stops every one of them at once, a job already queued included; an
invited co-organiser without it runs the event's sections but adds none."""

import base64
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from swiss import venuefile
from tests.conftest import new_chess_event
from tests.web.deploy.test_deploy import fresh_database_url  # noqa: F401 (a fixture)
from tests.web.jobs.test_jobs import work
from tests.web.sections.test_section_files import venue_text
from tests.web.security.stack import Session, run, served, shell
from tournament.models import Event, EventRole, Job
from tournament.services.event_files import import_file, import_section
from tournament.services.sections import add_section
from tournament.services.staff import MayNotCreate, create_event
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db(transaction=True)

MAY_NOT = "may not create events"


def add_event_permission():
    return Permission.objects.get(codename="add_event", content_type__app_label="tournament")


def take_away(user) -> None:
    user.user_permissions.remove(add_event_permission())


def give(user) -> None:
    user.user_permissions.add(add_event_permission())


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def large_trf(organiser, settings):
    """A TRF file of twelve players, "large" here: imported by the worker."""
    settings.JOBS_FROM = {"trf": 10}
    source = new_chess_event(organiser, {f"Chess {i:02d}": 2000 - i for i in range(12)}, slug="source")
    return event_to_trf(source).encode()


def events_now() -> set[int]:
    return set(Event.objects.values_list("pk", flat=True))


def test_a_queued_trf_import_finds_the_permission_gone_and_creates_nothing(organiser, large_trf):
    c = signed_in(organiser)
    before = events_now()
    r = c.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("a.trf", large_trf), "once": "t1"})
    job = Job.objects.get(kind="trf")
    assert r.url == reverse("org_trf_job", args=[job.pk]) and job.state == "queued"
    take_away(organiser)
    work()
    job.refresh_from_db()
    assert job.state == "failed" and MAY_NOT in job.error and job.event is None
    assert events_now() == before


def test_run_again_of_a_trf_import_is_refused_once_the_permission_is_gone(organiser, large_trf):
    c = signed_in(organiser)
    before = events_now()
    c.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("a.trf", large_trf), "once": "t1"})
    job = Job.objects.get(kind="trf")
    Job.objects.filter(pk=job.pk).update(state=Job.State.FAILED, error="The worker stopped.")  # an old, failed run
    take_away(organiser)
    r = signed_in(organiser).post(reverse("org_trf_job_retry", args=[job.pk]))
    assert r.status_code == 403 and MAY_NOT in r.content.decode()
    assert Job.objects.filter(kind="trf").count() == 1
    work()
    assert events_now() == before
    # Given back, run again: queued; taken away before the worker gets to it: still nothing.
    give(organiser)
    r = signed_in(organiser).post(reverse("org_trf_job_retry", args=[job.pk]))
    again = Job.objects.filter(kind="trf").exclude(pk=job.pk).get()
    take_away(organiser)
    work()
    again.refresh_from_db()
    assert again.state == "failed" and MAY_NOT in again.error and events_now() == before
    # And with the permission kept, the same retry makes the event (the refusal was the permission's).
    give(organiser)
    signed_in(organiser).post(reverse("org_trf_job_retry", args=[again.pk]))
    work()
    made = Job.objects.filter(kind="trf").latest("pk")
    assert made.state == "done" and made.event.roles.filter(user=organiser, role="organiser").exists()


def test_a_queued_trf_section_import_finds_the_permission_gone(organiser, venue, large_trf):
    c = signed_in(organiser)
    sections = venue.sections.count()
    form = {"file": SimpleUploadedFile("s.trf", large_trf), "name": "Open", "once": "s1"}
    c.post(reverse("org_section_import_trf", args=[venue.slug]), form)
    job = Job.objects.get(kind="trf", event=venue)
    take_away(organiser)
    work()
    job.refresh_from_db()
    assert job.state == "failed" and MAY_NOT in job.error and venue.sections.count() == sections
    r = signed_in(organiser).post(reverse("org_trf_job_retry", args=[job.pk]))
    assert r.status_code == 403 and Job.objects.filter(kind="trf").count() == 1


def test_a_queued_section_import_of_an_organiser_removed_meanwhile_makes_nothing(organiser, venue, large_trf):
    payload = json.dumps({"name": "Open", "trf": base64.b64encode(large_trf).decode()})
    from tournament.jobs import workflow as jobs

    job = jobs.start(venue, Job.Kind.TRF, 0, organiser, payload=payload)
    EventRole.objects.filter(event=venue, user=organiser).update(role=EventRole.Role.JUDGE)
    work()
    job.refresh_from_db()
    assert job.state == "failed" and "organisers" in job.error and not venue.sections.filter(name="Open").exists()


def test_a_job_whose_account_was_deleted_creates_nothing(organiser, django_user_model, large_trf, settings):
    from tournament.jobs import workflow as jobs

    other = django_user_model.objects.create_user("gone", password="gone-pass-1")
    give(other)
    job = jobs.start(None, Job.Kind.TRF, 0, other, payload=base64.b64encode(large_trf).decode())
    before = events_now()
    other.delete()
    work()
    job.refresh_from_db()
    assert job.state == "failed" and "no longer exists" in job.error and events_now() == before


def test_every_form_that_creates_refuses_an_account_without_the_permission(organiser, venue):
    take_away(organiser)
    c = signed_in(organiser)
    before, sections = events_now(), venue.sections.count()
    trf = event_to_trf(new_chess_event(organiser, {"A": 2000, "B": 1900}, slug="tiny")).encode()
    before = events_now()
    posts = [
        (reverse("org_event_new"), {"name": "New", "preset": "mtg", "once": "n1"}),
        (reverse("org_event_import_trf"), {"file": SimpleUploadedFile("a.trf", trf), "once": "n2"}),
        (reverse("org_event_import_file"), {"file": SimpleUploadedFile("e.json", venue_text().encode()), "once": "n3"}),
        (
            reverse("org_section_import_trf", args=[venue.slug]),
            {"file": SimpleUploadedFile("s.trf", trf), "once": "n4"},
        ),
    ]
    for url, data in posts:
        r = c.post(url, data)
        assert r.status_code == 403 and MAY_NOT in r.content.decode(), url
    # Adding a section on the event's page: refused with the reason, and the form is not offered.
    r = c.post(reverse("org_section_add", args=[venue.slug]), {"name": "C", "preset": "mtg"}, follow=True)
    assert MAY_NOT in r.content.decode()
    page = c.get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_section_add", args=[venue.slug]) not in page
    assert reverse("org_section_import_trf", args=[venue.slug]) not in page
    assert events_now() == before and venue.sections.count() == sections
    give(organiser)
    page = signed_in(organiser).get(reverse("org_event", args=[venue.slug])).content.decode()
    assert reverse("org_section_add", args=[venue.slug]) in page


def test_an_invited_co_organiser_without_the_permission_adds_no_section(organiser, venue, django_user_model):
    co = django_user_model.objects.create_user("cora", password="co-organiser-1")
    EventRole.objects.create(event=venue, user=co, role=EventRole.Role.ORGANISER)
    c = signed_in(co)
    section = venue.sections.first()
    assert c.get(reverse("org_event", args=[section.slug])).status_code == 200  # runs the sections there are
    r = c.post(reverse("org_section_add", args=[venue.slug]), {"name": "C", "preset": "mtg"}, follow=True)
    assert MAY_NOT in r.content.decode() and not venue.sections.filter(name="C").exists()
    give(co)
    signed_in(co).post(reverse("org_section_add", args=[venue.slug]), {"name": "C", "preset": "mtg"})
    assert venue.sections.filter(name="C").exists()


def test_every_service_that_creates_asks_at_the_moment_it_stores(organiser, venue):
    take_away(organiser)
    trf_doc = venuefile.loads(venue_text())
    before, sections = events_now(), venue.sections.count()
    attempts = [
        lambda: create_event(Event(name="New"), organiser),
        lambda: add_section(venue, "C", organiser),
        lambda: import_file(trf_doc, by=organiser),
        lambda: import_file(trf_doc.sections[0], by=organiser),
        lambda: import_section(venue, trf_doc.sections[0], "C", organiser),
    ]
    for attempt in attempts:
        with pytest.raises(MayNotCreate):
            attempt()
    assert events_now() == before and venue.sections.count() == sections
    # The command line (no account: the server's administrator) imports as before.
    assert import_file(trf_doc).sections.count() == len(trf_doc.sections)


# ---------------------------------------------------------------- on the wire


HELD = Path(__file__).parents[2] / "data" / "trf" / "held-exercises-2024.trf"


def test_through_gunicorn_a_queued_import_and_its_run_again_obey_the_permission_taken_away(
    tmp_path,
    fresh_database_url,  # noqa: F811
):
    with served(tmp_path, fresh_database_url, JOB_TRF_PLAYER_ROUNDS="10") as (port, env):
        shell(
            env,
            "from django.contrib.auth.models import User, Permission;"
            " u = User.objects.create_user('olga', password='organiser-pass-1');"
            " u.user_permissions.add(Permission.objects.get(codename='add_event')); print(u.pk)",
        )
        olga = Session(port)
        olga.login("olga", "organiser-pass-1")
        status, headers, _ = olga.post("/events/new/trf/", {"once": "w1"}, files={"file": ("a.trf", HELD.read_bytes())})
        assert status == 302 and "/events/new/trf/jobs/" in headers["location"][0], headers
        job_page = headers["location"][0]
        revoke = (
            "from django.contrib.auth.models import User, Permission;"
            " User.objects.get(username='olga').user_permissions.remove(Permission.objects.get(codename='add_event'));"
            " print('ok')"
        )
        shell(env, revoke)
        worker = run(["db_worker", "--batch", "--no-startup-delay", "--no-reload"], env, timeout=300)
        assert worker.returncode == 0, worker.stderr
        state = "from tournament.models import Job, Event; j = Job.objects.latest('pk'); print(j.state, Event.objects.count(), repr(j.error))"
        assert shell(env, state).startswith("failed 0 ")
        assert MAY_NOT in shell(env, state)
        status, _, content = olga.post(job_page + "retry/")
        assert status == 403 and MAY_NOT.encode() in content
        assert shell(env, "from tournament.models import Job; print(Job.objects.count())") == "1"
        # New event, and its page: refused as well, on the wire.
        assert olga.get("/events/new/")[0] == 403
        assert olga.post("/events/new/", {"name": "New", "preset": "mtg", "once": "w2"})[0] == 403
        assert shell(env, "from tournament.models import Event; print(Event.objects.count())") == "0"
