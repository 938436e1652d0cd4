"""The shared cast: organiser, judge, outsider; a small event; the seed examples."""

import datetime as dt
import os
from pathlib import Path

import pytest


def pytest_configure(config):
    """The compiled catalogs are built, not committed (docs/languages.md): build them before any test."""
    from tournament.text.catalogs import compile_catalogs

    compile_catalogs(Path(__file__).resolve().parents[1])


def pytest_collection_modifyitems(config, items):
    """`@pytest.mark.needs_postgresql`: the test needs what only PostgreSQL has (CI runs it there)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        return
    for item in items:
        marker = item.get_closest_marker("needs_postgresql")
        if marker:
            why = marker.kwargs["reason"]
            item.add_marker(pytest.mark.skip(reason=f"needs PostgreSQL: {why} (CI runs it)"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, test in a database file, as `make run` serves one: an in-memory database shared between
    threads refuses a second writer at once ("database table is locked") instead of making it wait, so the
    tests of simultaneous requests would test the test database rather than the app."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


# The seeds' worked examples and their expected standings, kept in the repository (tests/data/README.md).
EXAMPLES = Path(__file__).resolve().parent / "data"


def example_files() -> list[Path]:
    """The worked examples: tests/data/seedNNN-*.json (other data lives in folders of its own there)."""
    files = sorted(p for p in EXAMPLES.glob("seed*.json") if not p.name.endswith(".expected.json"))
    if not files:
        raise RuntimeError(f"no example events in {EXAMPLES}")
    return files


# Every kind of day a page can be read on: each day of one week (Monday 23 to Sunday 29 November 2026), the
# last day of a month and of a year, and the first of the next. A test that shows today's date or weekday
# takes `any_day` and runs on each with the clock set, so no weekday's word is missing from a check (the
# page-text test once knew no Saturday and failed every Saturday).
EVERY_KIND_OF_DAY = {
    **{f"{dt.date(2026, 11, d):%a}": dt.datetime(2026, 11, d, 12, 0, tzinfo=dt.UTC) for d in range(23, 30)},
    "31st": dt.datetime(2026, 12, 31, 23, 30, tzinfo=dt.UTC),
    "1st": dt.datetime(2027, 1, 1, 0, 30, tzinfo=dt.UTC),
}


@pytest.fixture(params=list(EVERY_KIND_OF_DAY.values()), ids=list(EVERY_KIND_OF_DAY))
def any_day(request):
    """The clock set to each kind of day in turn (it ticks on from there)."""
    # Imported here: the engine tests import this module's EXAMPLES in a core-only environment (.ci/core).
    import time_machine

    with time_machine.travel(request.param, tick=True):
        yield request.param


@pytest.fixture
def organiser(django_user_model):
    """An organiser, who may create events (EVENT_CREATION "invited": the "Can add event" permission)."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("olga", password="organiser-pass-1")
    user.user_permissions.add(Permission.objects.get(codename="add_event", content_type__app_label="tournament"))
    return user


@pytest.fixture
def judge(django_user_model):
    return django_user_model.objects.create_user("jules", password="judge-pass-1")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("otto", password="outsider-pass-1")


@pytest.fixture
def event(organiser, judge):
    from tournament.models import Event, EventRole, Player

    e = Event.objects.create(slug="friday", name="Friday Night", tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    EventRole.objects.create(event=e, user=judge, role=EventRole.Role.JUDGE)
    Player.objects.bulk_create(
        Player(event=e, name=f"Player {c}", rating=1500 - i * 10) for i, c in enumerate("ABCDEFGH")
    )
    return e


@pytest.fixture
def venue(organiser, judge):
    """An event with two sections, A and B (docs/sections.md), each with six players: staff on the event."""
    from tournament.models import Event, EventRole, Player
    from tournament.services.sections import add_section

    root = Event.objects.create(slug="regionals", name="Regionals", planned_rounds=3)
    EventRole.objects.create(event=root, user=organiser, role=EventRole.Role.ORGANISER)
    EventRole.objects.create(event=root, user=judge, role=EventRole.Role.JUDGE)
    for name in ("A", "B"):
        section = add_section(root, name, organiser, tiebreakers=["omw", "gw", "ogw"], planned_rounds=3)
        Player.objects.bulk_create(
            Player(event=section, name=f"{name} Player {c}", rating=1500 - i * 10) for i, c in enumerate("ABCDEF")
        )
    return root


# Playwright's sync API runs an event loop in the test thread; the ORM calls our browser tests make
# around it are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--disable-quic",
            "--disable-sync",
        ],
    }


@pytest.fixture
def shot(page, request):
    """Save a numbered screenshot of the page under tests/artifacts/<test name>/ (a CI artifact)."""
    folder = ARTIFACTS / request.node.name.replace("[", "_").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)
    counter = iter(range(1, 1000))

    def take(label: str, target=None):
        path = folder / f"{next(counter):02d}-{label}.png"
        (target or page).screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Production hashing costs ~0.3 s per login on these machines; tests log in hundreds of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def live(event):
    """Round 2 being played (round 1 complete), players reporting and the opponent confirming (self-report)."""
    from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
    from tournament.models import Event, Round

    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
    event.refresh_from_db()
    return event


def new_chess_event(organiser, ratings: dict[str, int], slug: str = "open", **fields):
    """A FIDE-scored chess event (one game, colours, C.07 tie-breaks) with `organiser` and these players;
    `fields` set other event fields (its name, planned rounds...)."""
    from tournament.models import Event, EventRole, Player

    e = Event.objects.create(
        slug=slug,
        preset="chess",
        win_points="1",
        draw_points="1/2",
        loss_points="0",
        best_of=1,
        colours=True,
        tiebreakers=["BH-C1", "BH", "SB"],
        **{"name": "Club Open", "planned_rounds": 5, **fields},
    )
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    for name, rating in ratings.items():
        Player.objects.create(event=e, name=name, rating=rating)
    return e


@pytest.fixture
def chess(organiser, judge):
    """Six players, Player A (2000) to Player F (1750), with a judge."""
    from tournament.models import EventRole

    e = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEF")})
    EventRole.objects.create(event=e, user=judge, role=EventRole.Role.JUDGE)
    return e
