"""What an event-file upload holds the request for, and what the worker then spends (tournament/jobs/files.py).

    .venv/bin/python bench/event_files.py [--rounds N] [--sections N] [--players N] [--field N] [--sqlite]

A fresh database (PostgreSQL at $BENCH_PG, default postgres://postgres@127.0.0.1:5432, dropped at the end; or
SQLite in a temporary file with --sqlite), migrated, production settings (DEBUG=0). An organiser uploads, on the
"New event" page as a browser posts it (Django's test client, no server in between), each of:

- rounds: a version-1 file of 4 players and --rounds empty rounds (default 20,000);
- sections: a version-2 file of --sections sections of 2 players each (default 5,000);
- players: a version-2 file of two sections of --players players each (default 45,000: 90,000 together);
- field: a version-1 file of --field players (default 2,000) after 9 Dutch rounds (bench/dutch.py), a real event
  large enough to be a job;
- club: the same of 100 players, which stays in the request.

For each: the file's size, the request's wall seconds and answer (stored, refused, or queued as a job), and for a
queued job the worker's seconds (the job's task run in this process, as `db_worker` runs it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

from scratch import scratch_database  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def players(n: int, prefix: str = "p") -> list[dict]:
    return [{"id": f"{prefix}{i}", "name": f"Player {prefix}{i}", "rating": 1000 + i % 1500} for i in range(n)]


def files(args) -> dict[str, bytes]:
    import importlib.util

    from swiss import eventfile

    spec = importlib.util.spec_from_file_location("bench_dutch", ROOT / "bench" / "dutch.py")
    dutch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dutch)
    rounds = {
        "format": "swiss-event",
        "version": 1,
        "name": "Rounds",
        "players": players(4),
        "rounds": [{"number": r, "matches": []} for r in range(1, args.rounds + 1)],
    }
    sections = {
        "format": "swiss-event",
        "version": 2,
        "name": "Sections",
        "sections": [{"name": f"S{i}", "players": players(2, f"s{i}x")} for i in range(args.sections)],
    }
    many = {
        "format": "swiss-event",
        "version": 2,
        "name": "Players",
        "sections": [{"name": name, "players": players(args.players, name)} for name in ("a", "b")],
    }
    out = {
        "rounds": json.dumps(rounds).encode(),
        "sections": json.dumps(sections).encode(),
        "players": json.dumps(many, separators=(",", ":")).encode(),
    }
    for name, n in (("field", args.field), ("club", 100)):
        out[name] = eventfile.dumps(dutch.play(n, 9)).encode()
    return out


def upload(client, name: str, data: bytes) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from tournament.jobs.workflow import run_job
    from tournament.models import Event, Job

    events, jobs = Event.objects.count(), Job.objects.count()
    started = time.perf_counter()
    response = client.post(
        reverse("org_event_import_file"),
        {"file": SimpleUploadedFile(f"{name}.json", data), "once": uuid.uuid4().hex},
        SERVER_NAME="127.0.0.1",
        secure=True,
    )
    wall = time.perf_counter() - started
    job = Job.objects.order_by("-pk").first() if Job.objects.count() > jobs else None
    if job is not None:
        outcome = "queued as a job"
    elif Event.objects.count() > events:
        outcome = f"stored ({Event.objects.count() - events} events and sections)"
    else:
        outcome = f"refused ({response.status_code})"
    line = f"{name:9} {len(data) / 1e6:6.2f} MB  request {wall:7.2f} s  {outcome}"
    if job is not None:
        started = time.perf_counter()
        run_job.func(job.pk)
        job.refresh_from_db()
        line += f"; worker {time.perf_counter() - started:7.2f} s, {job.state}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000)
    parser.add_argument("--sections", type=int, default=5_000)
    parser.add_argument("--players", type=int, default=45_000)
    parser.add_argument("--field", type=int, default=2_000)
    parser.add_argument("--only", nargs="*", help="these uploads alone (rounds sections players field club)")
    parser.add_argument("--sqlite", action="store_true")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp())
    with scratch_database("files", tmp if args.sqlite else None) as url:
        run(args, url, tmp)


def run(args: argparse.Namespace, url: str, tmp: Path) -> None:
    os.environ.update(
        DATABASE_URL=url,
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SETTINGS_MODULE="tournament.settings",
        LOG_LEVEL="ERROR",
        STATIC_ROOT=str(tmp),
        MAX_REQUEST_BYTES=str(8 * 1024 * 1024),  # the 90,000-player file: refused by its count, not its bytes
    )
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 8 * 1024 * 1024
    try:
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        user = get_user_model().objects.create_superuser("olga", password="bench-organiser-pass-1")
        client = Client(raise_request_exception=False)
        client.force_login(user)
        print(f"database: {'SQLite' if args.sqlite else 'PostgreSQL'}; {os.cpu_count()} cores", flush=True)
        client.get("/events/new/", SERVER_NAME="127.0.0.1", secure=True)  # the first request's own start, not timed
        for upload_name, data in files(args).items():
            if args.only and upload_name not in args.only:
                continue
            upload(client, upload_name, data)
    finally:
        connections.close_all()


if __name__ == "__main__":
    main()
