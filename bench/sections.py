"""What do sections cost at a venue's scale? `python bench/sections.py [--players 6000] [--sections 20]`

Generates an event of --players players in --sections sections of mixed presets (chess paired by the FIDE
Dutch system, Magic, Pokémon, in turn; section sizes vary around the mean), pairs and publishes round 1
of every section, stores its results, then measures in-process (Django's test client, DEBUG=0):

  pairing     each section's round 2 pairing time, and the same section's as an event alone (its players
              and round 1 copied through a swiss-event file): pairing a section costs what pairing it alone
              does, whatever the other sections hold
  pages       the server time of the event's home, a pairings search across every section, the venue
              screen's shell (both layouts) and its largest section's board (the screen fetches each
              section's board apart), uncached (the cache emptied first) and cached (a render from the
              cache, and an unchanged poll: 304); targets under 300 ms uncached and under 50 ms cached
  one result  one result stored in one section: every other section's cached pages (and the venue
              screen's shell) still answer 304, and only that section's board is made again

Runs on a fresh test database: SQLite by default (in memory), PostgreSQL when DATABASE_URL is set (a
`test_`-prefixed database is created beside the named one and dropped at the end).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PRESETS = ("chess", "mtg", "pokemon")
GAMES = {"chess": ((1, 0, 0), (0, 1, 0), (0, 0, 1)), "mtg": ((2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0))}
GAMES["pokemon"] = GAMES["mtg"]


def setup() -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tournament.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        ALLOWED_HOSTS="testserver",
        STATIC_ROOT=tempfile.mkdtemp(prefix="swiss-sections-static-"),
        LOG_LEVEL="ERROR",
    )
    import django
    from django.conf import settings

    django.setup()
    # Asset URLs without a collected manifest: what the pages cost, not where their CSS is.
    settings.STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    settings.PUBLIC_SEARCHES = 10**9


def section_fields(preset: str) -> dict:
    from swiss.presets import preset_fields

    fields = {**preset_fields(preset), "planned_rounds": 9}
    if preset == "chess":
        fields["pairing"] = "dutch"
        fields["round_one"] = "rating"
    return fields


def generate(players: int, sections: int, user, seed: int = 1):
    """The event and its sections, each with its players, round 1 paired, published and played."""
    from tournament.models import Event, EventRole, Match, Player, Round
    from tournament.services.locks import changed
    from tournament.services.rounds import pair_next_round, publish_round
    from tournament.services.sections import add_section

    rng = random.Random(seed)
    root = Event.objects.create(slug="venue", name="Bench venue", planned_rounds=9)
    EventRole.objects.create(event=root, user=user, role=EventRole.Role.ORGANISER)
    weights = [rng.uniform(0.5, 1.5) for _ in range(sections)]
    sizes = [max(8, round(players * w / sum(weights))) for w in weights]
    sizes[-1] += players - sum(sizes)
    made = []
    for k, size in enumerate(sizes):
        preset = PRESETS[k % len(PRESETS)]
        section = add_section(root, f"{preset.upper()} {k + 1:02d}", user, **section_fields(preset))
        Player.objects.bulk_create(
            Player(event=section, name=f"S{k + 1:02d} Player {n:04d}", rating=rng.randint(1000, 2600))
            for n in range(size)
        )
        rnd = pair_next_round(section, user)
        publish_round(rnd, user)
        matches = list(rnd.matches.filter(player_b__isnull=False))
        for m in matches:
            m.games_a, m.games_b, m.games_drawn = rng.choice(GAMES[preset])
        Match.objects.bulk_update(matches, ["games_a", "games_b", "games_drawn"])
        Round.objects.filter(pk=rnd.pk).update(state=Round.State.COMPLETE)
        changed(section)
        made.append(section)
    return root, made


def alone(section, user, prefix: str = "alone"):
    """The same section as an event of its own: its players and round 1 through a swiss-event file."""
    from tournament.models import EventRole
    from tournament.snapshot import event_to_file, import_event

    copy = import_event(event_to_file(section), slug=f"{prefix}-{section.slug}")
    EventRole.objects.create(event=copy, user=user, role=EventRole.Role.ORGANISER)
    return copy


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def pages(client, root, sections, repeat: int) -> None:
    """Each page: from an empty cache; just after one section changed (what a result at the venue costs: that
    section's part made again; for a section's board, that section); from the cache; and an unchanged poll
    (304). Searches are never kept: their "cached" is a search over the sections' entries made before.
    A big page is made again, not served as last made a few seconds longer (`memo.may_lag`, tournament/pages/memo.py): what it
    costs, not how often."""
    from django.core.cache import cache
    from django.test import override_settings

    from tournament.services import locks

    print(f"\n{'page':<28}{'empty cache':>22}{'one section changed':>22}{'cached':>22}{'304':>22}")
    largest = max(sections, key=lambda s: s.players.count())
    paths = {
        "event home": f"/e/{root.slug}/",
        "search (one name)": f"/e/{root.slug}/pairings/?q=S07 Player 0012",
        "search (a number)": f"/e/{root.slug}/pairings/?q=4321",
        "search (many hits)": f"/e/{root.slug}/pairings/?q=player 00",
        "screen shell, in turns": f"/e/{root.slug}/screen/?layout=turns",
        "screen shell, side by side": f"/e/{root.slug}/screen/?layout=side",
        f"screen board ({largest.players.count()} pl.)": f"/e/{largest.slug}/screen/panel/",
    }
    for name, path in paths.items():
        cold, changed, warm, unchanged = [], [], [], []
        for k in range(repeat):
            cache.clear()
            cold.append(timed(lambda path=path: client.get(path)))
            locks.changed(largest if path.endswith("/panel/") else sections[k % len(sections)])
            with override_settings(PUBLIC_LAG_MAX=0):
                changed.append(timed(lambda path=path: client.get(path)))
            response = client.get(path)
            warm.append(timed(lambda path=path: client.get(path)))
            tag = response.get("ETag")
            if tag:
                unchanged.append(timed(lambda path=path, tag=tag: client.get(path, HTTP_IF_NONE_MATCH=tag)))
        assert response.status_code == 200, (path, response.status_code)
        cells = [
            f"{ms(min(t)).strip()} ({ms(statistics.median(t)).strip()})" if t else "—"
            for t in (cold, changed, warm, unchanged)
        ]
        print(f"{name:<28}" + "".join(f"{c:>22}" for c in cells))
    print(f"(best of {repeat}, median in brackets)")


def one_result(client, root, sections, user) -> None:
    from django.core.cache import cache
    from django.test import override_settings

    from tournament.services.results import Outcome, record_result
    from tournament.services.rounds import publish_round

    cache.clear()
    first = sections[0]
    rnd = first.rounds.get(number=2)
    if rnd.state == "draft":
        publish_round(rnd, user)
    kinds = ("", "pairings/", "standings/", "screen/", "screen/panel/")
    tags = {(s.slug, k): client.get(f"/e/{s.slug}/{k}")["ETag"] for s in sections for k in kinds}
    screen = f"/e/{root.slug}/screen/?layout=side"
    shell = client.get(screen)["ETag"]
    match = rnd.matches.filter(player_b__isnull=False).first()
    record_result(match, Outcome("played", (1, 0, 0) if first.preset == "chess" else (2, 0, 0)), user)
    with override_settings(PUBLIC_LAG_MAX=0):
        took = timed(lambda: client.get(f"/e/{first.slug}/screen/panel/"))
    still = sum(
        client.get(f"/e/{s.slug}/{k}", HTTP_IF_NONE_MATCH=tags[(s.slug, k)]).status_code == 304
        for s in sections[1:]
        for k in kinds
    )
    changed = sum(
        client.get(f"/e/{first.slug}/{k}", HTTP_IF_NONE_MATCH=tags[(first.slug, k)]).status_code == 200 for k in kinds
    )
    shell_still = client.get(screen, HTTP_IF_NONE_MATCH=shell).status_code == 304
    print(
        f"\none result in {first.name}: {still} of {len(sections[1:]) * len(kinds)} pages of the other sections "
        f"still 304; {changed} of {len(kinds)} of its own pages made again; the venue screen's shell "
        f"{'still 304' if shell_still else 'made again'}; its board made again in {ms(took).strip()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=6000)
    parser.add_argument("--sections", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    setup()

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    from tournament.services.rounds import pair_next_round

    setup_test_environment()
    database = connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        print(f"database: {connection.vendor} ({database})")
        user = get_user_model().objects.create_user("bench", password="bench-pass-1")
        started = time.perf_counter()
        root, sections = generate(args.players, args.sections, user)
        print(
            f"generated {args.players} players in {len(sections)} sections, round 1 played: {time.perf_counter() - started:.1f} s"
        )

        for section in sections[:3]:  # the engines' first runs (imports, caches) timed in neither column
            pair_next_round(alone(section, user, "warm-up"), user)
        print(f"\n{'section':<14}{'preset':<9}{'players':>8}{'round 2 in section':>22}{'alone':>12}")
        totals = [0.0, 0.0]
        for section in sections:
            copy = alone(section, user)
            in_venue = timed(lambda s=section: pair_next_round(s, user))
            by_itself = timed(lambda c=copy: pair_next_round(c, user))
            totals[0] += in_venue
            totals[1] += by_itself
            count = section.players.count()
            print(f"{section.name:<14}{section.preset:<9}{count:>8}{ms(in_venue):>22}{ms(by_itself):>12}")
        print(f"{'all sections':<31}{ms(totals[0]):>22}{ms(totals[1]):>12}")

        client = Client()
        pages(client, root, sections, args.repeat)
        one_result(client, root, sections, user)
    finally:
        connection.creation.destroy_test_db(database, verbosity=0)


if __name__ == "__main__":
    main()
