"""How many phones can poll the public pages? `python bench/public_load.py [--players 2048] [--duration 10]`

Creates a fresh PostgreSQL database, imports a generated event (2048 players, round 9 of 9 in progress:
half its results in), starts gunicorn (2 workers x 4 threads as in deploy/start.sh, DEBUG=0) on loopback
and drives it with wrk:

  standings   /e/bench/standings/ (page 1 of 21), a full page, gzip as phones ask for it
  standings*  the same without gzip (wrk's default, more bytes)
  pairings    /e/bench/pairings/: all 2048 players by name, gzip
  poll 304    the htmx poll of the standings table with the ETag the phone already has
  changing    the same polls while the event changes every 2 s (each change: new standings, new pages)

For each it prints requests per second, p50/p99 latency, failed responses and socket errors, and the
server's CPU per request (gunicorn workers plus their PostgreSQL backends, from /proc). Then "phones":
a thousand phones polling every 15 s are ~70 requests per second, sent at that pace for --duration
seconds, and the share of one core the server spent on them. Everything it starts, it stops; the
database is dropped at the end.

Targets on a 2-core machine: >= 300 req/s for the standings page, >= 1000 req/s for 304s, no errors.
Needs wrk (apt-get install wrk) and PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432).
`--redis redis://127.0.0.1:6379/9` shares the cache between the workers, as several app servers would.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from scratch import PG, scratch_database, stop  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
CLK_TCK = os.sysconf("SC_CLK_TCK")


def generate(players: int, rounds: int) -> dict:
    """bench/standings.py's realistic event, with the last round half played."""
    spec = importlib.util.spec_from_file_location("bench_standings", ROOT / "bench" / "standings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    doc = module.generate(players, rounds=rounds)
    last = doc["rounds"][-1]
    for k, m in enumerate(last["matches"]):
        if m.get("b") and k % 2:
            m.pop("games", None)
    return doc


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU time (user + system) of each live process."""
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return seconds


def cpu_spent(before: dict[int, float], master: int, base: str, db: str) -> float:
    """CPU spent by the server since `before`; a database backend started meanwhile counts in full."""
    after = cpu_seconds(server_pids(master, base, db))
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def server_pids(master: int, base: str, db: str) -> list[int]:
    out = subprocess.run(
        ["psql", "-At", base, "-c", f"SELECT pid FROM pg_stat_activity WHERE datname = '{db}'"],
        capture_output=True,
        text=True,
    ).stdout
    return [master, *children(master), *(int(p) for p in out.split())]


def get(port: int, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def wait_until_up(port: int, path: str, proc: subprocess.Popen) -> None:
    for _ in range(200):
        if proc.poll() is not None:
            sys.exit("gunicorn exited; see its output above")
        try:
            if get(port, path).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("gunicorn did not answer in 20 s")


def wrk(port: int, path: str, headers: dict, duration: int, connections: int) -> dict:
    cmd = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency"]
    for k, v in headers.items():
        cmd += ["-H", f"{k}: {v}"]
    cmd.append(f"http://127.0.0.1:{port}{path}")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

    def ms(label: str) -> float:
        m = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
        "p50": ms("50%"),
        "p99": ms("99%"),
        "bad": int(bad.group(1)) if bad else 0,
        "socket": sum(int(x) for x in sock.groups()) if sock else 0,
        "command": shlex.join(cmd),
    }


def paced(port: int, path: str, headers: dict, rate: float, duration: int, keep_alive: bool) -> tuple[int, int]:
    """`rate` requests per second for `duration` seconds from a few threads; (sent, failed).

    Without keep-alive every request opens a connection, as a phone polling every 15 s does (gunicorn
    keeps idle connections 2 s) and as nginx does towards the app unless told to keep them.
    """
    threads = 4
    interval = threads / rate
    counts = [0, 0]
    lock = threading.Lock()
    stop = time.monotonic() + duration

    def run(offset: float) -> None:
        conn = None
        due = time.monotonic() + offset
        while due < stop:
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status in (200, 304)
                if not keep_alive or response.will_close:
                    conn.close()
                    conn = None
            except OSError:
                ok, conn = False, None
            with lock:
                counts[0] += 1
                counts[1] += not ok
            due += interval

    workers = [threading.Thread(target=run, args=(k * interval / threads,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return counts[0], counts[1]


def keep_changing(dsn: str, duration: int, every: float = 2.0) -> None:
    """Bump the event's version every `every` seconds for `duration` seconds."""
    stop = time.monotonic() + duration
    while time.monotonic() < stop:
        time.sleep(every)
        sql = "UPDATE tournament_event SET version = version + 1, updated_at = now() WHERE slug = 'bench'"
        subprocess.run(["psql", "-q", dsn, "-c", sql], check=True, stdout=subprocess.DEVNULL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, tmp: Path, **extra: str) -> dict[str, str]:
    """The environment the app server runs in here: production settings (DEBUG=0) over plain HTTP on loopback."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        ALLOWED_HOSTS="127.0.0.1",
        STATIC_ROOT=str(tmp / "static"),
        LOG_LEVEL="ERROR",
    )
    env.update(extra)  # the caller's own settings win (a bind address, the test client's host)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker, as deploy/start.sh")
    parser.add_argument("--redis", default="", help="REDIS_URL for the app (default: local memory per worker)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk not found: apt-get install wrk")

    tmp = Path(tempfile.mkdtemp(prefix="swiss-bench-"))
    with scratch_database("load") as url:
        db = url.rpartition("/")[2]  # its name, as pg_stat_activity gives it
        env = server_env(url, tmp, REDIS_URL=args.redis)
        server = None
        try:
            manage = [PY, str(ROOT / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            doc = generate(args.players, args.rounds)
            (tmp / "event.json").write_text(json.dumps(doc))
            t = time.perf_counter()
            subprocess.run(
                [*manage, "import_event", str(tmp / "event.json"), "--slug", "bench"],
                env=env,
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
            print(f"imported {args.players} players, {args.rounds} rounds in {time.perf_counter() - t:.1f} s")

            port = free_port()
            gunicorn = [str(Path(PY).parent / "gunicorn"), "tournament.wsgi:application"]
            gunicorn += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--log-level", "warning"]
            gunicorn += ["--threads", str(args.threads)]
            server = subprocess.Popen(gunicorn, env=env, cwd=ROOT)
            wait_until_up(port, "/e/bench/", server)

            standings, pairings = "/e/bench/standings/", "/e/bench/pairings/"
            gz = {"Accept-Encoding": "gzip"}
            poll = {"HX-Request": "true", "Accept-Encoding": "gzip"}
            # Warm up: every worker renders each page once (per event version; local memory is per process).
            t = time.perf_counter()
            first = get(port, standings, gz)
            print(f"first standings render (standings computed): {time.perf_counter() - t:.2f} s")
            for _ in range(3):
                wrk(port, standings, gz, 1, args.connections)
                wrk(port, pairings, gz, 1, args.connections)
                wrk(port, standings, {}, 1, args.connections)
                wrk(port, standings, poll, 1, args.connections)
            etag = get(port, standings, poll).getheader("ETag")
            sizes = {
                "standings": len(first.body),
                "pairings": len(get(port, pairings, gz).body),
                "standings*": len(get(port, standings).body),
            }

            runs = [
                ("standings", standings, gz),
                ("standings*", standings, {}),
                ("pairings", pairings, gz),
                ("poll 304", standings, {**poll, "If-None-Match": etag}),
                # The same polls while results come in: the event changes every 2 s, as services.changed does,
                # so each version's page and standings are computed afresh (once, not once per poll).
                ("changing", standings, {**poll, "If-None-Match": etag}),
            ]
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            print(f"\nload average: {load} on {os.cpu_count()} CPUs (other work on the machine skews req/s and p99)")
            print(
                f"gunicorn: {args.workers} workers x {args.threads} threads, cache: {'Redis' if args.redis else 'local memory'}"
            )
            print(
                f"{'':12}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'failed':>8}{'socket':>8}{'CPU ms/req':>12}{'bytes':>9}"
            )
            results = {}
            for name, path, headers in runs:
                before = cpu_seconds(server_pids(server.pid, f"{PG}/postgres", db))
                if name == "changing":
                    changes = threading.Thread(target=keep_changing, args=(url, args.duration))
                    changes.start()
                r = wrk(port, path, headers, args.duration, args.connections)
                if name == "changing":
                    changes.join()
                cpu = cpu_spent(before, server.pid, f"{PG}/postgres", db)
                r["cpu_ms"] = cpu * 1000 / max(1, r["requests"])
                results[name] = r
                print(
                    f"{name:12}{r['rps']:>9.0f}{r['p50']:>9.2f}{r['p99']:>9.2f}{r['bad']:>8}{r['socket']:>8}"
                    f"{r['cpu_ms']:>12.2f}{sizes.get(name, 0):>9}"
                )
            print()

            # A thousand phones polling every 15 s: ~70 requests per second, nearly all answered 304.
            rate = 1000 / 15
            failed = 0
            for keep_alive in (False, True):
                before = cpu_seconds(server_pids(server.pid, f"{PG}/postgres", db))
                sent, bad = paced(port, standings, {**poll, "If-None-Match": etag}, rate, args.duration, keep_alive)
                failed += bad
                share = cpu_spent(before, server.pid, f"{PG}/postgres", db) / args.duration
                print(
                    f"phones: 1000 polling every 15 s = {sent / args.duration:.0f} req/s for {args.duration} s "
                    f"({'keep-alive' if keep_alive else 'a new connection each'}), {bad} failed: "
                    f"server CPU {share * 100:.1f}% of one core"
                )
            print("\nwrk commands:")
            for name, r in results.items():
                print(f"  {name}: {r['command']}")
            ok = (
                results["standings"]["rps"] >= 300
                and results["poll 304"]["rps"] >= 1000
                and not any(r["bad"] or r["socket"] for r in results.values())
                and not failed
            )
            print("\ntargets (>= 300 req/s standings, >= 1000 req/s 304, no errors):", "met" if ok else "NOT met")
        finally:
            stop(server)
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
