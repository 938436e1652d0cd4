"""What a job costs, how long it waits for the worker, and what a burst of them does to the public pages
(tournament/jobs/workflow.py, tournament/jobs/files.py).

    .venv/bin/python bench/jobs.py [--dutch N ...] [--optimal N ...] [--latency K] [--kinds N] [--burst N]
                                   [--burst-workers W] [--sqlite]

A fresh database (PostgreSQL at $BENCH_PG, default postgres://postgres@127.0.0.1:5432, dropped at the end; or
SQLite in a temporary file with --sqlite), migrated, production settings (DEBUG=0). Then:

- The cost per job kind. For each size, a field played for five rounds is imported: bench/dutch.py's chess
  events, paired in round 6 by the FIDE Dutch system (default 100 300 500 1000 2000 players), and
  bench/pairing.py's mtg events, paired by the optimal engine (default 500 1000 2000 4000). Round 6 is paired in
  this process the way a request pairs it (`services.pair_next_round`: wall and CPU seconds) and thrown away;
  then a job pairs it (`pair`) and another pairs it again (`repair`), run by a real `manage.py db_worker`
  process: each job's run (started to finished, from its row) and its wait (queued to started). `start` is
  what the POST itself spends on it (`jobs.start`: the job row and its task, one transaction).
- The queue's latency: K jobs (default 20) of a 16-player event, queued one after another while the worker is
  idle, each waited for: queued to started, p50 / p90 / max, for `db_worker` at its default 1-s interval and at
  the 0.5 s `make run` gives it.

- The cost per job kind other than pairing (--kinds N, default 2000; 0 skips): on bench/dutch.py's field of N
  players after 9 rounds, each kind done as the request would do it (wall seconds), then as a job by the worker
  (started to finished): the roster import (a CSV of 10 x N rows), the TRF import (the field's own TRF file), the
  event file, every player card and the whole crosstable; and the size of what the job keeps.
- A burst (--burst N, default 2000; 0 skips): three events of N players (FIDE Dutch, round 6) submitted at once to W
  workers (default 2, as docker-compose runs them), while a phone polls a fourth event's public pairings page through
  gunicorn (2 workers x 4 threads, as deploy/start.sh) every 50 ms: each job's wait and run, the burst's length, and
  the page's p50 / p90 / max while it lasted (target: p90 under 0.5 s).

Wall-clock figures suffer when other work shares the machine; the CPU column does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from scratch import scratch_database, stop  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's `pairing` before bench/pairing.py


def environment(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="tournament.settings",
        LOG_LEVEL="ERROR",
    )
    return env


def worker(env: dict[str, str], interval: float) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", str(interval)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for(job, timeout: float = 900.0):
    from tournament.models import Job

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.state in (Job.State.DONE, Job.State.FAILED):
            return job
        time.sleep(0.02)
    raise SystemExit(f"job {job.pk} still {job.state} after {timeout} s: is the worker running?")


def field(system: str, n: int, slug: str):
    """A field of n players after five rounds (bench/dutch.py's or bench/pairing.py's), imported; paired next
    by `system`."""
    import importlib.util

    from tournament.models import Event
    from tournament.snapshot import import_event

    name = "dutch" if system == "dutch" else "pairing"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    event = import_event(module.play(n, 5), slug=slug)
    Event.objects.filter(pk=event.pk).update(pairing=system)
    event.refresh_from_db()
    return event


def cost(systems: dict[str, list[int]]) -> None:
    from django.db import reset_queries

    from tournament.jobs import workflow as jobs
    from tournament.models import Job
    from tournament.services.rounds import pair_next_round

    print(
        f"{'system':>8} {'players':>7} {'request s':>9} {'(cpu s)':>8} {'start ms':>8} "
        f"{'pair job s':>10} {'repair job s':>12} {'waited s':>8}"
    )
    for system, sizes in systems.items():
        for n in sizes:
            event = field(system, n, f"{system}-{n}-{uuid.uuid4().hex[:6]}")
            reset_queries()
            wall, cpu = time.perf_counter(), time.process_time()
            rnd = pair_next_round(event, None)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rnd.delete()
            began = time.perf_counter()
            job = jobs.start(event, Job.Kind.PAIR, rnd.number, None)
            start_ms = (time.perf_counter() - began) * 1000
            pair = wait_for(job)
            again = wait_for(jobs.start(event, Job.Kind.REPAIR, rnd.number, None))
            assert pair.state == again.state == Job.State.DONE, (pair.error, again.error)
            run = (pair.finished_at - pair.started_at).total_seconds()
            rerun = (again.finished_at - again.started_at).total_seconds()
            waited = max((j.started_at - j.created_at).total_seconds() for j in (pair, again))
            print(
                f"{system:>8} {n:>7} {wall:>9.2f} {cpu:>8.2f} {start_ms:>8.1f} {run:>10.2f} {rerun:>12.2f} {waited:>8.2f}",
                flush=True,
            )


def kinds(n: int) -> None:
    """The cost of each kind of import, export and print: in the request, and as a job."""
    import importlib.util
    import json

    from django.contrib.auth import get_user_model
    from django.template.loader import render_to_string

    from standings import points_by_player
    from swiss import eventfile as ef
    from swiss import trf
    from tournament.files import csv_rosters
    from tournament.jobs import workflow as jobs
    from tournament.jobs.files import players_payload
    from tournament.models import Event, Job
    from tournament.pages.crosstable import crosstable_context
    from tournament.pages.rows import qr_svg
    from tournament.services.roster import add_players, new_players
    from tournament.snapshot import event_to_file, event_to_trf, import_event

    spec = importlib.util.spec_from_file_location("bench_dutch", ROOT / "bench" / "dutch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    field_event = import_event(module.play(n, 9), slug=f"kinds-{uuid.uuid4().hex[:6]}")
    rows = 10 * n
    roster = "name,rating,id\n" + "".join(
        f"Player {i:06d} Lastname,{1000 + i % 1500},FED{i:06d}\n" for i in range(rows)
    )
    trf_text = event_to_trf(field_event).encode()
    # An import making a new event is an account's, which must still exist and may create events when it runs.
    importer = get_user_model().objects.create_superuser(f"importer-{uuid.uuid4().hex[:6]}", password=None)

    def in_request(kind: str) -> float:
        began = time.perf_counter()
        if kind == "players":
            target = Event.objects.create(slug=f"roster-{uuid.uuid4().hex[:6]}", name="Roster")
            add_players(target, None, new_players(csv_rosters.parse_players(roster), target.colours))
        elif kind == "trf":
            import_event(trf.loads(trf_text, points_by_player))
        elif kind == "export":
            json.dumps(ef.dump(event_to_file(field_event, include_drafts=True)), ensure_ascii=False, indent=1)
        elif kind == "cards":
            for p in field_event.players.all():
                qr_svg(f"http://127.0.0.1/p/{field_event.slug}/{p.pk}/{p.token}")
        else:
            render_to_string("print/crosstable.html", crosstable_context(field_event, live=True))
        return time.perf_counter() - began

    print(f"{'kind':>10} {'size':>18} {'request s':>9} {'start ms':>8} {'job s':>6} {'waited s':>8} {'kept kB':>8}")
    sizes = {
        "players": f"{rows} rows",
        "trf": f"{n} x 9 rounds",
        "export": f"{n} x 9 rounds",
        "cards": f"{n} cards",
        "crosstable": f"{n} x 9 rounds",
    }
    for kind in ("players", "trf", "export", "cards", "crosstable"):
        wall = in_request(kind)
        if kind == "players":
            event = Event.objects.create(slug=f"roster-{uuid.uuid4().hex[:6]}", name="Roster")
            payload = players_payload("csv", roster)
        elif kind == "trf":
            event, payload = None, __import__("base64").b64encode(trf_text).decode()
        else:
            event = field_event
            payload = json.dumps({"base": "http://127.0.0.1"}) if kind == "cards" else ""
        began = time.perf_counter()
        job = jobs.start(event, kind, 0, importer if event is None else None, payload=payload)
        start_ms = (time.perf_counter() - began) * 1000
        job = wait_for(job)
        assert job.state == Job.State.DONE, job.error
        run = (job.finished_at - job.started_at).total_seconds()
        waited = (job.started_at - job.created_at).total_seconds()
        kept = len(bytes(job.result)) / 1000 if job.result is not None else 0
        print(
            f"{kind:>10} {sizes[kind]:>18} {wall:>9.2f} {start_ms:>8.1f} {run:>6.2f} {waited:>8.2f} {kept:>8.0f}",
            flush=True,
        )


def burst(env: dict[str, str], n: int, workers: int, tmp: Path) -> None:
    """Three N-player Dutch pairings queued at once; another event's public page polled meanwhile."""
    import http.client
    import socket
    import threading

    from tournament.jobs import workflow as jobs
    from tournament.models import Event, Job, Player
    from tournament.services.rounds import pair_next_round, publish_round

    events = [field("dutch", n, f"burst{k}-{uuid.uuid4().hex[:6]}") for k in range(3)]
    other = Event.objects.create(slug=f"other-{uuid.uuid4().hex[:6]}", name="Other")
    Player.objects.bulk_create(Player(event=other, name=f"Player {i}") for i in range(64))
    publish_round(pair_next_round(other, None), None)

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server_env = {**env, "SECURE_SSL_REDIRECT": "0", "ALLOWED_HOSTS": "127.0.0.1"}
    gunicorn = [
        str(Path(sys.executable).parent / "gunicorn"),
        "tournament.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
    ]
    server = subprocess.Popen(
        [*gunicorn, "--workers", "2", "--threads", "4", "--log-level", "warning"], cwd=ROOT, env=server_env
    )
    path = f"/e/{other.slug}/pairings/"

    def get() -> float:
        began = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            response.read()
            assert response.status == 200, response.status
        finally:
            conn.close()
        return time.perf_counter() - began

    for _ in range(200):
        try:
            get()
            break
        except OSError:
            time.sleep(0.1)
    quiet = sorted(get() for _ in range(40))
    processes = [worker(env, 0.5) for _ in range(workers)]
    latencies: list[float] = []
    stop_polling = threading.Event()

    def poll() -> None:
        while not stop_polling.is_set():
            latencies.append(get())
            time.sleep(0.05)

    try:
        time.sleep(3)  # the workers up and polling
        phone = threading.Thread(target=poll)
        phone.start()
        began = time.perf_counter()
        queued = [jobs.start(event, Job.Kind.PAIR, 6, None) for event in events]
        done = [wait_for(job) for job in queued]
        length = time.perf_counter() - began
        stop_polling.set()
        phone.join()
    finally:
        for process in processes:
            stop(process, timeout=60)
        stop(server, timeout=30)
    assert all(job.state == Job.State.DONE for job in done), [job.error for job in done]

    def p(values: list[float], q: float) -> float:
        values = sorted(values)
        return values[int(q * (len(values) - 1))]

    for job in done:
        print(
            f"burst: {n}-player Dutch round 6: waited {(job.started_at - job.created_at).total_seconds():.2f} s, "
            f"ran {(job.finished_at - job.started_at).total_seconds():.2f} s"
        )
    print(
        f"burst: three jobs on {workers} worker(s) done in {length:.2f} s; another event's public pairings page: "
        f"quiet p50 {p(quiet, 0.5) * 1000:.0f} ms p90 {p(quiet, 0.9) * 1000:.0f} ms; during the burst "
        f"{len(latencies)} requests, p50 {p(latencies, 0.5) * 1000:.0f} ms, p90 {p(latencies, 0.9) * 1000:.0f} ms, "
        f"max {max(latencies) * 1000:.0f} ms (target p90 < 500 ms)",
        flush=True,
    )


def latency(env: dict[str, str], count: int) -> None:
    from tournament.jobs import workflow as jobs
    from tournament.models import Event, Job, Player

    event = Event.objects.create(slug=f"latency-{uuid.uuid4().hex[:6]}", name="Latency")
    Player.objects.bulk_create(Player(event=event, name=f"Player {i}") for i in range(16))
    for interval in (1.0, 0.5):
        process = worker(env, interval)
        try:
            time.sleep(2)  # up and idle
            waits, runs = [], []
            for _ in range(count):
                job = wait_for(jobs.start(event, Job.Kind.PAIR, 1, None))
                assert job.state == Job.State.DONE, job.error
                waits.append((job.started_at - job.created_at).total_seconds())
                runs.append((job.finished_at - job.started_at).total_seconds())
                event.rounds.all().delete()
                time.sleep(0.137 * (1 + len(waits) % 7))  # queued at every point of the worker's sleep
        finally:
            stop(process)
        waits.sort()
        p90 = waits[int(0.9 * (len(waits) - 1))]
        print(
            f"interval {interval:.1f} s: queued to started p50 {statistics.median(waits):.2f} s, p90 {p90:.2f} s, "
            f"max {waits[-1]:.2f} s; a 16-player pairing job runs in {statistics.median(runs):.3f} s (p50)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dutch", type=int, nargs="*", default=[100, 300, 500, 1000, 2000])
    parser.add_argument("--optimal", type=int, nargs="*", default=[500, 1000, 2000, 4000])
    parser.add_argument("--latency", type=int, default=20, help="jobs per interval (0: skip)")
    parser.add_argument("--kinds", type=int, default=2000, help="players of the import/export/print costs (0: skip)")
    parser.add_argument("--burst", type=int, default=2000, help="players of each of the burst's events (0: skip)")
    parser.add_argument("--burst-workers", type=int, default=2)
    parser.add_argument("--sqlite", action="store_true", help="SQLite in a temporary file instead of PostgreSQL")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp())
    with scratch_database("jobs", tmp if args.sqlite else None) as url:
        run(args, url, tmp)


def run(args: argparse.Namespace, url: str, tmp: Path) -> None:
    env = environment(url)
    # The prints' pages name their stylesheet through the static files' manifest, as in the app's image.
    env["STATIC_ROOT"] = str(tmp / "static")
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    print(f"database: {'SQLite' if args.sqlite else 'PostgreSQL'}; {os.cpu_count()} cores", flush=True)
    try:
        process = worker(env, 0.2)
        time.sleep(3)  # up and polling
        try:
            cost({"dutch": args.dutch, "optimal": args.optimal})
            if args.kinds:
                kinds(args.kinds)
        finally:
            stop(process)
        if args.burst:
            burst(env, args.burst, args.burst_workers, tmp)
        if args.latency:
            latency(env, args.latency)
    finally:
        connections.close_all()


if __name__ == "__main__":
    main()
