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
        # Migrated first, without the server's minute to answer (a busy machine takes longer), so that
        # deploy/start.sh finds nothing to do but serve.
        migrated = run(["migrate", "--noinput"], {"DATABASE_URL": database_url}, timeout=600)
        assert migrated.returncode == 0, migrated.stderr
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


class Session:
    """One browser over plain HTTP: its cookies (Secure ones too: the probe talks to gunicorn behind where TLS
    would end), the CSRF token sent with every POST, redirects not followed."""

    def __init__(self, port: int, address: str | None = None):
        self.port, self.cookies = port, {}
        self.address = address  # as X-Forwarded-For says it (a server started with the probe as its proxy)

    def send(self, method: str, path: str, form: dict | None = None, files: dict | None = None, headers=None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.address:
            headers["X-Forwarded-For"] = self.address
        body = None
        if method == "POST":
            form = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **(form or {})}
            if files:
                boundary = "probe-boundary-7d1f"
                parts = [
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                    for k, v in form.items()
                ]
                for k, (name, data) in files.items():
                    parts.append(
                        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; filename="{name}"\r\n'
                        f"Content-Type: application/octet-stream\r\n\r\n".encode()
                        + data
                        + b"\r\n"
                    )
                body = b"".join(parts) + f"--{boundary}--\r\n".encode()
                headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
            else:
                from urllib.parse import urlencode

                body = urlencode(form)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, seen, content = request(self.port, path, method, headers, body)
        for value in seen.get("set-cookie", []):
            key, _, rest = value.partition("=")
            self.cookies[key.strip()] = rest.split(";", 1)[0]
        return status, seen, content

    def get(self, path: str, **kw):
        return self.send("GET", path, **kw)

    def post(self, path: str, form: dict | None = None, **kw):
        return self.send("POST", path, form, **kw)

    def login(self, username: str, password: str) -> None:
        self.get("/login/")
        status, headers, content = self.post("/login/", {"username": username, "password": password})
        assert status == 302, (status, content[:500])


__all__ = ["served", "request", "run", "shell", "Session"]
