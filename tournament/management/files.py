"""What the file commands share: reading a swiss-event file with a one-line refusal, and batch mode."""

import gc
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import CommandError

from standings import eventfile as ef


def read_event_file(name: str) -> ef.Event:
    """The parsed file, or a CommandError (exit code 2) naming the file and the place of the error."""
    try:
        return ef.loads(Path(name).read_bytes())
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
