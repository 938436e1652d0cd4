"""What docker-compose runs, tested without Docker: settings from the environment, `check --deploy`,
migrations on start and gunicorn serving the app and its static files on a real database."""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest

from deploy import local_nginx

ROOT = Path(__file__).resolve().parents[3]
PROD = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 60 + "-not-a-real-secret-" + "y" * 20,
    "ALLOWED_HOSTS": "swiss.example.org,127.0.0.1",
    "SITE_URL": "https://swiss.example.org",
}


def clean_environ() -> dict[str, str]:
    # The browser tests' async-unsafe switch is for the test process only, never for a deployment.
    return {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}


def run(args, env, **kw):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean_environ(), **env},
        capture_output=True,
        text=True,
        **kw,
    )


def test_production_settings_pass_check_deploy():
    result = run(["check", "--deploy", "--fail-level", "WARNING"], PROD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = run(["check"], {**PROD, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_malformed_boolean_fails_loudly():
    result = run(["check"], {"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_compose_runs_the_start_script_and_the_image_collects_static():
    compose = (ROOT / "docker-compose.yml").read_text()
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "deploy/start.sh" in dockerfile and "collectstatic" in dockerfile
    for service in ("db:", "redis:", "app:", "worker:", "proxy:", "pgdata:"):
        assert service in compose
    assert "REDIS_URL: redis://redis:6379/0" in compose


def test_compose_runs_a_worker_beside_the_app():
    """Large pairings run in the worker (tournament/jobs/workflow.py): the same image and settings as the web servers (one
    anchor), the task queue's worker command through deploy/worker.sh, time to finish a job when stopped."""
    import yaml

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    app, worker = services["app"], services["worker"]
    assert worker["build"] == app["build"] == "."
    assert worker["environment"] == app["environment"] and worker["environment"]["DATABASE_URL"].startswith("postgres")
    assert worker["command"] == ["sh", "deploy/worker.sh"] and "command" not in app
    assert "exec python manage.py db_worker" in (ROOT / "deploy" / "worker.sh").read_text()
    assert int(worker["stop_grace_period"].rstrip("s")) >= 60
    assert worker["depends_on"]["db"] == {"condition": "service_healthy"}


def test_the_worker_script_waits_for_the_migrations_then_runs_the_queue(tmp_path, fresh_database_url):
    env = {**PROD, "DATABASE_URL": fresh_database_url, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    script = ["sh", "deploy/worker.sh", "--batch", "--no-startup-delay"]
    early = subprocess.run(
        script, cwd=ROOT, env={**clean_environ(), **env, "WORKER_WAIT_SECONDS": "1"}, capture_output=True, text=True
    )
    assert early.returncode == 1 and "migrations are still not applied" in early.stderr
    assert run(["migrate", "--noinput"], {"DATABASE_URL": fresh_database_url}).returncode == 0
    ready = subprocess.run(
        script, cwd=ROOT, env={**clean_environ(), **env}, capture_output=True, text=True, timeout=120
    )
    assert ready.returncode == 0, ready.stdout + ready.stderr


def test_make_run_starts_the_worker_beside_the_server():
    """The README's `make run` does everything: the web server and the worker, which stops with it."""
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "manage.py db_worker" in recipe and "runserver" in recipe and "trap" in recipe


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def fresh_database_url(tmp_path):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{tmp_path / 'deploy.sqlite3'}"
        return
    import psycopg

    name = f"swiss_deploy_{uuid.uuid4().hex[:10]}"
    base = url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield f"{base}/{name}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def server_env(tmp_path, database_url: str, port: int, **extra: str) -> dict[str, str]:
    """The environment deploy/start.sh runs in, as compose gives it, behind a proxy, serving on `port`."""
    return {
        **clean_environ(),
        **PROD,
        "DATABASE_URL": database_url,
        "STATIC_ROOT": str(tmp_path / "static"),
        "BIND": f"127.0.0.1:{port}",
        "SECURE_SSL_REDIRECT": "0",
        "WEB_CONCURRENCY": "1",
        "BEHIND_PROXY": "1",
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        **extra,
    }


def wait_for_login(port: int, server: subprocess.Popen, log_path: Path) -> None:
    """Until the server answers its login page (a minute at most), failing with its log if it stops."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2):
                return
        except OSError:
            assert server.poll() is None, log_path.read_text()
            time.sleep(0.3)
    raise AssertionError("no answer: " + log_path.read_text())


@contextmanager
def started(tmp_path, database_url: str, **extra: str):
    """deploy/start.sh as docker-compose runs it: migrations, then gunicorn (one worker) on a free port.

    Yields the port and a function returning everything the server has written to its stdout and
    stderr so far (gunicorn's access and error logs, Django's log).
    """
    port = _free_port()
    env = server_env(
        tmp_path,
        database_url,
        port,
        # As in compose: the proxy is somebody else, so this test's own requests come "directly".
        TRUSTED_PROXIES="192.0.2.1",
        FORWARDED_ALLOW_IPS="192.0.2.1",
        **extra,
    )
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert collected.returncode == 0, collected.stderr
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["sh", "deploy/start.sh"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_login(port, server, log_path)
        yield port, log_path.read_text
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_start_script_migrates_and_serves_under_gunicorn(tmp_path, fresh_database_url):
    with started(tmp_path, fresh_database_url) as (port, _log):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=5) as r:
            body = r.read().decode()
        assert "Log in" in body
        css = [line for line in body.splitlines() if "app." in line and ".css" in line][0]
        href = css.split('href="')[1].split('"')[0]
        assert href != "/static/css/app.css", "production serves hashed static names"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{href}", timeout=5) as r:
            assert r.status == 200 and "max-age" in r.headers.get("Cache-Control", "")
        check_http_limits(port)


def raw_http(port: int, request: bytes, timeout: float = 10) -> bytes:
    """Send bytes as they are and read the whole answer (the server closes: HTTP/1.0)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(request)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def check_http_limits(port: int) -> None:
    """What gunicorn + the app answer on the wire."""
    # A 300 MB anonymous upload is refused at once from its declared length; nothing of it is read.
    started = time.monotonic()
    answer = raw_http(
        port,
        b"POST /login/ HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        b"Content-Length: 314572800\r\n\r\n--x\r\n",
    )
    assert answer.split(b"\r\n")[0].endswith(b" 413 Request Entity Too Large") and time.monotonic() - started < 5, (
        answer[:200]
    )
    # HEAD: the GET's headers, no body.
    head, _, body = raw_http(port, b"HEAD /login/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 200 OK") and body == b""
    assert b"content-length: 0" not in head.lower() and b"content-security-policy:" in head.lower()
    # The favicon, served by the app itself (an offline venue has no CDN).
    icon = raw_http(port, b"GET /favicon.ico HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    assert icon.split(b"\r\n")[0].endswith(b" 200 OK") and b"\r\n\r\n\x00\x00\x01\x00" in icon
    # A client talking to gunicorn directly cannot claim HTTPS: no HSTS for it.
    claimed = raw_http(port, b"GET /login/ HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Forwarded-Proto: https\r\n\r\n")
    assert b"strict-transport-security" not in claimed.partition(b"\r\n\r\n")[0].lower()


def test_nginx_closes_a_kept_connection_before_gunicorn_does():
    """A connection to gunicorn that nginx keeps must be closed by nginx first: when gunicorn's idle limit is
    the shorter (its default is 2 s, nginx's 60 s), a report sent on a connection gunicorn is closing gets a
    502, and nginx never resends a POST (seen once in bench/self_report.py)."""
    start = (ROOT / "deploy" / "start.sh").read_text()
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    gunicorn_idle = re.search(r"--keep-alive (\d+)", start)
    assert gunicorn_idle, "deploy/start.sh leaves gunicorn's keep-alive at its default of 2 s"
    upstream = re.search(r"upstream app \{(.*?)\}", nginx, re.S).group(1)
    assert re.search(r"^\s*keepalive \d+;", upstream, re.M)  # connections are kept at all
    nginx_idle = re.search(r"keepalive_timeout (\d+)s;", upstream)
    assert nginx_idle, "deploy/nginx.conf keeps upstream connections for its default of 60 s"
    assert int(nginx_idle.group(1)) < int(gunicorn_idle.group(1))


def test_gunicorn_and_nginx_trust_forwarded_headers_only_from_the_proxy():
    start = (ROOT / "deploy" / "start.sh").read_text()
    assert '--forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1,::1}"' in start
    assert '"*"' not in start
    for limit in ("--limit-request-line", "--limit-request-fields", "--limit-request-field_size"):
        assert limit in start
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert 'proxy_set_header X-Forwarded-Host "";' in nginx
    assert "client_max_body_size 4m;" in nginx
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "SITE_URL: ${SITE_URL:-http://localhost:8080}" in compose
    assert "TRUSTED_PROXIES: ${APP_SUBNET:-172.30.53.0/24}" in compose
    assert "FORWARDED_ALLOW_IPS: ${APP_SUBNET:-172.30.53.0/24}" in compose


def test_check_deploy_asks_for_the_site_address():
    result = run(["check", "--deploy", "--fail-level", "WARNING"], {**PROD, "SITE_URL": ""})
    assert result.returncode != 0 and "tournament.W001" in result.stdout + result.stderr


def test_a_bad_trusted_proxy_fails_loudly():
    result = run(["check"], {**PROD, "TRUSTED_PROXIES": "nginx"})
    assert result.returncode != 0 and "TRUSTED_PROXIES" in result.stderr


def fetch(port: int, path: str, method: str = "GET", headers: dict | None = None) -> int:
    """The status of one request, redirects not followed."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, headers={"Host": "127.0.0.1", **(headers or {})})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def shell(env: dict, code: str) -> str:
    result = run(["shell", "--verbosity", "0", "-c", code], env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_no_log_of_the_deployment_holds_a_personal_link_secret(tmp_path, fresh_database_url):
    """Tokens are never in logs. gunicorn's access log (request line, referrer) and Django's log
    ("Not Found: …" for a revoked link, "Forbidden (CSRF …)" for a post) name the link without its secret."""
    with started(tmp_path, fresh_database_url) as (port, log):
        env = {"DATABASE_URL": fresh_database_url}
        event_file = tmp_path / "event.json"
        event_file.write_text(
            '{"format": "swiss-event", "version": 1, "name": "Logs", "preset": "mtg",'
            ' "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo"}], "rounds": []}'
        )
        imported = run(["import_event", str(event_file), "--slug", "logs"], env)
        assert imported.returncode == 0, imported.stderr
        pk, old = shell(
            env, "from tournament.models import Player; p = Player.objects.get(name='Ann'); print(p.pk, p.token)"
        ).split()
        # A lost phone: the link is reissued, the old one is refused (404) from now on.
        new = shell(
            env,
            "from tournament.services import reports; from tournament.models import Player;"
            f" print(reports.reissue(Player.objects.get(pk={pk}), None).token)",
        )
        link, revoked = f"/e/logs/me/{pk}/{new}/", f"/e/logs/me/{pk}/{old}/"
        assert fetch(port, link) == 302
        assert fetch(port, link + "?from=card") == 302
        assert fetch(port, revoked) == 404
        assert fetch(port, link, method="POST") == 403  # no CSRF cookie: Django logs "Forbidden (CSRF …): <path>"
        assert fetch(port, "/e/logs/", headers={"Referer": f"http://127.0.0.1:{port}{link}"}) == 200
        deadline = time.monotonic() + 10
        while log().count(f"/me/{pk}/[redacted]/") < 7 and time.monotonic() < deadline:
            time.sleep(0.2)
        written = log()
    for secret in (new, old):
        assert secret not in written, written
    assert written.count(f"/me/{pk}/[redacted]/") >= 7, written  # request lines, a referrer, Django's 404 and 403
    assert f"Not Found: /e/logs/me/{pk}/[redacted]/" in written
    assert f"Forbidden (CSRF cookie not set.): /e/logs/me/{pk}/[redacted]/" in written
    assert f'"GET /e/logs/me/{pk}/[redacted]/?from=card HTTP/1.1" 302' in written


@contextmanager
def nginx_in_front(tmp_path, app_port: int):
    """deploy/nginx.conf as the compose proxy runs it, in front of the app on `app_port`; yields its port."""
    nginx = local_nginx.binary()
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light); CI installs it")
    port, root = _free_port(), tmp_path / "nginx"
    config = local_nginx.write_config(root, app_port, port, error_log="info")
    server = subprocess.Popen([nginx, "-p", str(root), "-c", str(config)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read().decode()
                time.sleep(0.1)
        yield port, root
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_nginx_logs_the_personal_link_without_its_secret(tmp_path, fresh_database_url):
    """The proxy's access log (request line, referrer), and its error log when the app behind is down."""
    token = "S3cr3t-t0ken_ABCDEFGHIJKLMNOPQ"
    link = f"/e/logs/me/7/{token}/"
    with started(tmp_path, fresh_database_url) as (app_port, _log), nginx_in_front(tmp_path, app_port) as (port, root):
        assert fetch(port, link) == 404  # no such event: the app's answer, through the proxy
        assert fetch(port, link + "?x=1") == 404
        assert fetch(port, "/login/", headers={"Referer": f"http://venue{link}"}) == 200
    access = (root / "access.log").read_text()
    assert token not in access, access
    assert '"GET /e/logs/me/7/[redacted]/ HTTP/1.1" 404' in access
    assert '"GET /e/logs/me/7/[redacted]/?x=1 HTTP/1.1" 404' in access
    assert '"http://venue/e/logs/me/7/[redacted]/"' in access
    # Nothing listens behind this one: 502, and nginx's error log says why without the request line.
    with nginx_in_front(tmp_path / "down", _free_port()) as (port, root):
        assert fetch(port, link) == 502
        assert fetch(port, "/login/") == 502
    errors = (root / "error.log").read_text()
    assert "connect() failed" in errors and '"GET /login/ HTTP/1.1"' in errors  # other pages say what failed
    assert token not in errors and token not in (root / "access.log").read_text(), errors


def test_the_served_app_keeps_its_loaded_code_out_of_the_collectors_passes():
    """A full garbage collection over everything a worker had loaded stopped all its threads for 50-110 ms
    every few seconds while a 2048-player event reported its results (bench/self_report.py). The WSGI app
    gunicorn loads freezes what is loaded (the views included) and collects less often."""
    # In a process of its own: importing tournament.wsgi here would freeze the test run's objects.
    code = (
        "import gc, json, sys, tournament.wsgi as w; "
        "print(json.dumps([gc.get_freeze_count(), len(gc.get_objects()), gc.get_threshold(), "
        "'tournament.views.player' in sys.modules]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**clean_environ(), **PROD}, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    frozen, scanned, thresholds, views_loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert views_loaded
    assert scanned * 20 < frozen, (scanned, frozen)
    assert thresholds[0] >= 10 * 700  # CPython's default: a pass every 700 new objects


@pytest.mark.needs_postgresql(reason="it ends the app's connections with pg_terminate_backend (SQLite has none to end)")
def test_the_server_ending_its_connections_costs_no_request(tmp_path, fresh_database_url):
    """A database restart (here every app connection ended by `pg_terminate_backend`) between requests: the
    app finds its persistent connections dead before it uses them and opens new ones; nobody sees an error.
    The check asks the server only when it has said something (`tournament/infra/fast/postgresql/base.py`)."""
    import psycopg

    with started(tmp_path, fresh_database_url) as (port, log):
        for _ in range(12):  # each of gunicorn's threads opens its connection (an event lookup: 404)
            assert fetch(port, "/e/no-such-event/") == 404
        name = fresh_database_url.rsplit("/", 1)[1]
        with psycopg.connect(fresh_database_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            ended = conn.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s", [name]
            ).fetchone()[0]
        assert ended >= 1
        time.sleep(0.5)
        assert [fetch(port, "/e/no-such-event/") for _ in range(12)] == [404] * 12, log()


@pytest.mark.django_db
@pytest.mark.needs_postgresql(
    reason="the health check of the PostgreSQL backend, tournament/infra/fast/postgresql/base.py"
)
def test_a_silent_connection_is_usable_without_a_round_trip_and_an_ended_one_is_not(monkeypatch):
    import psycopg
    from django.db import connections
    from django.db.backends.postgresql import base

    own = connections.create_connection("default")  # not the test's connection, which holds its transaction
    try:
        own.ensure_connection()
        asked = []
        monkeypatch.setattr(base.DatabaseWrapper, "is_usable", lambda self: asked.append(1) or True)
        assert own.is_usable() and not asked  # idle, nothing waiting: no SELECT 1
        monkeypatch.undo()
        pid = own.connection.info.backend_pid
        with psycopg.connect(os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 5
        while own.is_usable() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not own.is_usable()
    finally:
        own.close()
