"""How long does a big roster import take, and does anybody else wait? `python bench/roster_import.py [--rows 50000]`

Creates a fresh PostgreSQL database with two events and an organiser, starts gunicorn (2 workers x 4
threads, as deploy/start.sh, DEBUG=0) on loopback, logs in, and imports a generated CSV file of --rows
players (names, ratings, ids: 1.3 MB at 50,000 rows) the way a browser does: upload for the preview,
then confirm. Meanwhile a phone polls the OTHER event's public pairings page every 50 ms, and a
second organiser adds a player to the other event: they must not wait for the import.

Prints the file size, the preview and confirm times, the roster size after, and the other event's
poll latencies (p50, max) and the other organiser's add time during the import. Everything it starts
it stops; the database is dropped at the end. Needs PostgreSQL at $BENCH_PG (default
postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import http.client
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import psycopg
from public_load import server_env  # bench/public_load.py (this script's folder is on the path)
from scratch import scratch_database  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
PASSWORD = "bench-organiser-pass-1"  # a throwaway account in a throwaway database
SETUP = f"""
from django.contrib.auth import get_user_model
from tournament.models import Event, EventRole
for name in ("olga", "oscar"):
    user = get_user_model().objects.create_user(name, password="{PASSWORD}")
    for slug in ("big", "other"):
        event, _ = Event.objects.get_or_create(slug=slug, defaults={{"name": slug.title()}})
        EventRole.objects.create(event=event, user=user, role="organiser")
"""


class Session:
    """A browser's worth of HTTP: cookies, the CSRF token, a fresh connection per request."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str = ""):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers.update({"Content-Type": content_type, "X-CSRFToken": self.cookies.get("csrftoken", "")})
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for cookie in r.msg.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return r.status, text

    def form(self, path: str, fields: dict[str, str]):
        return self.request("POST", path, urllib.parse.urlencode(fields).encode(), "application/x-www-form-urlencoded")

    def multipart(self, path: str, fields: dict[str, str], files: dict[str, bytes]):
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'.encode() + v.encode() + b"\r\n"
            for k, v in fields.items()
        ]
        parts += [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"; filename="{k}.csv"\r\n'
            f"Content-Type: text/csv\r\n\r\n".encode()
            + v
            + b"\r\n"
            for k, v in files.items()
        ]
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")

    def login(self, username: str) -> None:
        _, page = self.request("GET", "/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, _ = self.form("/login/", {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token})
        if status != 302:
            raise SystemExit(f"{username} could not log in: HTTP {status}")


def roster_csv(rows: int) -> bytes:
    lines = ["name,rating,id"]
    lines += [f"Player {i:05d} Lastname,{1000 + i % 1500},FED{i:06d}" for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited")
        try:
            Session(port).request("GET", "/login/")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("gunicorn did not answer")


def poll_other(port: int, stop: threading.Event, latencies: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        status, _ = Session(port).request("GET", "/e/other/pairings/")
        if status == 200:
            latencies.append(time.perf_counter() - started)
        time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=50_000)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="swiss-bench-"))
    with scratch_database("import") as url:
        env = server_env(url, tmp)
        server = None
        try:
            manage = [PY, str(ROOT / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "shell", "-c", SETUP], env=env, check=True, cwd=ROOT)
            port = free_port()
            gunicorn = [str(Path(PY).parent / "gunicorn"), "tournament.wsgi:application", "--bind", f"127.0.0.1:{port}"]
            gunicorn += ["--workers", "2", "--threads", "4", "--log-level", "warning"]
            server = subprocess.Popen(gunicorn, env=env, cwd=ROOT)
            wait_until_up(port, server)

            olga, oscar = Session(port), Session(port)
            olga.login("olga")
            oscar.login("oscar")
            data = roster_csv(args.rows)
            print(f"file: {args.rows} rows, {len(data) / 1e6:.2f} MB")

            latencies: list[float] = []
            stop = threading.Event()
            phone = threading.Thread(target=poll_other, args=(port, stop, latencies))
            phone.start()
            try:
                t = time.perf_counter()
                status, page = olga.multipart("/events/big/players/csv/", {}, {"file": data})
                preview = time.perf_counter() - t
                if status != 200 or f"{args.rows} rows will be imported" not in page.replace(",", ""):
                    raise SystemExit(f"preview failed: HTTP {status}")
                print(f"preview (parse and check every row): {preview:.2f} s")

                other_add: list[float] = []

                def add_elsewhere() -> None:
                    time.sleep(0.3)
                    t = time.perf_counter()
                    _, roster = oscar.request("GET", "/events/other/players/")
                    once = re.search(r'name="once" value="([^"]+)"', roster).group(1)
                    oscar.form("/events/other/players/add/", {"name": "Late Entry", "once": once})
                    other_add.append(time.perf_counter() - t)

                adder = threading.Thread(target=add_elsewhere)
                adder.start()
                t = time.perf_counter()
                status, page = olga.multipart("/events/big/players/csv/confirm/", {"text": data.decode()}, {})
                confirm = time.perf_counter() - t
                adder.join()
                if status != 302:
                    raise SystemExit(f"confirm failed: HTTP {status}")
                print(f"confirm (parse again, one bulk insert under one lock): {confirm:.2f} s")
            finally:
                stop.set()
                phone.join()

            with psycopg.connect(url) as conn:
                count = conn.execute(
                    "SELECT count(*) FROM tournament_player p JOIN tournament_event e ON e.id = p.event_id "
                    "WHERE e.slug = 'big'"
                ).fetchone()[0]
            print(f"roster after: {count} players (expected {args.rows})")
            if latencies:
                print(
                    f"other event's pairings page during the import: {len(latencies)} polls, "
                    f"p50 {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
                )
            print(f"other event's organiser adding a player meanwhile: {other_add[0]:.2f} s (page load and add)")
            if count != args.rows:
                sys.exit(1)
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                server.wait(30)


if __name__ == "__main__":
    main()
