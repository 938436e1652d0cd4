"""What does a public name search cost, and what do looping searchers do to everybody else?
`python bench/public_search.py [--players 2048] [--seconds 10] [--clients 16] [--app DIR]`

Creates a fresh PostgreSQL database, imports a generated event (2048 players, round 9 in progress) as
"bench" and a small second event "other", starts gunicorn (2 workers x 4 threads, DEBUG=0) on
loopback, then measures, each for --seconds:

  cached      --clients threads looping on /e/bench/pairings/ (the cached page everybody polls)
  search      the same threads looping on /e/bench/pairings/?q=p (matches nearly everybody) with the
              per-address search limit lifted: what one search costs the server
  throttled   the same loop under the default limit (10 searches per 10 s per address): what an attacker gets
              out of it

and, during each, one phone polling the OTHER event's pairings every 200 ms: its p50 and max latency
are what the loop costs other people. --app runs another checkout (e.g. main before a change) with the
same script, for before/after figures. Prints requests per second, p50/p99 latency and status counts.
Needs PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from scratch import scratch_database  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
OTHER = """
from tournament.models import Event, Player, Round, Match
from tournament.snapshot import create_matches
event = Event.objects.create(slug="other", name="Other")
Player.objects.bulk_create(Player(event=event, name=f"Other {i}") for i in range(16))
players = list(event.players.order_by("name"))
rnd = Round.objects.create(event=event, number=1, state="paired")
create_matches(rnd, [Match(round=rnd, table=i // 2 + 1, player_a=players[i], player_b=players[i + 1]) for i in range(0, 16, 2)])
"""


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def get(port: int, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        r = conn.getresponse()
        r.read()
        return r.status, time.perf_counter() - started
    finally:
        conn.close()


def run(port: int, path: str, seconds: float, clients: int) -> dict:
    stop = time.monotonic() + seconds
    latencies: list[float] = []
    statuses: Counter = Counter()
    other: list[float] = []
    lock = threading.Lock()

    def loop() -> None:
        while time.monotonic() < stop:
            status, took = get(port, path)
            with lock:
                statuses[status] += 1
                if status == 200:
                    latencies.append(took)

    def phone() -> None:
        while time.monotonic() < stop:
            status, took = get(port, "/e/other/pairings/")
            if status == 200:
                other.append(took)
            time.sleep(0.2)

    threads = [threading.Thread(target=loop) for _ in range(clients)] + [threading.Thread(target=phone)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    return {
        "rps": sum(statuses.values()) / elapsed,
        "p50": statistics.median(latencies) * 1000 if latencies else 0,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else 0,
        "statuses": dict(statuses),
        "other_p50": statistics.median(other) * 1000 if other else 0,
        "other_max": max(other) * 1000 if other else 0,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--app", default=str(ROOT), help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    app = Path(args.app).resolve()
    public_load = load("public_load")

    tmp = Path(tempfile.mkdtemp(prefix="swiss-bench-"))
    with scratch_database("search") as url:
        env = public_load.server_env(url, tmp)
        server = None
        try:
            manage = [PY, str(app / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=app)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=app)
            (tmp / "event.json").write_text(json.dumps(public_load.generate(args.players, 9)))
            subprocess.run(
                [*manage, "import_event", str(tmp / "event.json"), "--slug", "bench"],
                env=env,
                check=True,
                cwd=app,
                stdout=subprocess.DEVNULL,
            )
            subprocess.run([*manage, "shell", "-c", OTHER], env=env, check=True, cwd=app)
            print(f"app: {app}; {args.players} players; {args.clients} looping clients; load {os.getloadavg()[0]:.1f}")
            print(f"{'':11}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}  {'other event p50/max ms':>24}  statuses")
            for name, path, limit in [
                ("cached", "/e/bench/pairings/", "1000000"),
                ("search", "/e/bench/pairings/?q=p", "1000000"),
                ("throttled", "/e/bench/pairings/?q=p", ""),
            ]:
                port = free_port()
                gunicorn = [str(Path(PY).parent / "gunicorn"), "tournament.wsgi:application"]
                gunicorn += [
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--workers",
                    "2",
                    "--threads",
                    "4",
                    "--log-level",
                    "warning",
                ]
                server = subprocess.Popen(gunicorn, env={**env, "PUBLIC_SEARCHES": limit}, cwd=app)
                public_load.wait_until_up(port, "/e/bench/", server)
                for warm in ("/e/bench/pairings/", "/e/other/pairings/"):
                    for _ in range(4):
                        get(port, warm)
                r = run(port, path, args.seconds, args.clients)
                print(
                    f"{name:11}{r['rps']:8.1f}{r['p50']:9.0f}{r['p99']:9.0f}  "
                    f"{r['other_p50']:>14.0f} / {r['other_max']:<7.0f}  {r['statuses']}"
                )
                server.send_signal(signal.SIGTERM)
                server.wait(30)
                server = None
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                server.wait(30)


if __name__ == "__main__":
    main()
