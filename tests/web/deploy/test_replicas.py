"""Two app servers behind deploy/nginx.conf, one killed mid-round (docs/deployment.md): the web tier is stateless, nginx
skips the dead replica, and a result is stored once however often a phone sends it.

Like the other deploy tests: gunicorn as deploy/start.sh runs it and nginx as compose runs it, on loopback,
on a PostgreSQL database of its own.
"""

import http.client
import json
import os
import random
import re
import signal
import subprocess
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

import pytest

from deploy import local_nginx
from tests.web.deploy import test_deploy
from tests.web.deploy.test_deploy import PROD, ROOT, _free_port, run, server_env, wait_for_login

fresh_database_url = test_deploy.fresh_database_url  # a PostgreSQL database of the test's own

SLUG = "replicas"
PHONES = 128
# From player A's side; player B reports the mirror image.
RESULTS = ["2-0", "2-1", "1-2", "0-2", "1-1-1", "1-1"]


def event_file(players: int) -> dict:
    """One round published, no result yet: every player has a match to report."""
    ids = [f"p{k}" for k in range(players)]
    matches = [{"a": ids[t], "b": ids[t + 1], "table": t // 2 + 1} for t in range(0, players, 2)]
    return {
        "format": "swiss-event",
        "version": 1,
        "name": "Two servers",
        "preset": "mtg",
        "planned_rounds": 3,
        "players": [{"id": pid, "name": f"Player {k:03d}"} for k, pid in enumerate(ids)],
        "rounds": [{"number": 1, "matches": matches}],
    }


@contextmanager
def gunicorn(tmp_path: Path, database_url: str, name: str):
    """deploy/start.sh (one worker, four threads) in a process group of its own, so that it can be killed
    whole, as a container dies; yields its port and its process."""
    port = _free_port()
    env = server_env(
        tmp_path, database_url, port, SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0", GUNICORN_THREADS="4"
    )
    log_path = tmp_path / f"{name}.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            ["sh", "deploy/start.sh"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        wait_for_login(port, server, log_path)
        yield port, server
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)


@contextmanager
def nginx(tmp_path: Path, app_ports: list[int]):
    binary = local_nginx.binary()
    if binary is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light); CI installs it")
    port, root = _free_port(), tmp_path / "nginx"
    config = local_nginx.write_config(root, app_ports, port, error_log="warn", events="worker_connections 1024;")
    server = subprocess.Popen([binary, "-p", str(root), "-c", str(config)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.stderr.read().decode()
                time.sleep(0.1)
        yield port, root
    finally:
        server.terminate()
        server.wait(timeout=20)


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    failures: list[tuple[float, str]] = field(default_factory=list)  # (when, what): a request with no answer
    acknowledged: dict[str, float] = field(default_factory=dict)  # phone -> when its report was taken
    resent: int = 0  # reports sent again after a request that got no answer
    refused: list[str] = field(default_factory=list)
    posting: int = 0  # reports sent and not yet answered


class Phone:
    """One phone through nginx: its cookies, a new connection a request (venue Wi-Fi); a request that gets no
    answer (a 502 from nginx, a connection error) is sent again, as a person taps again."""

    def __init__(self, port: int, name: str, tally: Tally):
        self.port, self.name, self.tally = port, name, tally
        self.cookies: dict[str, str] = {}

    def once(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"HX-Request": "true"} if method == "POST" else {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode(errors="replace")
        finally:
            conn.close()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return response.status, text

    def until_answered(self, method: str, path: str, form: dict | None = None) -> tuple[int, str]:
        deadline = time.monotonic() + 30
        while True:
            try:
                status, text = self.once(method, path, form)
                if status < 500:
                    return status, text
                what = f"{method} {path}: HTTP {status}"
            except (OSError, http.client.HTTPException) as e:  # refused, reset, or cut off mid-answer
                what = f"{method} {path}: {e!r}"
            with self.tally.lock:
                self.tally.failures.append((time.monotonic(), f"{self.name} {what}"))
                self.tally.resent += method == "POST"
            assert time.monotonic() < deadline, what
            time.sleep(0.2)


def report_round(port: int, who: dict, tally: Tally) -> None:
    """Open the personal link, load the page, report (or confirm the opponent's report) until it is taken."""
    phone = Phone(port, f"player {who['pk']}", tally)
    status, _ = phone.until_answered("GET", f"/e/{SLUG}/me/{who['pk']}/{who['token']}/")
    assert status == 302, status
    for _attempt in range(5):
        status, page = phone.until_answered("GET", f"/e/{SLUG}/me/")
        assert status == 200, status
        form = {"csrfmiddlewaretoken": re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)}
        form["match"] = who["match"]
        if 'value="confirm"' in page:
            form.update(action="confirm", seen=re.search(r'name="seen" value="(\d+)"', page).group(1))
        else:
            form.update(action="report", result=who["result"])
        with tally.lock:
            tally.posting += 1
        try:
            status, answer = phone.until_answered("POST", f"/e/{SLUG}/me/report/", form)
        finally:
            with tally.lock:
                tally.posting -= 1
        refused = re.search(r'class="msg-error">([^<]*)', answer)
        if status == 200 and 'id="live"' in answer and refused is None:
            with tally.lock:
                tally.acknowledged[phone.name] = time.monotonic()
            return
        # The report on the match changed under the page (the opponent's report sent again): read it again.
        with tally.lock:
            tally.refused.append(f"{phone.name}: {refused.group(1) if refused else status}")
    raise AssertionError(f"{phone.name} never had its report taken")


@pytest.mark.needs_postgresql(reason="two app servers share one database, as replicas do; SQLite is one machine's")
def test_a_replica_killed_mid_round_loses_no_result_and_stores_none_twice(tmp_path, fresh_database_url):
    import psycopg

    env = {**PROD, "DATABASE_URL": fresh_database_url, "STATIC_ROOT": str(tmp_path / "static")}
    for args in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        done = run(args, env)
        assert done.returncode == 0, done.stderr
    (tmp_path / "event.json").write_text(json.dumps(event_file(PHONES)))
    done = run(["import_event", str(tmp_path / "event.json"), "--slug", SLUG], env)
    assert done.returncode == 0, done.stderr
    rng = random.Random(35)
    phones, expected = [], {}
    with psycopg.connect(fresh_database_url, autocommit=True) as conn:
        conn.execute("UPDATE tournament_event SET reporting = 'confirm', version = version + 1 WHERE slug = %s", [SLUG])
        rows = conn.execute(
            "SELECT m.id, a.id, a.token, b.id, b.token FROM tournament_match m "
            "JOIN tournament_round r ON r.id = m.round_id JOIN tournament_event e ON e.id = r.event_id "
            "JOIN tournament_player a ON a.id = m.player_a_id JOIN tournament_player b ON b.id = m.player_b_id "
            "WHERE e.slug = %s",
            [SLUG],
        ).fetchall()
    assert len(rows) == PHONES // 2
    for match, pa, ta, pb, tb in rows:
        result = rng.choice(RESULTS)
        games = [int(x) for x in result.split("-")] + [0]
        expected[match] = tuple(games[:3])
        mirrored = "-".join(str(x) for x in [games[1], games[0], *([games[2]] if games[2] else [])])
        phones.append({"pk": pa, "token": ta, "match": match, "result": result})
        phones.append({"pk": pb, "token": tb, "match": match, "result": mirrored})
    rng.shuffle(phones)

    tally = Tally()
    with ExitStack() as servers:
        # Both start at once (each applies migrations first: none left, as a second container finds them).
        first = servers.enter_context(gunicorn(tmp_path, fresh_database_url, "first"))
        second = servers.enter_context(gunicorn(tmp_path, fresh_database_url, "second"))
        port, nginx_root = servers.enter_context(nginx(tmp_path, [first[0], second[0]]))
        # The round over 8 s, a third of the phones in the half second before the kill: requests are under way
        # on the server that dies.
        window, kill_after = 8.0, 4.0
        start = time.monotonic()
        when = sorted(
            rng.uniform(kill_after - 0.5, kill_after) if k % 3 == 0 else rng.uniform(0, window)
            for k in range(len(phones))
        )
        killed_at = []

        def kill() -> None:
            time.sleep(kill_after - 0.3)
            deadline = time.monotonic() + 1
            while tally.posting < 8 and time.monotonic() < deadline:  # reports under way, some on this server
                time.sleep(0.001)
            os.killpg(first[1].pid, signal.SIGKILL)  # master and worker at once: a container that dies
            killed_at.append(time.monotonic())

        killer = threading.Thread(target=kill)
        killer.start()

        def scheduled(k: int) -> None:
            time.sleep(max(0.0, start + when[k] - time.monotonic()))
            report_round(port, phones[k], tally)

        with ThreadPoolExecutor(max_workers=24) as pool:
            list(pool.map(scheduled, range(len(phones))))
        killer.join()
        (killed,) = killed_at
        nginx_log = (nginx_root / "error.log").read_text()

    # Every phone was told its report was taken, some before the kill and some after it.
    assert len(tally.acknowledged) == PHONES
    assert any(at < killed for at in tally.acknowledged.values())
    assert any(at > killed + 1 for at in tally.acknowledged.values())
    # Requests failed only around the kill, and stopped within seconds: nginx left the dead server out.
    late = [(round(at - killed, 2), what) for at, what in tally.failures if not killed - 0.5 < at < killed + 3]
    assert late == [], late
    assert f"127.0.0.1:{first[0]}" in nginx_log, nginx_log
    # Reports under way on the server that died got no answer and were sent again (a confirmation the page's
    # stamp no longer matched is read again and sent: `tally.refused`).
    assert tally.resent >= 1, "nothing was under way on the server that died: the test proved nothing"
    # The database's word: every match stored once, as reported, by a player, with one audit entry.
    with psycopg.connect(fresh_database_url) as conn:
        stored = conn.execute(
            "SELECT m.id, m.games_a, m.games_b, m.games_drawn, m.entered_by_player_id IS NOT NULL, "
            "(SELECT count(*) FROM tournament_resultchange c WHERE c.match_id = m.id) "
            "FROM tournament_match m JOIN tournament_round r ON r.id = m.round_id "
            "JOIN tournament_event e ON e.id = r.event_id WHERE e.slug = %s",
            [SLUG],
        ).fetchall()
    wrong = [row for row in stored if (row[1], row[2], row[3]) != expected[row[0]] or not row[4] or row[5] != 1]
    assert wrong == [], wrong
    assert len(stored) == PHONES // 2


def test_nginx_passes_to_another_replica_only_what_is_safe_to_send_again(tmp_path):
    """A GET or HEAD (or a request not sent yet) goes to the next replica; a POST that reached one never does:
    nginx's `non_idempotent` would store a result twice were the app not to recognise it, and it would hide
    from the phone that its report may not have been taken."""
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    retry = re.findall(r"^\s*proxy_next_upstream\s+([^;]*);", nginx, re.M)
    assert retry == ["error timeout"]
    assert not re.search(r"^[^#]*non_idempotent", nginx, re.M)
    assert re.search(r"^\s*proxy_next_upstream_tries [2-9];", nginx, re.M)
    assert re.search(r"^\s*server app:8000 max_fails=1 fail_timeout=\d+s;", nginx, re.M)
    # Compose runs several app containers by default; the local copy for tests lists one server for each.
    assert "replicas: ${APP_REPLICAS:-2}" in (ROOT / "docker-compose.yml").read_text()
    local_nginx.write_config(tmp_path / "nginx", [8001, 8002], 8080)
    site = (tmp_path / "nginx" / "site.conf").read_text()
    assert "server 127.0.0.1:8001 max_fails=1" in site and "server 127.0.0.1:8002 max_fails=1" in site


def test_what_a_request_leaves_behind_is_shared_by_every_replica():
    """Sessions, the login lockout, budgets, one-time form keys and jobs are rows in the database; the cache is
    Redis when REDIS_URL is set (compose sets it); nothing a later request needs stays in one process."""
    code = (
        "import json; from django.conf import settings as s; import axes.conf;"
        "from django.core.cache import caches;"
        "print(json.dumps([s.SESSION_ENGINE, s.AXES_HANDLER, s.MESSAGE_STORAGE, type(caches['default']).__name__,"
        " s.TASKS['default']['BACKEND']]))"
    )
    done = run(["shell", "--verbosity", "0", "-c", code], {**PROD, "REDIS_URL": "redis://127.0.0.1:1/0"})
    assert done.returncode == 0, done.stderr
    session, lockout, messages, cache_backend, tasks = json.loads(done.stdout.strip().splitlines()[-1])
    assert session == "django.contrib.sessions.backends.db"
    assert lockout == "axes.handlers.database.AxesDatabaseHandler"
    assert messages == "django.contrib.messages.storage.fallback.FallbackStorage"  # a cookie, else the session
    assert cache_backend == "FailSafeRedisCache"
    assert tasks == "django_tasks_db.DatabaseBackend"
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "REDIS_URL: redis://redis:6379/0" in compose and "DATABASE_URL: postgres://" in compose
