"""How long does the crosstable of a big chess event take to build and render? `python bench/crosstable.py [SIZES...]`

Each size is a 9-round chess Swiss from bench/chess.py (draws, requested byes, forfeits, withdrawals),
imported into a fresh SQLite database; then the crosstable (standings, players, rounds and matches read,
every cell worded) and its first public page (100 rows) rendered, the best of three, with the standings cache cleared each
time so the engine's time is counted too; and the size of the printed crosstable (every row).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(sizes: list[int]) -> None:
    db = Path(tempfile.mkdtemp()) / "crosstable.sqlite3"
    os.environ.update(DATABASE_URL=f"sqlite:///{db}", DJANGO_SETTINGS_MODULE="tournament.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.template.loader import render_to_string

    from bench.chess import generate
    from tournament.pages.crosstable import crosstable_context
    from tournament.snapshot import import_event

    call_command("migrate", verbosity=0)
    print(f"{'players':>8} {'rounds':>6} {'build s':>8} {'render s':>9} {'page kB':>8} {'print kB':>9}")
    for n in sizes:
        event = import_event(generate(n))
        build = render = float("inf")
        for _ in range(3):
            cache.clear()
            t = time.perf_counter()
            ctx = crosstable_context(event, page=1)
            t2 = time.perf_counter()
            html = render_to_string("public/crosstable.html", ctx)
            build, render = min(build, t2 - t), min(render, time.perf_counter() - t2)
        printed = render_to_string("print/crosstable.html", crosstable_context(event, live=True))
        print(
            f"{n:>8} {len(ctx['rounds']):>6} {build:>8.3f} {render:>9.3f} {len(html) / 1024:>8.0f}"
            f" {len(printed) / 1024:>9.0f}"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [256, 2048])
