"""Can the players of a 2048-player event report a whole round from their phones? `python bench/self_report.py`

Creates a fresh PostgreSQL database, imports a generated event (2048 players, rounds 1-5 played, round 6
published with no result, players reporting and the opponent confirming) and serves it with gunicorn
exactly as deploy/start.sh does (2 workers x 4 threads, DEBUG=0) behind deploy/nginx.conf, as
docker-compose.yml deploys it (nginx keeps its connections to gunicorn open; `--direct` sends every
request to gunicorn itself on a connection of its own, as before 2026-11-26), on loopback. Then, inside a 120-second
window, 2048 simulated phones each open their personal link, load their page, and report their match
or, when the opponent was first, confirm the opponent's report, as the page's htmx sends it (the answer is
the page's live part with the message); meanwhile 500 other phones poll the public pairings page every 15 s
as the page's htmx does (If-None-Match).

It prints the report requests per second, their p50/p99 latency and the errors (any failed request,
refused report, or a phone that never got its match stored), the CPU seconds of gunicorn's workers per
reported match and, measured in the workers themselves (bench/gunicorn_cpu.py), per kind of request, and
then checks in the database that every one of the 1024 matches is stored exactly once with the result its
players reported and one audit entry: `stored N/1024` and `N errors`.

`--redis redis://127.0.0.1:6379/9` gives the app the shared cache docker-compose.yml gives it (REDIS_URL), instead
of local memory in each worker.

Targets on a 2-core machine: 0 errors, every match stored, p99 under 500 ms, under 50 CPU seconds of the
workers per 1,024 matches.
Needs PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432). Everything it starts, it
stops; the database is dropped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

from public_load import server_env  # bench/public_load.py (this script's folder is on the path)
from scratch import scratch_database, stop  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy import local_nginx  # noqa: E402

PY = sys.executable
SLUG = "bench"
# From player A's side; player B reports the mirror image ("2-1" for A is "1-2" for B).
RESULTS = ["2-0", "2-1", "1-2", "0-2", "1-1-1", "1-1"]


def generate(players: int, rounds: int, seed: int = 6) -> dict:
    """An event whose last round is published without results: every player plays every round."""
    rng = random.Random(seed)
    ids = [f"p{k}" for k in range(players)]
    points = dict.fromkeys(ids, 0)
    out = []
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda pid: (-points[pid], rng.random()))
        matches = []
        for t in range(0, len(order), 2):
            a, b = order[t], order[t + 1]
            m = {"a": a, "b": b, "table": t // 2 + 1}
            if number < rounds:
                games = rng.choice([[2, 0, 0], [2, 1, 0], [1, 2, 0], [0, 2, 0], [1, 1, 1]])
                m["games"] = games
                if games[0] > games[1]:
                    points[a] += 3
                elif games[1] > games[0]:
                    points[b] += 3
                else:
                    points[a] += 1
                    points[b] += 1
            matches.append(m)
        out.append({"number": number, "matches": matches})
    return {
        "format": "swiss-event",
        "version": 1,
        "name": "Self-report bench",
        "preset": "mtg",
        "planned_rounds": rounds + 2,
        "players": [{"id": pid, "name": f"Player {k:05d}"} for k, pid in enumerate(ids)],
        "rounds": out,
    }


def psql(dsn: str, sql: str) -> str:
    return subprocess.run(
        ["psql", "-qAt", "-F", "\t", dsn, "-c", sql], check=True, capture_output=True, text=True
    ).stdout


def free_port(start: int = 8601, stop: int = 8610) -> int:
    """A port of this project's bench range (h6: 8601-8609), else any free one."""
    for port in [*range(start, stop), 0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise SystemExit("no free port")


class Phone:
    """One phone: its cookies, and plain HTTP/1.1 requests without keep-alive (as a phone on venue Wi-Fi).

    With a `tally`, the latency of every request is kept under its kind (`what`)."""

    def __init__(self, port: int, tally: Tally | None = None):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.tally = tally

    def request(self, method: str, path: str, body: dict | None = None, headers: dict | None = None, what: str = ""):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        h = dict(headers or {})
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            h["Content-Type"] = "application/x-www-form-urlencoded"
        t = time.perf_counter()
        try:
            conn.request(method, path, body=data, headers=h)
            response = conn.getresponse()
            content = response.read()
        finally:
            conn.close()
        elapsed = time.perf_counter() - t
        if self.tally is not None and what:
            with self.tally.lock:
                self.tally.latencies.setdefault(what, []).append(elapsed)
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response, content.decode(errors="replace"), elapsed


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.report_latencies: list[float] = []
        self.latencies: dict[str, list[float]] = {}  # every request's, by kind
        self.requests = 0
        self.errors: list[str] = []
        self.confirms = 0
        self.polls = 0
        self.poll_errors = 0

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def run_phone(port: int, who: dict, tally: Tally) -> None:
    """Open the link, load the page, then report (or confirm the opponent's report)."""
    phone = Phone(port, tally)
    try:
        r, _, _ = phone.request("GET", f"/e/{SLUG}/me/{who['pk']}/{who['token']}/", what="open the link (302)")
        if r.status != 302:
            return tally.error(f"link of {who['pk']}: HTTP {r.status}")
        r, page, _ = phone.request("GET", f"/e/{SLUG}/me/", what="load the page")
        if r.status != 200:
            return tally.error(f"page of {who['pk']}: HTTP {r.status}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if token is None:
            return tally.error(f"page of {who['pk']}: no form (not reporting?)")
        form = {"csrfmiddlewaretoken": token.group(1), "match": who["match"]}
        if 'value="confirm"' in page:
            form["action"] = "confirm"
        else:
            form.update(action="report", result=who["result"])
        # As the page's htmx sends it: the answer is the page's live part, saying whether it was taken.
        r, page, elapsed = phone.request(
            "POST", f"/e/{SLUG}/me/report/", form, headers={"HX-Request": "true"}, what=f"{form['action']} (POST)"
        )
        with tally.lock:
            tally.requests += 3
            tally.report_latencies.append(elapsed)
            tally.confirms += form["action"] == "confirm"
        refused = re.search(r'class="msg-error">([^<]*)', page)
        if r.status != 200 or refused or 'id="live"' not in page:
            tally.error(f"report of {who['pk']} refused: {refused.group(1) if refused else r.status}")
    except OSError as e:
        tally.error(f"phone {who['pk']}: {e}")


def poller(port: int, stop: float, offset: float, tally: Tally) -> None:
    """A phone on the public pairings page: the htmx poll every 15 s, with the ETag it has."""
    phone = Phone(port, tally)
    etag = None
    due = time.monotonic() + offset
    while due < stop:
        time.sleep(max(0.0, due - time.monotonic()))
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        try:
            r, _, _ = phone.request("GET", f"/e/{SLUG}/pairings/", headers=headers, what="poll the pairings")
            ok = r.status in (200, 304)
            etag = r.getheader("ETag") or etag
        except OSError:
            ok = False
        with tally.lock:
            tally.polls += 1
            tally.poll_errors += not ok
        due += 15


def nginx_in_front(root: Path, app_port: int) -> tuple[subprocess.Popen, int]:
    """deploy/nginx.conf as the compose proxy runs it (keep-alive connections to gunicorn), in front of the
    app on `app_port`; its process and port."""
    nginx = local_nginx.binary()
    if nginx is None:
        sys.exit("nginx is not installed (apt-get install nginx-light); or run with --direct")
    port = free_port()
    config = local_nginx.write_config(root, app_port, port, events="worker_connections 4096;")
    server = subprocess.Popen([nginx, "-p", str(root), "-c", str(config)], stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    sys.exit("nginx did not start")


def cpu_seconds(parent: int | None = None, name: str | None = None) -> float:
    """CPU time (user + system) used so far by the processes whose parent is `parent` or whose name is `name`.

    What the phones cost gunicorn's workers (the children of its master) or PostgreSQL's backends, whatever
    else the machine is doing at the time (Linux /proc).
    """
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        comm, fields = text[text.index("(") + 1 : text.rindex(")")], text.rsplit(")", 1)[1].split()
        if (parent is not None and int(fields[1]) == parent) or (name is not None and comm == name):
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def peak_memory_mb(parent: int) -> list[int]:
    """The most resident memory each child of `parent` (gunicorn's workers) has held, in MB (Linux /proc)."""
    peaks = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if int(fields.get("PPid", "0").strip()) == parent and "VmHWM" in fields:
            peaks.append(int(fields["VmHWM"].split()[0]) // 1024)
    return sorted(peaks)


def stop_server(server: subprocess.Popen, cpu_dir: Path) -> dict[str, list[float]]:
    """Stop gunicorn; the count and CPU seconds of each kind of request, as its workers wrote them on exit."""
    stop(server)
    totals: dict[str, list[float]] = {}
    for path in cpu_dir.glob("*.json"):
        for what, (count, spent) in json.loads(path.read_text()).items():
            entry = totals.setdefault(what, [0, 0.0])
            entry[0] += count
            entry[1] += spent
    return totals


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--round", type=int, default=6, help="the round being reported (earlier ones played)")
    parser.add_argument("--window", type=int, default=120, help="seconds in which every phone reports")
    parser.add_argument("--pollers", type=int, default=500)
    parser.add_argument("--phones-at-once", type=int, default=48, help="client threads (phones mid-request)")
    parser.add_argument(
        "--direct",
        action="store_true",
        help="phones connect to gunicorn itself, not through deploy/nginx.conf as deployed (each request a new "
        "connection to gunicorn)",
    )
    parser.add_argument("--redis", default="", help="REDIS_URL for the app, as docker-compose.yml sets (default: none)")
    parser.add_argument(
        "--profile", metavar="FILE", help="sample gunicorn's workers with py-spy (pip install py-spy) into FILE"
    )
    args = parser.parse_args()
    matches_expected = args.players // 2

    tmp = Path(tempfile.mkdtemp(prefix="swiss-self-report-"))
    port = free_port()
    # The workers count their CPU per kind of request (bench/gunicorn_cpu.py) and write it out when they exit.
    cpu_dir = tmp / "cpu"
    cpu_dir.mkdir()
    with scratch_database("report") as dsn:
        env = server_env(
            dsn,
            tmp,
            BIND=f"127.0.0.1:{port}",
            PATH=f"{Path(PY).parent}{os.pathsep}{os.environ.get('PATH', '')}",
            GUNICORN_CMD_ARGS=f"--config {ROOT / 'bench' / 'gunicorn_cpu.py'}",
            BENCH_CPU_DIR=str(cpu_dir),
            REDIS_URL=args.redis,
        )
        server = front = None
        try:
            manage = [PY, str(ROOT / "manage.py")]
            subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
            (tmp / "event.json").write_text(json.dumps(generate(args.players, args.round)))
            t = time.perf_counter()
            subprocess.run(
                [*manage, "import_event", str(tmp / "event.json"), "--slug", SLUG],
                env=env,
                check=True,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
            )
            psql(dsn, f"UPDATE tournament_event SET reporting = 'confirm', version = version + 1 WHERE slug = '{SLUG}'")
            print(f"imported {args.players} players, round {args.round} published in {time.perf_counter() - t:.1f} s")

            rows = psql(
                dsn,
                "SELECT m.id, m.player_a_id, a.token, m.player_b_id, b.token FROM tournament_match m "
                "JOIN tournament_round r ON r.id = m.round_id JOIN tournament_event e ON e.id = r.event_id "
                "JOIN tournament_player a ON a.id = m.player_a_id JOIN tournament_player b ON b.id = m.player_b_id "
                f"WHERE e.slug = '{SLUG}' AND r.number = {args.round}",
            )
            rng = random.Random(13)
            phones, expected = [], {}
            for line in rows.splitlines():
                match, pa, ta, pb, tb = line.split("\t")
                result = rng.choice(RESULTS)
                nums = [int(x) for x in result.split("-")] + [0]
                expected[int(match)] = (nums[0], nums[1], nums[2])
                mirrored = "-".join(str(x) for x in [nums[1], nums[0], *([nums[2]] if nums[2] else [])])
                phones.append({"pk": pa, "token": ta, "match": match, "result": result})
                phones.append({"pk": pb, "token": tb, "match": match, "result": mirrored})
            if len(expected) != matches_expected:
                sys.exit(f"round {args.round} has {len(expected)} matches, expected {matches_expected}")

            # The server exactly as the container starts it (deploy/start.sh: migrate, then gunicorn).
            log = (tmp / "gunicorn.log").open("w")
            server = subprocess.Popen(
                ["sh", str(ROOT / "deploy" / "start.sh")], env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
            )
            for _ in range(300):
                if server.poll() is not None:
                    sys.exit(f"gunicorn exited; see {tmp / 'gunicorn.log'}")
                try:
                    if Phone(port).request("GET", f"/e/{SLUG}/")[0].status == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                sys.exit("gunicorn did not answer in 30 s")
            Phone(port).request("GET", f"/e/{SLUG}/pairings/")  # warm: the first rendering computes standings
            # As deployed (docker-compose.yml): nginx in front, its connections to gunicorn kept alive.
            app_port = port
            if not args.direct:
                front, port = nginx_in_front(tmp / "nginx", app_port)

            spy = None
            if args.profile:
                # Collapsed stacks (flamegraph.pl, speedscope): where the workers' CPU goes, by function.
                spy = subprocess.Popen(
                    [
                        shutil.which("py-spy") or str(Path(PY).parent / "py-spy"),
                        "record",
                        "--pid",
                        str(server.pid),
                        "--subprocesses",
                    ]
                    + ["--rate", "50", "--gil", "--format", "raw", "--output", args.profile, "--nonblocking"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            tally = Tally()
            cpu_before = cpu_seconds(parent=server.pid)
            pg_before = cpu_seconds(name="postgres")
            nginx_before = cpu_seconds(name="nginx")
            client_before = time.process_time()
            load = os.getloadavg()[0]
            start = time.monotonic()
            stop = start + args.window
            pollers = [
                threading.Thread(target=poller, args=(port, stop, k * 15 / args.pollers, tally), daemon=True)
                for k in range(args.pollers)
            ]
            for p in pollers:
                p.start()
            # Each phone starts at a random moment of the first 5/6 of the window, so the last ones still
            # finish inside it; partners start independently (sometimes at the same moment).
            rng.shuffle(phones)
            spread = args.window * 5 / 6
            when = sorted(rng.uniform(0, spread) for _ in phones)

            def scheduled(k: int) -> None:
                time.sleep(max(0.0, start + when[k] - time.monotonic()))
                run_phone(port, phones[k], tally)

            with ThreadPoolExecutor(max_workers=args.phones_at_once) as pool:
                list(pool.map(scheduled, range(len(phones))))
            reported_in = time.monotonic() - start
            for p in pollers:
                p.join()
            cpu = cpu_seconds(parent=server.pid) - cpu_before
            peaks = peak_memory_mb(server.pid)
            pg_cpu = cpu_seconds(name="postgres") - pg_before
            nginx_cpu = cpu_seconds(name="nginx") - nginx_before
            if front is not None:
                front.terminate()
                front.wait(timeout=20)
                front = None
            client_cpu = time.process_time() - client_before
            by_kind = stop_server(server, cpu_dir)
            server = None
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(timeout=60)

            # The database's word: every match stored once, as reported, with one audit entry.
            stored_rows = psql(
                dsn,
                "SELECT m.id, m.games_a, m.games_b, m.games_drawn, m.entered_by_player_id IS NOT NULL, "
                "(SELECT count(*) FROM tournament_resultchange c WHERE c.match_id = m.id) "
                "FROM tournament_match m JOIN tournament_round r ON r.id = m.round_id "
                f"JOIN tournament_event e ON e.id = r.event_id WHERE e.slug = '{SLUG}' AND r.number = {args.round}",
            )
            stored = 0
            for line in stored_rows.splitlines():
                match, ga, gb, gd, by_player, changes = line.split("\t")
                if ga == "":
                    tally.error(f"match {match} not stored")
                    continue
                games = (int(ga), int(gb), int(gd))
                if games != expected[int(match)] or by_player != "t" or changes != "1":
                    tally.error(
                        f"match {match}: stored {games}, reported {expected[int(match)]}, {changes} audit entries"
                    )
                    continue
                stored += 1
            state = psql(
                dsn,
                f"SELECT r.state FROM tournament_round r JOIN tournament_event e ON e.id = r.event_id "
                f"WHERE e.slug = '{SLUG}' AND r.number = {args.round}",
            ).strip()

            lat = tally.report_latencies
            print(f"\nload average at the start: {load:.1f} on {os.cpu_count()} CPUs (other work skews the figures)")
            print(
                f"gunicorn as deploy/start.sh{', phones direct' if args.direct else ', behind nginx'}: "
                f"{env.get('WEB_CONCURRENCY', '2')} workers x "
                f"{env.get('GUNICORN_THREADS', '4')} threads, cache: {'Redis' if args.redis else 'local memory'}; "
                f"{args.phones_at_once} phones mid-request at most"
            )
            print(
                f"{len(phones)} phones reported in {reported_in:.1f} s (window {args.window} s): "
                f"{len(lat)} report requests ({len(lat) - tally.confirms} reports, {tally.confirms} confirmations), "
                f"{len(lat) / reported_in:.1f} per second, {tally.requests} phone requests in all"
            )
            print(
                f"report latency: p50 {percentile(lat, 0.5) * 1000:.0f} ms, p99 {percentile(lat, 0.99) * 1000:.0f} ms, "
                f"max {max(lat, default=0) * 1000:.0f} ms"
            )
            print("latency by request, ms:        count    p50    p99    max")
            for what, values in tally.latencies.items():
                p50, p99, top = (1000 * x for x in (percentile(values, 0.5), percentile(values, 0.99), max(values)))
                print(f"  {what:26s} {len(values):8d} {p50:6.0f} {p99:6.0f} {top:6.0f}")
            print(
                f"{args.pollers} other phones polled the pairings page {tally.polls} times, {tally.poll_errors} failed"
            )
            print(
                f"the server's workers used {cpu:.1f} CPU seconds for the {tally.requests + tally.polls} requests "
                f"({cpu / max(1, tally.requests + tally.polls) * 1000:.1f} ms each on average); PostgreSQL "
                f"{pg_cpu:.1f} CPU seconds; nginx {nginx_cpu:.1f}"
                f"{' (not used: --direct)' if args.direct else ''}; this benchmark's own simulated phones {client_cpu:.1f}"
            )
            print(f"the workers' peak resident memory: {', '.join(f'{mb} MB' for mb in peaks)}")
            print(
                f"CPU of the workers per reported match: {cpu / matches_expected * 1000:.1f} ms "
                f"({cpu / matches_expected * 1024:.1f} CPU seconds per 1,024 matches; target under 50)"
            )
            print("the workers' CPU by request, measured in them:  count   CPU s  ms each")
            for what, (count, spent) in sorted(by_kind.items(), key=lambda kv: -kv[1][1]):
                print(f"  {what:40s} {count:6d} {spent:7.1f} {spent / count * 1000:8.2f}")
            inside = sum(spent for _, spent in by_kind.values())
            print(f"  {'outside requests (gunicorn, start-up)':40s} {'':6s} {cpu - inside:7.1f}")
            print(f"round {args.round} is now {state}")
            for e in tally.errors[:10]:
                print(f"  error: {e}")
            errors = len(tally.errors) + tally.poll_errors
            print(f"stored {stored}/{matches_expected}")
            print(f"{errors} errors")
            ok = (
                errors == 0
                and stored == matches_expected
                and percentile(lat, 0.99) < 0.5
                and reported_in <= args.window
            )
            ok = ok and cpu / matches_expected * 1024 < 50
            print(
                "targets (0 errors, every match stored, p99 < 500 ms, inside the window, under 50 CPU s per 1,024 matches):",
                "met" if ok else "NOT met",
            )
        finally:
            if front is not None:
                front.terminate()
            if server is not None:
                stop_server(server, cpu_dir)
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
