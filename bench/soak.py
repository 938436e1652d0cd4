"""Soak with a fault: `python bench/soak.py [--seconds 120] [--phones 200] [--organisers 4] [--players 512]`

Creates a fresh PostgreSQL database, a 512-player event and four organiser accounts, starts gunicorn
(2 workers, DEBUG=0) on loopback, then for --seconds:

  phones       200 threads, each polling one public page (pairings, a name search, standings, a
               player's page, the venue screen) every 1-2 s over a keep-alive connection, as htmx
               does: HX-Request, gzip, If-None-Match with the ETag it has;
  organisers   4 logged-in sessions (CSRF token from the login page) entering results through the
               real one-click POST (mostly their own tables, sometimes anybody's, so they collide),
               and, whenever a round is complete, all pairing the next round at once and publishing it;
  the fault    at half time every app connection to PostgreSQL is killed (pg_terminate_backend, from a
               separate connection).

Then it checks the database: every result that got a success response is stored, exactly once, as
answered; no stored result was overwritten; every stored result is in the audit log once; the
standings the app serves (its standings CSV) equal those computed from the stored results (export_event
then the standings engine); each round was paired once. It prints the figures and the error counts, and
exits non-zero if a check fails. Only loopback traffic; everything it starts it stops; the database is
dropped at the end. Needs PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import csv
import http.client
import io
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import scratch  # bench/scratch.py (this script's folder is on the path)
from public_load import server_env  # bench/public_load.py (this script's folder is on the path)
from scratch import PG, scratch_database

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import standings  # noqa: E402 - the pure engine, to recompute standings from the stored results
from swiss import eventfile as ef  # noqa: E402
from swiss.tiebreakers import heading  # noqa: E402

PY = sys.executable
SLUG = "soak"
PASSWORD = "soak-organiser-pass-1"  # noqa: S105 - a throwaway account in a throwaway database
RESULTS = ["2-0", "2-1", "1-2", "0-2", "1-1", "2-0", "0-2"]


# ---------------------------------------------------------------- HTTP


class Session:
    """A browser's worth of HTTP for one organiser: cookies, the CSRF token, one request at a time."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None):
        # A fresh connection per request: a POST is never resent on a connection the server closed.
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        h = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            h["Content-Type"] = "application/x-www-form-urlencoded"
            h["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        try:
            conn.request(method, path, body=data, headers=h)
            r = conn.getresponse()
            text = r.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for cookie in r.msg.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return r.status, r.getheader("Location") or "", text

    def login(self, username: str) -> None:
        status, _, page = self.request("GET", "/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, location, _ = self.request(
            "POST", "/login/", {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"{username} could not log in: HTTP {status}")


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    counts: Counter = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[tuple[float, str]] = field(default_factory=list)

    def add(self, kind: str, outcome: str, seconds: float | None = None, at: float | None = None, why: str = ""):
        with self.lock:
            self.counts[(kind, outcome)] += 1
            if seconds is not None:
                self.latencies.setdefault(kind, []).append(seconds)
            if outcome in ("5xx", "conn error", "other", "refused"):
                self.errors.append((at or time.monotonic(), f"{kind}: {why}"[:200]))


# ---------------------------------------------------------------- phones


def phone(
    port: int, paths: list[str], stop: float, tally: Tally, rng: random.Random, poll: tuple, address: str
) -> None:
    path = rng.choice(paths)
    etag = None
    conn = None
    time.sleep(rng.uniform(0, poll[1]))
    while time.monotonic() < stop:
        # Each phone has its own address, as nginx reports it (the search limit is per address).
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip", "X-Forwarded-For": address}
        headers |= {"If-None-Match": etag} if etag else {}
        t = time.monotonic()
        status, why = None, ""
        for attempt in (1, 2):  # a GET may be resent once if the server had closed the idle connection
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", path, headers=headers)
                r = conn.getresponse()
                r.read()
                status = r.status
                etag = r.getheader("ETag") or etag
                if r.will_close:
                    conn.close()
                    conn = None
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as e:
                conn = None
                why = repr(e)
                if attempt == 2:
                    status = None
            except OSError as e:
                conn, why, status = None, repr(e), None
                break
        elapsed = time.monotonic() - t
        outcome = {200: "200", 304: "304"}.get(status) or (
            "conn error" if status is None else "5xx" if status >= 500 else "other"
        )
        tally.add("phone", outcome, elapsed, why=why or f"HTTP {status} {path}")
        time.sleep(rng.uniform(*poll))
    if conn is not None:
        conn.close()


# ---------------------------------------------------------------- organisers


ROW = re.compile(r'<tr id="m-(\d+)"[^>]*class="match( done)?[^"]*" data-table="(\d*)"')


@dataclass
class Entered:
    match_id: int
    result: str
    by: str
    at: float


class Organiser(threading.Thread):
    def __init__(self, k: int, n: int, port: int, stop: float, tally: Tally, log: dict, rng: random.Random):
        super().__init__(daemon=True)
        self.k, self.n, self.stop = k, n, stop
        self.s = Session(port)
        self.name = f"organiser{k}"
        self.tally, self.log, self.rng = tally, log, rng

    def timed(self, kind: str, method: str, path: str, body=None, headers=None):
        t = time.monotonic()
        try:
            status, location, text = self.s.request(method, path, body, headers)
        except OSError as e:
            self.tally.add(kind, "conn error", time.monotonic() - t, why=repr(e))
            return None, "", ""
        if status >= 500:
            self.tally.add(kind, "5xx", time.monotonic() - t, why=f"HTTP {status} {path}")
        return status, location, text

    def latest_round(self) -> dict | None:
        status, _, text = self.timed("org read", "GET", f"/events/{SLUG}/export/event.json")
        if status != 200:
            return None
        self.tally.add("org read", "ok")
        rounds = json.loads(text)["rounds"]
        return rounds[-1] if rounds else {"number": 0, "state": "complete", "matches": []}

    def pair(self, number: int) -> None:
        status, location, _ = self.timed("pair", "POST", f"/events/{SLUG}/rounds/pair/", {})
        if status is None or status >= 500:
            return
        paired = location.rstrip("/").endswith(f"/rounds/{number + 1}")
        self.tally.add("pair", "paired" if paired else "refused (already paired)")
        if paired:
            with self.log["lock"]:
                self.log["paired"].append((number + 1, self.name))
            self.publish(number + 1)

    def publish(self, number: int) -> None:
        status, _, _ = self.timed("publish", "POST", f"/events/{SLUG}/rounds/{number}/publish/", {})
        if status is not None and status < 500:
            self.tally.add("publish", "ok")

    def enter_results(self, number: int) -> bool:
        status, _, page = self.timed("org read", "GET", f"/events/{SLUG}/rounds/{number}/?outstanding=1")
        if status != 200:
            return False
        self.tally.add("org read", "ok")
        rows = []
        for chunk in page.split('<tr id="m-')[1:]:
            m = ROW.match('<tr id="m-' + chunk)
            version = re.search(r'name="version" value="(\d+)"', chunk)
            if m and version and not m.group(2):
                rows.append((int(m.group(1)), int(m.group(3) or 0), int(version.group(1))))
        mine = [r for r in rows if r[1] % self.n == self.k]
        # Mostly one's own tables; now and then somebody else's, as when two judges answer one table.
        todo = mine + [r for r in rows if r not in mine and self.rng.random() < 0.08]
        self.rng.shuffle(todo)
        for match_id, _table, version in todo:
            if time.monotonic() >= self.stop:
                break
            result = self.rng.choice(RESULTS)
            url = f"/events/{SLUG}/rounds/{number}/matches/{match_id}/result/"
            t = time.monotonic()
            status, location, text = self.timed(
                "result", "POST", url, {"result": result, "version": version}, {"HX-Request": "true"}
            )
            elapsed = time.monotonic() - t
            if status == 200 and 'role="alert"' not in text:
                self.tally.add("result", "stored", elapsed)
                with self.log["lock"]:
                    self.log["entered"].append(Entered(match_id, result, self.name, t))
            elif status == 200 and "since this page was shown" in text:
                # Another judge stored a different result first: the row shows it and asks before replacing.
                self.tally.add("result", "conflict shown", elapsed)
            elif status == 200:
                self.tally.add("result", "refused", elapsed, why=re.sub(r"\s+", " ", text)[:120])
            elif status is not None and status < 500:
                self.tally.add("result", "other", elapsed, why=f"HTTP {status}")
            time.sleep(self.rng.uniform(0.05, 0.25))
        return bool(rows)

    def run(self) -> None:
        self.s.login(self.name)
        while time.monotonic() < self.stop:
            rnd = self.latest_round()
            if rnd is None:
                time.sleep(0.5)
            elif rnd["state"] == "draft":
                self.publish(rnd["number"])
            elif rnd["number"] == 0 or all(
                "games" in m or m.get("result") or m.get("b") is None for m in rnd["matches"]
            ):
                self.pair(rnd["number"])
            elif not self.enter_results(rnd["number"]):
                time.sleep(0.3)


# ---------------------------------------------------------------- the fault


def kill_app_connections(dsn: str, db: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [db],
        ).fetchall()
    return sum(1 for (ok,) in rows if ok)


# ---------------------------------------------------------------- checks


def check_results(dsn: str, entered: list[Entered]) -> dict:
    with psycopg.connect(dsn) as conn:
        stored = {
            mid: (result, a, b, d)
            for mid, result, a, b, d in conn.execute(
                "SELECT id, result, games_a, games_b, games_drawn FROM tournament_match"
            )
        }
        changes: dict[int, list] = {}
        for mid, after in conn.execute("SELECT match_id, after FROM tournament_resultchange ORDER BY id"):
            changes.setdefault(mid, []).append(after)
        rounds = conn.execute(
            "SELECT number, count(*) FROM tournament_round GROUP BY number HAVING count(*) > 1"
        ).fetchall()
    missing, wrong, twice = [], [], []
    for e in entered:
        a, b, *d = (int(x) for x in e.result.split("-"))
        want = {"result": "played", "games": [a, b, d[0] if d else 0]}
        got = stored.get(e.match_id)
        if got is None or got[1] is None:
            missing.append(e)
        elif [got[1], got[2], got[3]] != want["games"]:
            wrong.append((e, got))
        if changes.get(e.match_id, []).count(want) != 1:
            twice.append(e)
    with_result = {mid for mid, (result, a, _, _) in stored.items() if a is not None or result == "double_loss"}
    return {
        "success responses": len(entered),
        "stored exactly once as answered": len(entered) - len(missing) - len(wrong) - len(twice),
        "missing": len(missing),
        "different from the answer": len(wrong),
        "not audited exactly once": len(twice),
        "matches with more than one change (overwritten)": sum(1 for c in changes.values() if len(c) > 1),
        "stored results without an audit entry": len(with_result - changes.keys()),
        "stored results without a success response": len(with_result - {e.match_id for e in entered}),
        "round numbers paired twice": len(rounds),
        "successes repeating a result already stored (harmless)": len(entered) - len({e.match_id for e in entered}),
        "results stored": len(with_result),
    }


def check_standings(port: int, manage: list[str], env: dict) -> tuple[bool, str]:
    text = subprocess.run(
        [*manage, "export_event", SLUG], env=env, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    expected = standings.compute(ef.loads(text))
    codes = list(expected.tiebreakers)
    want = [
        [str(r.rank), r.name, standings.format_value("points", r.points), str(r.wins), str(r.losses), str(r.draws)]
        + [standings.format_value(c, r.tiebreakers[c]) for c in codes]
        for r in expected.rows
    ]
    s = Session(port)
    s.login("organiser0")
    status, _, body = s.request("GET", f"/events/{SLUG}/export/standings.csv")
    # The CSV carries more columns (player number, drop, top-cut place); compare the standings' own.
    header, *rows = csv.reader(io.StringIO(body.lstrip("\ufeff"))) if body else ([], [])
    columns = ["rank", "name", "points", "wins", "losses", "draws", *(heading(c) for c in codes)]
    served = [[row[header.index(c)] for c in columns] for row in rows] if set(columns) <= set(header) else []
    if status != 200 or served != want:
        diff = next((i for i, (a, b) in enumerate(zip(served, want, strict=False)) if a != b), len(want))
        return False, f"HTTP {status}; first difference at row {diff}"
    return True, f"{len(want)} rows after round {expected.after_round}, identical"


# ---------------------------------------------------------------- main


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--organisers", type=int, default=4)
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker, as deploy/start.sh")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--poll",
        type=float,
        nargs=2,
        default=(1.0, 2.0),
        metavar=("MIN", "MAX"),
        help="seconds between a phone's polls (default 1 2)",
    )
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="swiss-soak-"))
    with scratch_database("soak") as dsn:
        db = dsn.rpartition("/")[2]  # its name, as pg_stat_activity gives it
        env = server_env(
            dsn,
            tmp,
            REDIS_URL="",
            AXES_FAILURE_LIMIT="50",
            # The soak stands where nginx would: it reports each phone's address in X-Forwarded-For.
            PROXY_COUNT="1",
        )
        manage = [PY, str(ROOT / "manage.py")]
        server = None
        failed = True
        try:
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            rng = random.Random(args.seed)
            doc = {
                "format": "swiss-event",
                "version": 1,
                "name": "Soak Open",
                "preset": "mtg",
                "players": [
                    {"id": f"p{i}", "name": f"Player {i:03d}", "rating": rng.randint(1200, 2200)}
                    for i in range(1, args.players + 1)
                ],
                "rounds": [],
            }
            (tmp / "event.json").write_text(json.dumps(doc))
            subprocess.run(
                [*manage, "import_event", str(tmp / "event.json"), "--slug", SLUG],
                env=env,
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
            staff = (
                "from django.contrib.auth.models import User\n"
                "from tournament.models import Event, EventRole\n"
                f"e = Event.objects.get(slug={SLUG!r})\n"
                f"for k in range({args.organisers}):\n"
                f"    u = User.objects.create_user(f'organiser{{k}}', password={PASSWORD!r})\n"
                "    EventRole.objects.create(event=e, user=u, role='organiser')\n"
            )
            subprocess.run([*manage, "shell", "-c", staff], env=env, check=True, cwd=ROOT)

            port = free_port()
            gunicorn = [str(Path(PY).parent / "gunicorn"), "tournament.wsgi:application"]
            gunicorn += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--threads", str(args.threads)]
            gunicorn += ["--log-level", "warning", "--timeout", "60"]
            server_log = (tmp / "gunicorn.log").open("w")
            server = subprocess.Popen(gunicorn, env=env, cwd=ROOT, stdout=server_log, stderr=subprocess.STDOUT)
            for _ in range(200):
                try:
                    if Session(port).request("GET", f"/e/{SLUG}/")[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                raise SystemExit("gunicorn did not answer in 20 s")

            with psycopg.connect(dsn) as conn:
                pks = [pk for (pk,) in conn.execute("SELECT id FROM tournament_player ORDER BY id")]
            names = [p["name"] for p in doc["players"]]
            paths = (
                [f"/e/{SLUG}/pairings/"] * 6
                + [f"/e/{SLUG}/pairings/?q={urllib.parse.quote(n)}" for n in rng.sample(names, 40)]
                + [f"/e/{SLUG}/standings/"] * 4
                + [f"/e/{SLUG}/standings/?page=3"] * 2
                + [f"/e/{SLUG}/players/{pk}/" for pk in rng.sample(pks, 30)]
                + [f"/e/{SLUG}/screen/", f"/e/{SLUG}/"] * 2
            )

            tally = Tally()
            log = {"lock": threading.Lock(), "entered": [], "paired": []}
            start = time.monotonic()
            stop = start + args.seconds
            threads = [
                threading.Thread(
                    target=phone,
                    args=(
                        port,
                        paths,
                        stop,
                        tally,
                        random.Random(args.seed * 1000 + i),
                        tuple(args.poll),
                        f"10.{i // 250}.{i % 250}.1",
                    ),
                    daemon=True,
                )
                for i in range(args.phones)
            ]
            threads += [
                Organiser(k, args.organisers, port, stop, tally, log, random.Random(args.seed * 7 + k))
                for k in range(args.organisers)
            ]
            print(
                f"soak: {args.players} players, {args.phones} phones polling every {args.poll[0]:g}-{args.poll[1]:g} s, "
                f"{args.organisers} organisers, {args.seconds} s, "
                f"gunicorn {args.workers} workers x {args.threads} threads on 127.0.0.1:{port}, database {db}"
            )
            for t in threads:
                t.start()
            time.sleep(args.seconds / 2)
            kill_at = time.monotonic()
            killed = kill_app_connections(f"{PG}/postgres", db)
            print(f"t={kill_at - start:.0f} s: pg_terminate_backend killed {killed} app connection(s)")
            for t in threads:
                t.join(timeout=args.seconds + 120)
            elapsed = time.monotonic() - start

            # ---- figures
            c = tally.counts
            print(f"\nload ({elapsed:.0f} s)")
            print(f"{'':22}{'requests':>9}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}  outcomes")
            for kind in ("phone", "org read", "result", "pair", "publish"):
                outcomes = {o: n for (k, o), n in sorted(c.items()) if k == kind}
                total = sum(outcomes.values())
                lat = tally.latencies.get(kind, [])
                print(
                    f"{kind:22}{total:>9}{total / elapsed:>8.1f}{pct(lat, 0.5):>8.0f}{pct(lat, 0.99):>8.0f}  "
                    + ", ".join(f"{o} {n}" for o, n in outcomes.items())
                )
            errors = sorted(tally.errors)
            near = [e for e in errors if abs(e[0] - kill_at) <= 5]
            print(
                f"\nerrors (5xx, connection errors, unexpected answers): {len(errors)}, "
                f"of which {len(near)} answered within 5 s of the kill"
            )
            server_log.flush()
            log_text = (tmp / "gunicorn.log").read_text(errors="replace")
            raised = Counter(
                line.split(":", 1)[0] for line in log_text.splitlines() if re.match(r"^[\w.]+(Error|Exception)\b", line)
            )
            print(f"server log: {log_text.count('Traceback')} tracebacks {dict(raised)}")
            for at, why in errors[:10]:
                print(f"  t={at - start:6.1f} s  {why}")
            rounds = sorted(log["paired"])
            print(f"rounds paired: {[n for n, _ in rounds]} (by {Counter(who for _, who in rounds)})")

            # ---- checks
            results = check_results(dsn, log["entered"])
            ok_standings, how = check_standings(port, manage, env)
            print("\nchecks")
            for k, v in results.items():
                print(f"  {k:52}{v:>8}")
            print(
                f"  {'standings served = standings from stored results':52}{'yes' if ok_standings else 'NO':>8}  ({how})"
            )
            failed = bool(
                results["missing"]
                or results["different from the answer"]
                or results["not audited exactly once"]
                or results["matches with more than one change (overwritten)"]
                or results["stored results without an audit entry"]
                or results["round numbers paired twice"]
                or not ok_standings
                or len({n for n, _ in rounds}) != len(rounds)
            )
            print("\nverdict:", "FAILED" if failed else "every success stored exactly once; standings consistent")
        finally:
            scratch.stop(server)
            shutil.rmtree(tmp, ignore_errors=True)
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
