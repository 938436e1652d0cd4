"""Who may open what: every URL of the app, taken from the URL resolver, against every kind of visitor.

A new URL fails `test_every_url_is_classified` until it is listed below as judge-allowed or
organiser-only (or public), and then the matrix checks it like all others: anonymous visitors are
sent to log in, outsiders and organisers of another event get 404 (an event's existence is not
revealed), judges get 403 on organiser-only actions. Ids from another event, in the URL or in a form
field, are 404 or refused; public pages never show hidden events, drafts or organiser-only data.
"""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tournament.models import Event, EventRole, Job, Match, Player, Round, StaffInvite
from tournament.services.locks import changed, log
from tournament.services.results import Outcome, record_result
from tournament.snapshot import create_matches

pytestmark = pytest.mark.django_db

# Organiser URLs a judge may use (results, the clock, reading and printing); every other is organiser-only.
JUDGE_OK = {
    "org_event",
    "org_players",
    "org_round",
    "org_job",
    "org_job_page",
    "org_job_download",
    "org_job_start",
    "org_round_clock",
    "org_round_why_not",
    "org_table_result",
    "org_match",
    "org_match_result",
    "org_match_adjourn",
    "org_top_cut",
    "org_standings",
    "org_outlook",
    "org_print_by_name",
    "org_print_by_table",
    "org_print_slips",
    "org_print_standings",
    "org_print_crosstable",
    "org_export_json",
    "org_export_trf",
    "org_export_players",
    "org_export_pairings",
    "org_export_standings",
    "org_print_prizes",
    "org_export_prizes",
    "org_norms",
    "org_print_norms",
}
ORGANISER_ONLY = {
    "org_settings",
    "org_prizes",
    "org_fide",
    "org_forbidden_pair",
    "org_round_manual",
    "org_round_validate",
    "org_staff_add",
    "org_staff_remove",
    "org_invite_withdraw",
    "org_player_add",
    "org_players_paste",
    "org_players_csv",
    "org_players_csv_confirm",
    "org_player_edit",
    "org_player_drop",
    "org_player_bye",
    "org_player_undrop",
    "org_player_delete",
    "org_round_pair",
    "org_round_publish",
    "org_round_repair",
    "org_round_swap",
    "org_round_flip",
    "org_top_cut_start",
    "org_player_card",
    "org_player_reissue",
    "org_print_cards",
    "org_reporting",
    "org_round_reporting",
    "org_top_cut_publish",
    "org_top_cut_undo",
    "org_section_add",
    "org_section_rules",
    "org_section_import_trf",
    "org_place_by_rules",
    "org_player_section",
    "org_job_retry",
}
# Any logged-in user: their own event list and creating a new event (whose organiser they become).
ANY_USER = {"event_list", "org_event_new", "org_event_import_trf", "org_event_import_file"}
# A TRF import's job, before its event exists: the account that started it, and nobody else.
OWN_JOB = {"org_trf_job", "org_trf_job_retry"}
# Django's own: the login pages and the admin (staff accounts only) are tested by Django.
NOT_OURS = {"login", "logout"}
# Everybody, signed in or not: the language switcher sets only its cookie (tests/web/i18n/test_i18n.py).
EVERYBODY = {"set_language"}
PUBLIC = {"home", "pairings", "standings", "crosstable", "player", "screen", "screen_panel", "bracket"}
# A player's own pages: their personal link or code is the key (tests/web/phone/test_self_report.py).
PLAYER = {"me", "code", "forget", "report", "drop", "bye", "link", "table", "why_not"}


def routes() -> list[tuple[str, str, list[str]]]:
    """(namespace:name, route, URL kwargs) for every named URL of the app, from the resolver."""
    found = []

    def walk(patterns, prefix="", namespace=None):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    continue
                walk(p.url_patterns, prefix + str(p.pattern), p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                route = prefix + str(p.pattern)
                kwargs = [k for k in re.findall(r"<(?:\w+:)?(\w+)>", route) if k not in p.default_args]
                found.append((f"{namespace}:{p.name}" if namespace else p.name, route, kwargs))

    walk(get_resolver().url_patterns)
    return found


ROUTES = routes()
ORGANISER_ROUTES = [r for r in ROUTES if ":" not in r[0] and r[0] not in NOT_OURS | ANY_USER | EVERYBODY | OWN_JOB]
EVENT_ROUTES = [r for r in ROUTES if "slug" in r[2]]
PUBLIC_ROUTES = [r for r in ROUTES if r[0].startswith("public:")]


def test_every_url_is_classified():
    names = {name for name, _, _ in ROUTES}
    public = {n.split(":", 1)[1] for n in names if n.startswith("public:")}
    player = {n.split(":", 1)[1] for n in names if n.startswith("player:")}
    ours = names - {f"public:{n}" for n in public} - {f"player:{n}" for n in player}
    assert ours - (JUDGE_OK | ORGANISER_ONLY | ANY_USER | NOT_OURS | EVERYBODY | OWN_JOB) == set(), (
        "classify the new URL above"
    )
    assert public - PUBLIC == set(), "add the new public page to PUBLIC"
    assert player - PLAYER == set(), "add the new player page to PLAYER"
    assert JUDGE_OK.isdisjoint(ORGANISER_ONLY)
    assert len(ORGANISER_ROUTES) >= 30 and len(PUBLIC_ROUTES) == len(PUBLIC)


# ---------------------------------------------------------------- the cast


def published_round(event, number=1) -> Round:
    """A round paired by hand in name order (A v B, C v D, …), the odd one out with a bye."""
    rnd = Round.objects.create(event=event, number=number, state=Round.State.PAIRED, seed=1)
    ps = list(event.players.order_by("name"))
    matches = [Match(round=rnd, table=i // 2 + 1, player_a=ps[i], player_b=ps[i + 1]) for i in range(0, len(ps) - 1, 2)]
    if len(ps) % 2:
        matches.append(Match(round=rnd, player_a=ps[-1], result=Match.Result.BYE))
    create_matches(rnd, matches)
    return rnd


@pytest.fixture
def rival(django_user_model):
    """Organiser of another event, who has no role in `event`."""
    return django_user_model.objects.create_user("rita", password="rival-pass-1")


@pytest.fixture
def other_event(rival):
    e = Event.objects.create(slug="saturday", name="Saturday Open", tiebreakers=["omw"])
    EventRole.objects.create(event=e, user=rival, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=e, name=f"Sat {c}") for c in "ABCD")
    published_round(e)
    return e


def kwargs_for(event, kwargs: list[str]) -> dict:
    """Real ids of `event` for a URL's kwargs: round 1, its first match, a player, the organiser's role."""
    rnd = event.rounds.get(number=1)
    values = {
        "slug": event.slug,
        "number": 1,
        "match_id": rnd.matches.order_by("table").first().pk,
        "player_id": event.players.order_by("name").first().pk,
        "pk": event.players.order_by("name").first().pk,
        "role_id": event.roles.filter(role=EventRole.Role.ORGANISER).first().pk,
        "invite_id": StaffInvite.objects.get_or_create(event=event, username="invitee", defaults={"role": "judge"})[
            0
        ].pk,
        "job_id": export_job(event).pk,
        "kind": "export",
    }
    missing = set(kwargs) - values.keys()
    assert not missing, f"teach kwargs_for about {missing}"
    return {k: values[k] for k in kwargs}


def export_job(event) -> Job:
    """The event's event file, made by a job (tournament/jobs/files.py) and kept for download."""
    job = Job.objects.filter(event=event, kind=Job.Kind.EXPORT).first()
    if job is None:
        job = Job.objects.create(
            event=event, kind=Job.Kind.EXPORT, state=Job.State.DONE, finished_at=timezone.now(), result_name="e.json"
        )
        Job.objects.filter(pk=job.pk).update(result=gzip.compress(b"{}"), result_type="application/json")
    return job


@pytest.mark.parametrize("name", sorted(OWN_JOB))
def test_a_trf_import_job_is_its_starters_alone(cast, organiser, judge, name):
    job = Job.objects.create(kind=Job.Kind.TRF, state=Job.State.FAILED, created_by=organiser, error="No.")
    url = reverse(name, args=[job.pk])
    verb = "post" if name.endswith("retry") else "get"
    r = getattr(Client(), verb)(url)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    for other in ("judge", "outsider", "rival"):
        assert getattr(as_user(cast[other]), verb)(url).status_code == 404
    assert getattr(as_user(organiser), verb)(url).status_code in (200, 302)
    assert getattr(Client(), "get" if verb == "post" else "post")(url).status_code == 405


def verbs(url: str) -> list[str]:
    """The verbs a view answers: anonymous requests meet the method check before the login check."""
    anonymous = Client()
    allowed = [v for v in ("get", "post") if getattr(anonymous, v)(url).status_code != 405]
    assert allowed, url
    return allowed


def as_user(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def cast(event, organiser, judge, outsider, rival, other_event):
    published_round(event)
    return {"organiser": organiser, "judge": judge, "outsider": outsider, "rival": rival}


# ---------------------------------------------------------------- organiser pages


@pytest.mark.parametrize(("name", "route", "kwargs"), ORGANISER_ROUTES, ids=[r[0] for r in ORGANISER_ROUTES])
def test_organiser_url_matrix(cast, event, name, route, kwargs):
    url = reverse(name, kwargs=kwargs_for(event, kwargs))
    for verb in verbs(url):
        expected = {
            None: "login",
            "outsider": 404,
            "rival": 404,
            "judge": "ok" if name in JUDGE_OK else 403,
            # Last: an organiser's POST may change the event (drop a player, remove a role).
            "organiser": "ok",
        }
        for who, want in expected.items():
            c = as_user(cast[who] if who else None)
            for headers in ({}, {"HX-Request": "true"}):  # a fragment is checked like its page
                r = getattr(c, verb)(url, headers=headers)
                where = f"{who or 'anonymous'} {verb.upper()} {url} {headers}"
                if want == "login":
                    assert r.status_code == 302 and r["Location"].startswith(reverse("login") + "?next="), where
                elif want == "ok":
                    assert r.status_code in (200, 302), where
                    if r.status_code == 302:
                        assert not r["Location"].startswith(reverse("login")), where
                else:
                    assert r.status_code == want, where
                if who == "organiser" and verb == "post":
                    break  # one write is enough; a second might find nothing left to do


@pytest.mark.parametrize("name", sorted(ANY_USER))
def test_pages_for_any_logged_in_user(cast, name):
    url = reverse(name)
    r = Client().get(url)
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    creating = name in ("org_event_new", "org_event_import_trf", "org_event_import_file")
    # Creating an event needs the "Can add event" permission (EVENT_CREATION "invited", the default).
    assert as_user(cast["outsider"]).get(url).status_code == (403 if creating else 200)
    if creating:
        assert as_user(cast["organiser"]).get(url).status_code == 200


def test_the_event_list_shows_only_the_users_own_events(cast, event, other_event):
    page = as_user(cast["rival"]).get(reverse("event_list")).content.decode()
    assert other_event.name in page and event.name not in page
    page = as_user(cast["judge"]).get(reverse("event_list")).content.decode()
    assert event.name in page and other_event.name not in page


ID_ROUTES = [r for r in ORGANISER_ROUTES if set(r[2]) & {"match_id", "player_id", "role_id", "invite_id"}]


@pytest.mark.parametrize(("name", "route", "kwargs"), ID_ROUTES, ids=[r[0] for r in ID_ROUTES])
def test_ids_of_another_event_in_the_url_are_404(cast, event, other_event, name, route, kwargs):
    """Each organiser, on their own event's URL, with one id taken from the other event."""
    for own, foreign, user in ((event, other_event, cast["organiser"]), (other_event, event, cast["rival"])):
        mine, theirs = kwargs_for(own, kwargs), kwargs_for(foreign, kwargs)
        c = as_user(user)
        for key in set(kwargs) & {"match_id", "player_id", "role_id", "invite_id"}:
            url = reverse(name, kwargs={**mine, key: theirs[key]})
            for verb in verbs(url):
                assert getattr(c, verb)(url).status_code == 404, f"{verb} {url}"
    # Nothing of the other event changed: nobody dropped, no role removed, no result entered.
    assert not Player.objects.filter(dropped_after__isnull=False).exists()
    assert EventRole.objects.count() == 3
    assert not Match.objects.filter(games_a__isnull=False).exists()


def test_a_round_number_only_exists_in_its_own_event(cast, event, other_event):
    published_round(other_event, 2)
    c = as_user(cast["organiser"])
    assert c.get(reverse("org_round", args=[event.slug, 2])).status_code == 404
    assert c.get(reverse("org_print_slips", args=[event.slug, 2])).status_code == 404
    assert c.get(reverse("org_export_pairings", args=[event.slug]) + "?round=2").status_code == 404


def test_players_of_another_event_in_a_swap_form_are_refused(cast, event, other_event):
    Round.objects.filter(event=event).update(state=Round.State.DRAFT)
    mine = event.players.order_by("name").first()
    theirs = other_event.players.order_by("name").first()
    before = sorted(Match.objects.values_list("pk", "player_a_id", "player_b_id"))
    r = as_user(cast["organiser"]).post(
        reverse("org_round_swap", args=[event.slug, 1]), {"first": mine.pk, "second": theirs.pk}
    )
    assert r.status_code == 200 and "Pick two players of this round" in r.content.decode()
    assert sorted(Match.objects.values_list("pk", "player_a_id", "player_b_id")) == before


def test_a_judge_cannot_make_themselves_organiser(cast, event, judge):
    r = as_user(judge).post(reverse("org_staff_add", args=[event.slug]), {"username": "jules", "role": "organiser"})
    assert r.status_code == 403
    assert EventRole.objects.get(event=event, user=judge).role == EventRole.Role.JUDGE


def test_a_rival_cannot_add_themselves_as_staff_of_another_event(cast, event, rival):
    r = as_user(rival).post(reverse("org_staff_add", args=[event.slug]), {"username": "rita", "role": "organiser"})
    assert r.status_code == 404
    assert not EventRole.objects.filter(event=event, user=rival).exists()


# ---------------------------------------------------------------- public pages


def public_url(event, name, kwargs):
    return reverse(name, kwargs=kwargs_for(event, kwargs))


@pytest.mark.parametrize(("name", "route", "kwargs"), PUBLIC_ROUTES, ids=[r[0] for r in PUBLIC_ROUTES])
def test_public_pages_of_a_hidden_event(cast, event, name, route, kwargs):
    cache.clear()
    url = public_url(event, name, kwargs)
    assert Client().get(url).status_code == 200  # shown (and cached) while public
    Event.objects.filter(pk=event.pk).update(public=False)
    for who in (None, "outsider", "rival"):
        r = as_user(cast[who] if who else None).get(url)
        assert r.status_code == 404, f"{who} {url}"
        assert event.name not in r.content.decode()
    for who in ("judge", "organiser"):
        r = as_user(cast[who]).get(url)
        assert r.status_code == 200, f"{who} {url}"
        assert "private" in r["Cache-Control"]


@pytest.mark.parametrize(("name", "route", "kwargs"), PUBLIC_ROUTES, ids=[r[0] for r in PUBLIC_ROUTES])
def test_public_pages_never_show_organiser_only_data(cast, event, organiser, name, route, kwargs):
    cache.clear()
    first = event.players.order_by("name").first()
    Player.objects.filter(pk=first.pk).update(external_id="DCI-SECRET-42")
    rnd = event.rounds.get(number=1)
    for m in rnd.matches.all():
        record_result(m, Outcome("played", (2, 0, 0)), organiser)
    draft = Round.objects.create(event=event, number=2, state=Round.State.DRAFT, seed=7)
    ps = list(event.players.order_by("-name"))
    create_matches(draft, [Match(round=draft, table=9, player_a=ps[0], player_b=ps[7])])
    log(event, "staff_add", organiser, user="jules", role="judge")
    changed(event)
    body = Client().get(public_url(event, name, kwargs)).content.decode()
    assert "DCI-SECRET-42" not in body
    assert "olga" not in body and "jules" not in body  # staff accounts
    assert "Round 2" not in body  # the draft


def test_a_player_of_another_event_is_404_on_public_pages(cast, event, other_event):
    theirs = other_event.players.first()
    assert Client().get(reverse("public:player", args=[event.slug, theirs.pk])).status_code == 404


# ---------------------------------------------------------------- login protection in production


def test_production_cookies_are_secure_and_logins_throttled():
    """With DEBUG=0 and nothing else said, cookies go over HTTPS only and django-axes guards the login."""
    show = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS > 0, 'axes.middleware.AxesMiddleware' in s.MIDDLEWARE, "
        "s.AUTHENTICATION_BACKENDS[0], s.AXES_LOCKOUT_PARAMETERS)"
    )
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("SESSION_", "CSRF_", "SECURE_", "DJANGO_ALLOW"))}
    env = {**keep, "DEBUG": "0", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "swiss.example.org"}
    out = (
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", show],
            cwd=Path(__file__).resolve().parents[3],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        .stdout.strip()
        .splitlines()[-1]
    )
    assert out == "True True True True True True axes.backends.AxesStandaloneBackend [['username', 'ip_address']]"
