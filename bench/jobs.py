"""What a pairing job costs, and how long it waits for the worker (tournament/jobs.py).

    .venv/bin/python bench/jobs.py [--dutch N ...] [--optimal N ...] [--latency K] [--sqlite]

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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project's `pairing` before bench/pairing.py

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


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


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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

    from tournament.files.eventio import import_event
    from tournament.models import Event

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

    from tournament import jobs
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


def latency(env: dict[str, str], count: int) -> None:
    from tournament import jobs
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
    parser.add_argument("--sqlite", action="store_true", help="SQLite in a temporary file instead of PostgreSQL")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp())
    name = f"swiss_bench_jobs_{uuid.uuid4().hex[:8]}"
    if args.sqlite:
        url = f"sqlite:///{tmp / 'jobs.sqlite3'}"
    else:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        url = f"{PG}/{name}"
    env = environment(url)
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
        finally:
            stop(process)
        if args.latency:
            latency(env, args.latency)
    finally:
        connections.close_all()
        if not args.sqlite:
            import psycopg

            with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


if __name__ == "__main__":
    main()
