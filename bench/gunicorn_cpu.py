"""gunicorn hooks for bench/self_report.py: the CPU time each worker thread spends on each kind of request.

Loaded with GUNICORN_CMD_ARGS="--config bench/gunicorn_cpu.py" beside deploy/start.sh's own flags. A request is
handled in one thread of a gthread worker, from `pre_request` to `post_request` (the app and the writing of
its answer), so the thread's CPU clock between them is that request's cost. Each worker writes its totals to
$BENCH_CPU_DIR/<pid>.json when it exits.
"""

import json
import os
import re
import threading
import time
from pathlib import Path

_totals: dict[str, list[float]] = {}
_lock = threading.Lock()
_started = threading.local()

KINDS = (
    ("GET", re.compile(r"/e/[^/]+/me/\d+/[^/]+/$"), "open the link (302)"),
    ("GET", re.compile(r"/e/[^/]+/me/$"), "load the page"),
    ("POST", re.compile(r"/e/[^/]+/me/report/$"), "report or confirm (POST)"),
    ("GET", re.compile(r"/e/[^/]+/pairings/$"), "poll the pairings"),
)


def kind(method: str, path: str) -> str:
    return next((name for m, pattern, name in KINDS if m == method and pattern.match(path)), f"other {method}")


def pre_request(worker, req):
    _started.cpu = time.thread_time()


def post_request(worker, req, environ, resp):
    spent = time.thread_time() - getattr(_started, "cpu", time.thread_time())
    name = kind(req.method, req.path)
    with _lock:
        entry = _totals.setdefault(name, [0, 0.0])
        entry[0] += 1
        entry[1] += spent


def worker_exit(server, worker):
    folder = os.environ.get("BENCH_CPU_DIR")
    if folder:
        with _lock:
            Path(folder, f"{os.getpid()}.json").write_text(json.dumps(_totals))
