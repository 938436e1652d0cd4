"""How fast is the round's results page on a judge's phone at 2048 players? `python bench/results_page.py`

Creates a fresh PostgreSQL database, imports the 2048-player event of bench/self_report.py (round 6
published, no result yet), then stores half of round 6 from players' reports, leaves 200 matches
waiting for the opponent and 40 disputed, and renders the organiser's results page in-process (Django's
test client, logged in, DEBUG=0) several times: the default view (disputed and waiting first, then one
range of tables), a search, the disputed filter and the full list. Prints the best and median render
time and the HTML size of each, then the open page's poll: unchanged (304) and just after a player's report.

Targets on a 2-core machine: the default view under 0.3 s and under 300 KB.
Needs PostgreSQL at $BENCH_PG (default postgres://postgres@127.0.0.1:5432); the database is dropped at the end.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from public_load import server_env  # bench/public_load.py (this script's folder is on the path)
from scratch import scratch_database  # bench/scratch.py (this script's folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def self_report_module():
    """bench/self_report.py (its event generator), loaded by path: bench/ is not a package."""
    spec = importlib.util.spec_from_file_location("bench_self_report", ROOT / "bench" / "self_report.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def profile(client, name: str, path: str) -> None:
    """One request of a view under cProfile: its queries, and the functions it spends its time in."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(path)  # warm: templates compiled, caches filled
    profiler = cProfile.Profile()
    with CaptureQueriesContext(connection) as queries:
        profiler.enable()
        client.get(path)
        profiler.disable()
    sql_s = sum(float(q["time"]) for q in queries.captured_queries)
    print(f"\n--- {name}: {len(queries)} queries, {sql_s:.3f} s in SQL (as the driver reports)")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(28)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--profile", action="store_true", help="also print where one request of each view spends its time (cProfile)"
    )
    args = parser.parse_args()

    static = Path(tempfile.mkdtemp(prefix="swiss-results-static-"))
    with scratch_database("results") as url:
        # The app server's environment (bench/public_load.py), for the test client in this process.
        os.environ.update(
            server_env(url, static, ALLOWED_HOSTS="testserver", DJANGO_SETTINGS_MODULE="tournament.settings")
        )
        try:
            import django

            django.setup()
            from django.contrib.auth import get_user_model
            from django.core.management import call_command
            from django.test import Client

            generate = self_report_module().generate

            from swiss.eventfile import loads
            from tournament.models import Event, EventRole, Match, Report
            from tournament.services import reports
            from tournament.services.results import Outcome
            from tournament.snapshot import import_event

            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "event.json"
                path.write_text(json.dumps(generate(args.players, 6)))
                event = import_event(loads(path.read_text()), slug="bench")
            Event.objects.filter(pk=event.pk).update(reporting=Event.Reporting.CONFIRM)
            event.refresh_from_db()
            user = get_user_model().objects.create_user("judge", password="bench-pass-1")
            EventRole.objects.create(event=event, user=user, role=EventRole.Role.JUDGE)

            rnd = event.rounds.get(number=6)
            matches = list(rnd.matches.select_related("player_a", "player_b").order_by("table"))
            half = len(matches) // 2
            t = time.perf_counter()
            for m in matches[:half]:
                reports.submit(m.player_a, m.pk, Outcome("played", (2, 1, 0)))
                reports.submit(m.player_b, m.pk, Outcome("played", (2, 1, 0)))
            print(f"{half} matches stored from players' reports in {time.perf_counter() - t:.1f} s (in-process)")
            open_ones = matches[half:]
            Report.objects.bulk_create(
                [Report(match=m, player=m.player_a, games_a=2, games_b=0, games_drawn=0) for m in open_ones[:240]]
                + [Report(match=m, player=m.player_b, games_a=0, games_b=2, games_drawn=0) for m in open_ones[200:240]]
            )
            stored = Match.objects.filter(round=rnd, games_a__isnull=False).count()
            print(f"round 6: {len(matches)} matches, {stored} stored, 200 waiting, 40 disputed\n")

            client = Client()
            client.force_login(user)
            url = "/events/bench/rounds/6/"
            views = [
                ("default (judge's phone)", url),
                ("search 'Player 0123'", url + "?q=Player+0123"),
                ("disputed only", url + "?view=disputed"),
                ("full list", url + "?view=all"),
            ]
            print(f"{'view':26}{'best s':>9}{'median s':>10}{'KB':>9}{'rows':>7}")
            results = {}
            for name, path in views:
                times, size, rows = [], 0, 0
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    response = client.get(path)
                    times.append(time.perf_counter() - t)
                    assert response.status_code == 200, response.status_code
                    size = len(response.content)
                    rows = response.content.count(b'class="match ')
                results[name] = (min(times), statistics.median(times), size)
                print(f"{name:26}{min(times):>9.3f}{statistics.median(times):>10.3f}{size / 1024:>9.0f}{rows:>7}")
            # The open page's poll (every 3 s): unchanged (304), and after a player's report moved the round.
            live = url + "?part=live&view=default&q=&from=1"
            hx = {"HX-Request": "true"}
            etag = client.get(live, headers=hx)["ETag"]
            unchanged, changed, size = [], [], 0
            for i in range(args.repeat):
                t = time.perf_counter()
                response = client.get(live, headers=hx | {"If-None-Match": etag})
                unchanged.append(time.perf_counter() - t)
                assert response.status_code == 304, response.status_code
                m = open_ones[240 + i]
                reports.submit(m.player_a, m.pk, Outcome("played", (2, 0, 0)))
                t = time.perf_counter()
                response = client.get(live, headers=hx | {"If-None-Match": etag})
                changed.append(time.perf_counter() - t)
                assert response.status_code == 200, response.status_code
                etag, size = response["ETag"], len(response.content)
            print(f"{'poll, unchanged (304)':26}{min(unchanged):>9.3f}{statistics.median(unchanged):>10.3f}{0:>9}")
            print(
                f"{'poll, after a report':26}{min(changed):>9.3f}{statistics.median(changed):>10.3f}{size / 1024:>9.0f}"
            )
            if args.profile:
                for name, path in views:
                    profile(client, name, path)
            best, median, size = results["default (judge's phone)"]
            ok = median < 0.3 and size < 300 * 1024
            print(f"\nload average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
            print("targets (default view: median < 0.3 s, < 300 KB):", "met" if ok else "NOT met")
        finally:
            from django.db import connections

            connections.close_all()
            shutil.rmtree(static, ignore_errors=True)


if __name__ == "__main__":
    main()
