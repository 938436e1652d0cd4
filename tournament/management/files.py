"""What the file commands share: reading a swiss-event or TRF file with a one-line refusal, and batch mode."""

import gc
from contextlib import contextmanager
from pathlib import Path

from django.core.management.base import CommandError

from standings import points_by_player
from swiss import eventfile as ef
from swiss import trf, venuefile
from swiss.model import Event, Venue

FORMATS = ("auto", "json", "trf")


def read_event_file(name: str, format: str = "auto") -> Event | Venue:
    """The parsed file (a swiss-event JSON file of either version or a FIDE TRF-16 file, told apart by their
    first line unless `format` says), or a CommandError (exit code 2) naming the file and the place of the
    error. A version-2 file (an event with sections) is a Venue."""
    try:
        path = Path(name)
        with path.open("rb") as f:
            start = f.read(64)
        if format == "trf" or (format == "auto" and trf.looks_like_trf(start)):
            # The web upload's bound: a file larger than any real tournament's is refused unread.
            trf.check_size(path.stat().st_size)
            return trf.loads(path.read_bytes(), points_by_player)
        return venuefile.loads(path.read_bytes())
    except OSError as e:
        raise CommandError(f"{name}: cannot read file ({e.strerror})", returncode=2) from None
    except ef.EventFileError as e:
        raise CommandError(f"{name}: {e}", returncode=2) from None


def sections_to_run(doc: Event | Venue, name: str, section: str | None, one: bool) -> list[tuple[str | None, Event]]:
    """The events a file command runs on, each with the heading it prints (None: no heading). A file without
    sections is one event; a file with sections is the section `--section` names, or else each in turn,
    headed by its name, unless the output is `one` document (JSON), which needs a section named."""
    if isinstance(doc, Event):
        if section is not None:
            raise CommandError(f"{name}: this file has no sections (--section is for a version-2 file)", returncode=2)
        return [(None, doc)]
    names = [s.settings.name for s in doc.sections]
    if section is not None:
        for s in doc.sections:
            if s.settings.name == section:
                return [(None, s)]
        raise CommandError(
            f"{name}: no section {section!r}; the sections are {', '.join(map(repr, names))}", returncode=2
        )
    if one:
        raise CommandError(
            f"{name}: the file has sections; name one with --section ({', '.join(map(repr, names))})", returncode=2
        )
    return [(s.settings.name, s) for s in doc.sections]


SECTION_HELP = "in a file with sections (version 2), only this section (default: each in turn, by name)"


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
