"""Junk in every URL: each URL pattern of the app (from the resolver) asked with junk in its ids, its query
parameters and its form fields, by the event's organiser, a judge, a player of the event and an anonymous
visitor: the answer is a page or a clear 4xx, never a 500.

Junk is what an attacker or a broken client sends: NUL bytes, numbers too big for any column, negative
numbers, non-digits, another event's ids, very long strings and bytes that are not UTF-8."""

import importlib
import inspect
import pkgutil
import re
import urllib.parse
from pathlib import Path

import pytest
from django import forms
from django.test import Client
from django.urls import reverse

import tournament.forms
from tests.web.security.test_fuzz_inputs import state
from tests.web.security.test_permissions import ROUTES, kwargs_for, published_round
from tournament.models import Event, EventRole, Player

pytestmark = pytest.mark.django_db

INT_KWARGS = ("number", "match_id", "player_id", "pk", "role_id", "invite_id", "job_id", "table")
HUGE = "9" * 30
JUNK = ["\x00", "a\x00b", HUGE, "-" + HUGE, "-1", "0", "x", "½", "١٢", "<script>alert(1)</script>", "é" * 5000]
ROOT = Path(__file__).resolve().parents[3]


def _read_by_views(kind: str) -> set[str]:
    """The names the views and pages read from `request.GET` or `request.POST`, found in their source."""
    found = set()
    for path in (ROOT / "tournament").rglob("*.py"):
        found |= set(re.findall(rf"request\.{kind}\.(?:get|getlist)\(\s*[\"'](\w+)[\"']", path.read_text()))
    return found


def _form_fields() -> set[str]:
    """Every field of every form class of tournament/forms/."""
    names = set()
    for module in pkgutil.iter_modules(tournament.forms.__path__):
        loaded = importlib.import_module(f"tournament.forms.{module.name}")
        for _name, cls in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__ == loaded.__name__:
                names |= set(cls.base_fields)
    return names


# Every query parameter and form field the views read (`request.GET`/`request.POST`, their forms' fields).
PARAMS = sorted(_read_by_views("GET"))
FIELDS = sorted(_read_by_views("POST") | _form_fields())
NOT_UTF8 = b"%FF%FE%C0%80"


@pytest.fixture
def cast(event, organiser, judge, django_user_model):
    published_round(event)
    other = Event.objects.create(slug="saturday", name="Saturday Open", tiebreakers=["omw"])
    rival = django_user_model.objects.create_user("rita", password="rival-pass-1")
    EventRole.objects.create(event=other, user=rival, role=EventRole.Role.ORGANISER)
    Player.objects.bulk_create(Player(event=other, name=f"Sat {c}") for c in "ABCD")
    published_round(other)
    return {"organiser": organiser, "judge": judge, "other": other}


def _clients(cast, event) -> list[Client]:
    """The organiser, a judge, an anonymous visitor and a player of the event on their phone."""
    out = []
    for user in (cast["organiser"], cast["judge"], None):
        c = Client()
        if user is not None:
            c.force_login(user)
        out.append(c)
    player = event.players.order_by("name").first()
    phone = Client()
    assert phone.get(reverse("player:link", args=[player.event.slug, player.pk, player.token])).status_code == 302
    return [*out, phone]


def _ok(response, where: str):
    assert response.status_code < 500, where


def _kwargs(event, kwargs: list[str]) -> dict:
    """`kwargs_for`'s real ids, and for a player's pages a table and a (wrong) personal link's token."""
    extra = {"table": 1, "token": "not-a-token"}
    return {**kwargs_for(event, [k for k in kwargs if k not in extra]), **{k: extra[k] for k in kwargs if k in extra}}


def _url(name: str, kwargs: dict) -> str:
    return reverse(name, kwargs=kwargs) if kwargs else reverse(name)


@pytest.mark.parametrize(("name", "route", "kwargs"), ROUTES, ids=[r[0] for r in ROUTES])
def test_junk_anywhere_in_a_request_is_never_a_500(cast, event, name, route, kwargs):
    if name in ("logout", "set_language"):
        pytest.skip("Django's own logout; the language switcher is tested with junk in tests/web/i18n")
    real, theirs = _kwargs(event, kwargs), _kwargs(cast["other"], kwargs)
    urls = [_url(name, real)]
    for key in set(kwargs) & set(INT_KWARGS):
        urls += [_url(name, {**real, key: HUGE}), _url(name, {**real, key: 0}), _url(name, {**real, key: theirs[key]})]
    for c in _clients(cast, event):
        for url in urls:
            for verb in ("get", "post"):
                _ok(getattr(c, verb)(url), f"{verb} {url}")
        base = urls[0]
        for value in JUNK:
            query = urllib.parse.urlencode(dict.fromkeys(PARAMS, value))
            _ok(c.get(f"{base}?{query}"), f"GET {base} {value[:20]!r}")
            _ok(c.post(base, dict.fromkeys(FIELDS, value)), f"POST {base} {value[:20]!r}")
        for value in ("\x00", HUGE):  # a field given twice (a list where one value is read)
            _ok(c.post(base, {f: [value, "1"] for f in FIELDS}), f"POST twice {base} {value!r}")
        bad = b"&".join(p.encode() + b"=" + NOT_UTF8 for p in PARAMS)
        _ok(c.get(base + "?" + bad.decode("ascii")), f"GET {base} not UTF-8")
        body = b"&".join(f.encode() + b"=" + NOT_UTF8 for f in FIELDS)
        _ok(c.generic("POST", base, body, "application/x-www-form-urlencoded"), f"POST {base} not UTF-8")


@pytest.mark.parametrize(("name", "route", "kwargs"), ROUTES, ids=[r[0] for r in ROUTES])
def test_a_post_without_its_csrf_token_is_refused_and_changes_nothing(cast, event, name, route, kwargs):
    """Every form of the app carries the CSRF token: a POST without it, by the event's own organiser (or a
    player on their phone), is 403 and writes nothing."""
    if name in ("login", "logout", "set_language"):
        pytest.skip("Django's own views; the language switcher sets only its cookie")
    url = _url(name, _kwargs(event, kwargs))
    before = state()
    for user in (cast["organiser"], None):
        c = Client(enforce_csrf_checks=True)
        if user is not None:
            c.force_login(user)
        r = c.post(url, dict.fromkeys(FIELDS, "1"))
        assert r.status_code in (403, 405) or (user is None and r.status_code == 302), f"{r.status_code} {url}"
    assert state() == before, url


@pytest.mark.parametrize(("name", "route", "kwargs"), ROUTES, ids=[r[0] for r in ROUTES])
def test_a_post_only_action_asked_by_get_changes_nothing(cast, event, name, route, kwargs):
    """An action (drop, publish, adjourn, leave FIDE mode…) is a POST: its URL opened by a link, a prefetch or a
    crawler, with the action's own fields in the query, is 405 for its organiser and writes nothing."""
    if name in ("logout", "set_language"):
        pytest.skip("Django's own logout; the language switcher is a GET link by design")
    url = _url(name, _kwargs(event, kwargs))
    if Client().get(url).status_code != 405:
        pytest.skip("answers GET: a page")
    before = state()
    organiser = Client()
    organiser.force_login(cast["organiser"])
    query = urllib.parse.urlencode(dict.fromkeys(FIELDS, "1"))
    assert organiser.get(f"{url}?{query}").status_code == 405
    assert organiser.head(url).status_code == 405
    assert state() == before
