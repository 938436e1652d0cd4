"""What does the language layer cost? `python bench/i18n_cost.py [--players 2048] [--duration 4] [--repeat 3]`

Sets up as bench/public_load.py does (a fresh PostgreSQL database, a generated event with round 9 of 9
half played, gunicorn 2 workers x 4 threads with DEBUG=0 on loopback), but the app caches in a Redis
server of its own that this bench starts on a free loopback port, so every cache entry can be counted
and sized. Then, with wrk and gzip as phones ask for it:

  no hint       /e/bench/standings/ with no Accept-Language and no cookie (the event's language: English)
  header ja     the same page with Accept-Language: ja
  cookie ja     the same page with the switcher's cookie set to ja (and no header)
  cookie da     the same with the cookie set to da

For each: requests per second, p50/p99 latency, failed responses (the median of --repeat runs taken in
turn, so the machine's other load weighs on each alike). Then the cache: the public pages
(home, pairings, standings, screen) are requested once in each language and the new cache entries
counted, with their total size (Redis MEMORY USAGE), per language; entries that belong to no language
(the standings computation, locks) are counted apart. Everything it starts, it stops; the database is
dropped at the end. Needs wrk and redis-server (apt-get install wrk redis-server) and PostgreSQL at
$BENCH_PG (default postgres://postgres@127.0.0.1:5432).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
from scratch import scratch_database, stop  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
COOKIE = "swiss_language"


def public_load():
    """bench/public_load.py's helpers: the event, wrk, gunicorn's start."""
    spec = importlib.util.spec_from_file_location("bench_public_load", ROOT / "bench" / "public_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start_redis(tmp: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=tmp,
        stdout=subprocess.DEVNULL,
    )
    client = redis.Redis(host="127.0.0.1", port=port)
    for _ in range(100):
        try:
            client.ping()
            return server
        except redis.ConnectionError:
            time.sleep(0.05)
    sys.exit("redis-server did not answer in 5 s")


def entries(client: redis.Redis) -> dict[bytes, int]:
    """Every cache key and its size in bytes as Redis counts it (key, value and overhead)."""
    return {key: client.memory_usage(key, samples=0) or 0 for key in client.scan_iter(count=1000)}


def language_of(client: redis.Redis, key: bytes) -> str | None:
    """The language of a cached rendering (its HTML says `<html lang="..">`); None for anything else."""
    value = client.get(key) or b""
    for code in ("en", "ja", "da"):
        if f'<html lang="{code}"'.encode() in value:
            return code
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--duration", type=int, default=4, help="seconds per wrk run")
    parser.add_argument("--repeat", type=int, default=3, help="times each run is taken, in turn with the others")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    for tool in ("wrk", "redis-server"):
        if not shutil.which(tool):
            sys.exit(f"{tool} not found: apt-get install {tool}")
    pl = public_load()

    tmp = Path(tempfile.mkdtemp(prefix="swiss-bench-i18n-"))
    redis_port = pl.free_port()
    with scratch_database("i18n") as url:
        env = pl.server_env(url, tmp, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0")
        server = cache_server = None
        try:
            cache_server = start_redis(tmp, redis_port)
            cache = redis.Redis(host="127.0.0.1", port=redis_port)
            manage = [PY, str(ROOT / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            (tmp / "event.json").write_text(json.dumps(pl.generate(args.players, args.rounds)))
            subprocess.run(
                [*manage, "import_event", str(tmp / "event.json"), "--slug", "bench"],
                env=env,
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )

            port = pl.free_port()
            gunicorn = [str(Path(PY).parent / "gunicorn"), "tournament.wsgi:application"]
            gunicorn += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers), "--log-level", "warning"]
            gunicorn += ["--threads", str(args.threads)]
            server = subprocess.Popen(gunicorn, env=env, cwd=ROOT)
            pl.wait_until_up(port, "/e/bench/", server)

            # The cache per language: each public page once per language, counting what each adds.
            pages = ["/e/bench/", "/e/bench/pairings/", "/e/bench/standings/", "/e/bench/screen/"]
            hints = {"en": {}, "ja": {"Accept-Language": "ja"}, "da": {"Cookie": f"{COOKIE}=da"}}
            cache.flushdb()
            per_language: dict[str | None, list[int]] = {}
            for code, headers in hints.items():
                for path in pages:
                    response = pl.get(port, path, {**headers, "Accept-Encoding": "gzip"})
                    assert response.status == 200 and response.getheader("Content-Language") == code, (path, code)
            for key, size in entries(cache).items():
                count_size = per_language.setdefault(language_of(cache, key), [0, 0])
                count_size[0] += 1
                count_size[1] += size

            standings = "/e/bench/standings/"
            runs = [
                ("no hint", {}),
                ("header ja", {"Accept-Language": "ja"}),
                ("cookie ja", {"Cookie": f"{COOKIE}=ja"}),
                ("cookie da", {"Cookie": f"{COOKIE}=da"}),
            ]
            for _, headers in runs:  # warm every worker's connections and code paths once
                pl.wrk(port, standings, {**headers, "Accept-Encoding": "gzip"}, 1, args.connections)
            load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"load average: {load} on {os.cpu_count()} CPUs (other work on the machine skews req/s and p99)")
            print(f"gunicorn: {args.workers} workers x {args.threads} threads, cache: Redis; {args.players} players")
            print(f"{standings} (cached rendering, gzip), wrk {args.connections} connections x {args.duration} s:")
            print(f"(the four runs taken in turn {args.repeat} times; the median run of each is shown)")
            print(f"{'':12}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'failed':>8}{'bytes':>8}")
            results: dict[str, list[dict]] = {name: [] for name, _ in runs}
            for _ in range(args.repeat):  # in turn, so a change in the machine's other load hits every run alike
                for name, headers in runs:
                    results[name].append(
                        pl.wrk(port, standings, {**headers, "Accept-Encoding": "gzip"}, args.duration, args.connections)
                    )
            for name, headers in runs:
                size = len(pl.get(port, standings, {**headers, "Accept-Encoding": "gzip"}).body)
                r = sorted(results[name], key=lambda r: r["rps"])[len(results[name]) // 2]
                failed = sum(x["bad"] + x["socket"] for x in results[name])
                print(f"{name:12}{r['rps']:>9.0f}{r['p50']:>9.2f}{r['p99']:>9.2f}{failed:>8}{size:>8}")

            print(f"\ncache entries after {len(pages)} public pages in each language:")
            print(f"{'':16}{'entries':>8}{'KiB':>9}")
            for code in ("en", "ja", "da", None):
                count, size = per_language.get(code, [0, 0])
                print(f"{code or 'no language':16}{count:>8}{size / 1024:>9.1f}")
            print("load average after:", ", ".join(f"{x:.2f}" for x in os.getloadavg()))
        finally:
            stop(server)
            stop(cache_server)
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
