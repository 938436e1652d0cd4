"""The WSGI application gunicorn serves (deploy/start.sh).

Once it is loaded, the garbage collector is told to leave the loaded code alone and to look less often
(`settle_memory`): a full pass over every object of a worker (Django, the app, a big event's cached
rows and standings) stopped all four of its threads for 50-110 ms every few seconds while the players
of a 2048-player event reported their results (bench/self_report.py); settled, a pass takes 4-9 ms of
CPU, and a whole run makes one full pass, of 14 ms. (The benchmark's p99 moves by more than that from
one run to the next on a shared 2-core machine: the pauses are gone, the p99 is not measurably lower.)
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

# Passes over the youngest objects after this many new ones (CPython's default is 700), and over the older
# generations after this many passes of the one below. A request leaves a few thousand objects in
# reference cycles (its request, response and template context), so a pass still finds mostly garbage,
# and the rare full pass finds little that it has not seen.
GC_THRESHOLDS = (10_000, 10, 10)


def settle_memory() -> None:
    """Move everything loaded so far (modules, URL patterns, views) out of the collector's passes.

    Frozen objects are still freed by reference counting; only garbage cycles among them would stay, and
    code loaded once at start-up makes none.
    """
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every view module now rather than in the first request
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


application = get_wsgi_application()
settle_memory()
