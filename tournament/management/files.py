"""What the file commands share: reading a swiss-event or TRF file with a one-line refusal, and batch mode."""

import gc
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import CommandError

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf
from swiss.model import Event

FORMATS = ("auto", "json", "trf")


def read_event_file(name: str, format: str = "auto") -> Event:
    """The parsed file (a swiss-event JSON file or a FIDE TRF-16 file, told apart by their first line unless
    `format` says), or a CommandError (exit code 2) naming the file and the place of the error."""
    try:
        path = Path(name)
        with path.open("rb") as f:
            start = f.read(64)
        if format == "trf" or (format == "auto" and trf.looks_like_trf(start)):
            # The web upload's bound: a file larger than any real tournament's is refused unread.
            trf.check_size(path.stat().st_size)
            return trf.loads(path.read_bytes(), points_by_player)
        return ef.loads(path.read_bytes())
    except OSError as e:
        raise CommandError(f"{name}: cannot read file ({e.strerror})", returncode=2) from None
    except ef.EventFileError as e:
        raise CommandError(f"{name}: {e}", returncode=2) from None


@contextmanager
def without_cycle_collector():
    """A one-shot command building ~10^5 acyclic objects: the cycle collector would only rescan them."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
