"""HTTP as the venue's network sees it: HEAD on every page,
a favicon, a well-formed Cache-Control, a Content-Security-Policy, request size limits, forwarded headers
believed only from the configured proxy, the public address from SITE_URL and the real client address
for the login lockout."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, ROUND_2, pair
from tournament.models import Event, Round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


@pytest.fixture
def running(event):
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2)
    return event


def organiser_pages(event) -> list[str]:
    player = event.players.first()
    match = event.rounds.get(number=2).matches.first()
    return [
        reverse("event_list"),
        reverse("org_event_new"),
        reverse("org_event", args=[event.slug]),
        reverse("org_settings", args=[event.slug]),
        reverse("org_players", args=[event.slug]),
        reverse("org_player_edit", args=[event.slug, player.pk]),
        reverse("org_round", args=[event.slug, 2]),
        reverse("org_match", args=[event.slug, 2, match.pk]),
        reverse("org_top_cut", args=[event.slug]),
        reverse("org_standings", args=[event.slug]),
        reverse("org_print_slips", args=[event.slug, 2]),
        reverse("org_print_standings", args=[event.slug]),
        reverse("org_export_json", args=[event.slug]),
        reverse("org_export_standings", args=[event.slug]),
    ]


def public_pages(event) -> list[str]:
    return [
        reverse(f"public:{name}", args=[event.slug]) for name in ("home", "pairings", "standings", "screen", "bracket")
    ] + [reverse("public:player", args=[event.slug, event.players.first().pk]), "/login/", "/favicon.ico"]


def test_head_answers_like_get_without_a_body_on_every_page(running, organiser):
    c = Client()
    c.force_login(organiser)
    visits = [(c, url) for url in organiser_pages(running)] + [(Client(), url) for url in public_pages(running)]
    for c, url in visits:
        get, head = c.get(url), c.head(url)
        assert get.status_code == 200, url
        assert head.status_code == 200, url
        assert (b"".join(head.streaming_content) if head.streaming else head.content) == b"", url
        assert head["Content-Type"] == get["Content-Type"], url
        body = b"".join(get.streaming_content) if get.streaming else get.content
        assert int(head["Content-Length"]) == len(body), url
        if get.has_header("ETag"):
            assert head["ETag"] == get["ETag"], url


def test_the_favicon_is_served_by_the_app(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200
    assert r["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    assert b"".join(r.streaming_content).startswith(b"\x00\x00\x01\x00")


def test_public_pages_send_a_well_formed_cache_control(running, settings):
    settings.PUBLIC_MAX_AGE = 5
    r = Client().get(reverse("public:standings", args=[running.slug]))
    assert sorted(d.strip() for d in r["Cache-Control"].split(",")) == [
        "max-age=0",
        "public",
        "s-maxage=5",
    ]
    settings.PUBLIC_MAX_AGE = 0
    r = Client().get(reverse("public:standings", args=[running.slug]))
    assert r["Cache-Control"] == "no-cache"
    Event.objects.filter(pk=running.pk).update(public=False)
    c = Client()
    c.force_login(running.roles.first().user)
    r = c.get(reverse("public:standings", args=[running.slug]))
    assert sorted(d.strip() for d in r["Cache-Control"].split(",")) == ["no-cache", "private"]


def test_every_page_carries_a_strict_content_security_policy(running, organiser, settings):
    c = Client()
    c.force_login(organiser)
    for url in [reverse("org_players", args=[running.slug]), reverse("public:screen", args=[running.slug])]:
        policy = c.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy


# ---------------------------------------------------------------- sizes


def test_a_request_body_over_the_limit_is_refused_before_it_is_read(client, settings):
    settings.MAX_REQUEST_BYTES = 1000
    r = client.post("/login/", {"username": "x" * 2000, "password": "y"})
    assert r.status_code == 413
    assert "too large" in r.content.decode()


def test_upload_limits_are_those_of_a_player_list(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 3 * 1024 * 1024
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= 3 * 1024 * 1024
    assert settings.MAX_REQUEST_BYTES <= 4 * 1024 * 1024


# ---------------------------------------------------------------- the public address and the page cache


def test_qr_codes_and_cached_pages_use_the_configured_address_whatever_the_host(running, settings):
    settings.SITE_URL = "https://swiss.example.org"
    settings.ALLOWED_HOSTS = ["swiss.example.org", "localhost"]
    url = reverse("public:home", args=[running.slug])
    seen = set()
    for host in ["swiss.example.org", "localhost:1", "localhost:2", "localhost:65535"]:
        r = Client().get(url, headers={"Host": host, "X-Forwarded-Host": "evil.example:666"})
        assert r.status_code == 200
        body = r.content.decode()
        assert f"https://swiss.example.org/e/{running.slug}/" in body
        assert "evil.example" not in body and "localhost" not in body
        seen.add(r["ETag"])
    assert len(seen) == 1


def test_forwarded_host_is_ignored_unless_configured(running, settings):
    url = reverse("public:home", args=[running.slug])
    r = Client().get(url, headers={"X-Forwarded-Host": "evil.example"})
    assert "evil.example" not in r.content.decode()


def test_standings_pages_beyond_the_last_are_the_last(running):
    url = reverse("public:standings", args=[running.slug])
    first = Client().get(url)
    etags = {Client().get(url, {"page": p})["ETag"] for p in ["1", "0", "-3", "abc", "999999", "2"]}
    assert etags == {first["ETag"]}


# ---------------------------------------------------------------- proxies and the client's address


BEHIND = {"REMOTE_ADDR": "10.0.0.2"}


@pytest.fixture
def behind_proxy(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    settings.PROXY_COUNT = 1
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600
    return settings


def test_only_the_proxy_may_say_the_visitor_used_https(behind_proxy, client):
    via_proxy = client.get("/login/", headers={"X-Forwarded-Proto": "https"}, **BEHIND)
    assert via_proxy.has_header("Strict-Transport-Security")
    direct = client.get("/login/", headers={"X-Forwarded-Proto": "https"}, REMOTE_ADDR="192.168.1.50")
    assert not direct.has_header("Strict-Transport-Security")


@pytest.mark.parametrize(
    ("peer", "forwarded", "client_address"),
    [
        ("10.0.0.2", "203.0.113.7", "203.0.113.7"),
        ("10.0.0.2", "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # whatever the client sent comes first
        ("10.0.0.2", "not-an-address", "10.0.0.2"),
        ("192.168.1.50", "203.0.113.7", "192.168.1.50"),  # not our proxy: its header is not believed
    ],
)
def test_the_client_address_is_read_behind_the_configured_proxy(behind_proxy, rf, peer, forwarded, client_address):
    from tournament.infra.middleware import client_ip, forwarded_headers

    request = rf.get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
    seen = []
    forwarded_headers(lambda r: seen.append(client_ip(r)))(request)
    assert seen == [client_address]


def _login(c: Client, username: str, password: str, address: str):
    return c.post("/login/", {"username": username, "password": password}, HTTP_X_FORWARDED_FOR=address, **BEHIND)


def test_a_stranger_at_the_venue_cannot_lock_the_organiser_out(behind_proxy, organiser):
    """Everybody reaches the app through nginx: the lockout counts each person's own address."""
    stranger = Client()
    for _ in range(6):
        _login(stranger, "olga", "guess", "198.51.100.23")
    locked = _login(stranger, "olga", "organiser-pass-1", "198.51.100.23")
    assert locked.status_code in (403, 429)
    organiser_device = Client()
    r = _login(organiser_device, "olga", "organiser-pass-1", "198.51.100.99")
    assert r.status_code == 302 and r["Location"] == reverse("event_list")


def test_the_lockout_is_by_username_and_address_together(behind_proxy, organiser, judge):
    c = Client()
    for _ in range(6):
        _login(c, "olga", "guess", "198.51.100.23")
    # The same address may still log in as somebody else.
    r = _login(Client(), "jules", "judge-pass-1", "198.51.100.23")
    assert r.status_code == 302
