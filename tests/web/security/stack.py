"""The deployment the security probes run against: gunicorn started by deploy/start.sh (DEBUG off), on a
database of its own (PostgreSQL when DATABASE_URL names one), sharing a redis-server of its own."""

import http.client
import shutil
from contextlib import contextmanager

import pytest

from tests.web.deploy.test_cache_outage import RedisServer
from tests.web.deploy.test_deploy import run, shell, started


@contextmanager
def served(tmp_path, database_url: str, **extra: str):
    """gunicorn + the database + Redis; yields the port and an environment in which `manage.py` reaches the
    same database (`run`, `shell`)."""
    if not shutil.which("redis-server"):
        pytest.skip("no redis-server (apt-get install redis-server)")
    redis = RedisServer(tmp_path)
    redis.start()
    try:
        location = f"redis://127.0.0.1:{redis.port}/0"
        with started(tmp_path, database_url, REDIS_URL=location, **extra) as (port, _log):
            yield port, {"DATABASE_URL": database_url, "REDIS_URL": location}
    finally:
        redis.stop()


def request(port: int, path: str, method: str = "GET", headers: dict | None = None, body: str | None = None):
    """One request as it is sent (no redirect followed); the status, the headers (lower-case names, a list
    each) and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers={"Host": "127.0.0.1", **(headers or {})})
        response = conn.getresponse()
        content = response.read()
        seen: dict[str, list[str]] = {}
        for name, value in response.getheaders():
            seen.setdefault(name.lower(), []).append(value)
        return response.status, seen, content
    finally:
        conn.close()


__all__ = ["served", "request", "run", "shell"]
