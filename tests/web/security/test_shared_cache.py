"""A shared cache (nginx's proxy_cache, a CDN) may keep a public page for a few seconds, never a response that
sets a cookie: kept, it would hand one visitor's cookie (a CSRF token, a session) to the next. And a response
that varies on `HX-Request` varies on `HX-History-Restore-Request` too, or the back button gets the fragment a
swap got. Both are the last word of one middleware (`infra/middleware.shared_cache_rules`), checked here on
every URL the app has, and on the wire through gunicorn with PostgreSQL and Redis."""

import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.web.deploy.test_deploy import fresh_database_url  # noqa: F401 (a fixture)
from tests.web.phone.test_self_report import phone
from tests.web.security.stack import request, run, served
from tournament.models import Job

pytestmark = pytest.mark.django_db

MALFORMED = "csrftoken=not-a-token"  # the wrong length and alphabet: Django replaces it with a new one


@pytest.fixture(autouse=True)
def five_seconds(settings):
    settings.PUBLIC_MAX_AGE = 5
    cache.clear()


def directives(value: str) -> set[str]:
    return {d.strip().lower() for d in value.split(",") if d.strip()}


def shareable(cache_control: str) -> bool:
    return bool({d.split("=")[0] for d in directives(cache_control)} & {"public", "s-maxage"})


def every_url(event, job) -> list[str]:
    """Every URL pattern of the app, its arguments filled from `event` (its first player, round 2, its first
    match, `job`): a URL added later is checked without being listed here."""
    player, match = event.players.order_by("pk").first(), event.rounds.get(number=2).matches.first()
    role, invite = event.roles.first(), None
    values = {
        "slug": event.slug,
        "pk": player.pk,
        "player_id": player.pk,
        "token": player.token,
        "number": 2,
        "table": match.table,
        "match_id": match.pk,
        "job_id": job.pk,
        "role_id": role.pk,
        "invite_id": invite or 1,
        "kind": "cards",
        "code": "ja",
    }
    urls = []

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, f"{namespace}{p.namespace}:" if p.namespace else namespace)
            elif isinstance(p, URLPattern) and p.name:
                names = re.findall(r"<(?:\w+:)?(\w+)>", str(p.pattern))
                if namespace.startswith("admin:"):
                    continue  # Django's admin: its own pages, none of them public
                urls.append(
                    reverse(namespace + p.name, kwargs={n: values[n] for n in names if n not in p.default_args})
                )

    walk(get_resolver().url_patterns, "")
    return sorted(set(urls))


def check(response, url: str) -> None:
    cache_control = response.get("Cache-Control", "")
    if response.cookies:
        assert not shareable(cache_control), (url, cache_control, list(response.cookies))
        assert "private" in directives(cache_control), (url, cache_control)
        assert not response.has_header("CDN-Cache-Control"), url
    vary = directives(response.get("Vary", ""))
    if "hx-request" in vary:
        assert "hx-history-restore-request" in vary, (url, response["Vary"])


def test_no_response_of_any_url_that_sets_a_cookie_is_shareable(live, organiser):
    job = Job.objects.create(event=live, kind=Job.Kind.CARDS, created_by=organiser, state=Job.State.DONE)
    urls = every_url(live, job)
    assert len(urls) > 60
    signed_in = Client()
    signed_in.force_login(organiser)
    visitors = {"anonymous": Client, "phone": lambda: phone(live.players.get(name="Player A")), "organiser": None}
    shared = 0
    for url in urls:
        for who in visitors:
            c = signed_in if who == "organiser" else visitors[who]()
            for headers in ({}, {"HTTP_COOKIE": MALFORMED}, {"HTTP_HX_REQUEST": "true"}):
                if who == "organiser" and "HTTP_COOKIE" in headers:
                    continue  # would replace the session cookie the test client keeps
                r = c.get(url, **headers)
                assert r.status_code < 500, url
                check(r, url)
                shared += shareable(r.get("Cache-Control", ""))
    assert shared > 0  # some answers are shareable: the rule is not kept by sharing nothing


@pytest.mark.parametrize("page", ["home", "pairings", "standings", "crosstable", "screen", "bracket"])
def test_a_public_page_asked_with_a_malformed_csrf_cookie_is_not_shared(live, page):
    url = reverse(f"public:{page}", args=[live.slug])
    clean = Client().get(url)
    assert shareable(clean["Cache-Control"]) and not clean.cookies
    r = Client().get(url, HTTP_COOKIE=MALFORMED)
    assert r.status_code == 200 and "csrftoken" in r.cookies
    assert {"private", "no-cache"} <= directives(r["Cache-Control"]) and not shareable(r["Cache-Control"])
    assert "CDN-Cache-Control" not in r
    assert "csrftoken" not in Client().get(url).cookies  # and the next visitor gets no token from it


@pytest.mark.parametrize("page", ["home", "pairings", "standings", "crosstable", "screen", "bracket"])
def test_public_pages_vary_on_the_history_restore_header(live, page):
    r = Client().get(reverse(f"public:{page}", args=[live.slug]))
    vary = directives(r["Vary"])
    assert {"cookie", "accept-language", "hx-request", "hx-history-restore-request"} <= vary


def test_the_scaling_doc_keys_a_cdn_on_every_header_the_pages_vary_on(live):
    doc = (Path(__file__).resolve().parents[3] / "docs" / "scaling.md").read_text()
    key = re.search(r"a CDN that cannot should key on (.*?), and bypass", " ".join(doc.split())).group(1)
    vary = Client().get(reverse("public:pairings", args=[live.slug]))["Vary"]
    for header in (v.strip() for v in vary.split(",")):
        assert header in key or (header == "Cookie" and "cookie" in key), header


def test_through_gunicorn_a_malformed_csrf_cookie_gets_a_private_answer(tmp_path, fresh_database_url):  # noqa: F811
    with served(tmp_path, fresh_database_url) as (port, env):
        event_file = tmp_path / "event.json"
        event_file.write_text(
            '{"format": "swiss-event", "version": 1, "name": "Cookies", "preset": "mtg",'
            ' "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo"}], "rounds": []}'
        )
        imported = run(["import_event", str(event_file), "--slug", "cookies"], env)
        assert imported.returncode == 0, imported.stderr
        run(["shell", "-c", "from tournament.models import Event; Event.objects.update(public=True)"], env)
        for path in ("/e/cookies/", "/e/cookies/pairings/", "/e/cookies/standings/", "/e/cookies/screen/"):
            status, headers, _ = request(port, path)
            assert status == 200 and "set-cookie" not in headers, (path, headers)
            assert shareable(headers["cache-control"][0]), headers
            status, headers, _ = request(port, path, headers={"Cookie": MALFORMED})
            assert status == 200 and any(c.startswith("csrftoken=") for c in headers["set-cookie"]), headers
            assert {"private", "no-cache"} <= directives(headers["cache-control"][0]), headers
            assert not shareable(headers["cache-control"][0]), headers
            assert "cdn-cache-control" not in headers
            assert "hx-history-restore-request" in directives(headers["vary"][0])
