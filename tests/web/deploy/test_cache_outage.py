"""A cache outage costs speed, never answers: with Redis stopped every page still answers, a result is
still stored, the outage is said once in the log, and the shared cache is used again once Redis is back
(`tournament/infra/cache.py`). Runs a redis-server of its own on a free port."""

import logging
import shutil
import socket
import subprocess
import time

import pytest
import redis
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournament.infra import cache as fail_safe
from tournament.models import Match

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not shutil.which("redis-server"), reason="no redis-server (apt-get install redis-server)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, tmp_path):
        self.port, self.tmp, self.process = free_port(), tmp_path, None
        self.client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.2)

    def start(self):
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, cwd=self.tmp, stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not answer in 5 s")

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def shared_cache(settings, tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    location = f"redis://127.0.0.1:{server.port}/0"
    settings.CACHES = {"default": {"BACKEND": "tournament.infra.cache.FailSafeRedisCache", "LOCATION": location}}
    yield server
    if server.process.poll() is None:
        server.stop()


def pages(event, organiser) -> list[tuple[Client, str]]:
    me = event.players.get(name="Player A")
    phone = Client()
    phone.get(reverse("player:link", args=[event.slug, me.pk, me.token]))
    desk = Client()
    desk.force_login(organiser)
    e = event.slug
    public = [reverse(f"public:{name}", args=[e]) for name in ("home", "pairings", "standings", "screen", "crosstable")]
    public += [reverse("public:pairings", args=[e]) + "?q=player"]
    return [
        *((Client(), url) for url in public),
        (phone, reverse("player:me", args=[e])),
        (desk, reverse("org_standings", args=[e])),
        (desk, reverse("org_round", args=[e, 2])),
    ]


def test_every_page_answers_while_redis_is_down_and_the_shared_cache_returns_with_it(
    shared_cache, live, organiser, caplog, monkeypatch
):
    monkeypatch.setattr(fail_safe, "RETRY_SECONDS", 0.5)
    for client, url in pages(live, organiser):
        assert client.get(url).status_code == 200, url
    assert shared_cache.client.dbsize() > 0  # the pages were cached in Redis

    shared_cache.stop()
    with caplog.at_level(logging.WARNING, logger="tournament.infra.cache"):
        for _ in range(2):
            for client, url in pages(live, organiser):
                assert client.get(url).status_code == 200, url
        desk = Client()
        desk.force_login(organiser)
        match = Match.objects.get(round__event=live, round__number=2, table=2)
        url = reverse("org_match_result", args=[live.slug, 2, match.pk])
        assert desk.post(url, {"result": "2-0", "version": match.version}).status_code in (200, 302)
        match.refresh_from_db()
        assert match.games == (2, 0, 0)
        # The page shows the new result at once: the copy kept in memory is by the event's version.
        standings = Client().get(reverse("public:pairings", args=[live.slug])).content.decode()
        assert "2-0" in standings
    unreachable = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(unreachable) == 1  # said once, not once a request

    shared_cache.start()
    time.sleep(0.6)
    with caplog.at_level(logging.WARNING, logger="tournament.infra.cache"):
        for client, url in pages(live, organiser):
            assert client.get(url).status_code == 200, url
    assert any("answers again" in r.getMessage() for r in caplog.records)
    assert shared_cache.client.dbsize() > 0  # back in Redis
    assert not cache.down
