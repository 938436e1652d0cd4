"""A throwaway database for a benchmark: `with scratch_database("jobs") as url:` gives the URL of a fresh, empty
database and drops it when the block ends, however it ends; and `stop(process)` for the servers a benchmark starts.

PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432); given `sqlite_dir`, an SQLite file there
instead (the scripts' `--sqlite`). Imported by the scripts beside it (`python bench/NAME.py` puts bench/ on the
path), never by the app or the tests."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


@contextmanager
def scratch_database(label: str, sqlite_dir: Path | None = None) -> Iterator[str]:
    """A new database named swiss_bench_LABEL_<random>, dropped at the end even with connections still open (the
    server a script started, a worker it killed); or, with `sqlite_dir`, the file LABEL.sqlite3 in that folder."""
    if sqlite_dir is not None:
        yield f"sqlite:///{sqlite_dir / f'{label}.sqlite3'}"
        return
    import psycopg

    name = f"swiss_bench_{label}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield f"{PG}/{name}"
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def stop(process: subprocess.Popen | None, timeout: float = 15) -> None:
    """Ask a server the script started to stop (SIGTERM, as gunicorn and the worker expect), and kill it if it
    has not within timeout seconds."""
    if process is None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
