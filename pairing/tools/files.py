"""Reading a swiss-event or TRF file for a tool, with a one-line refusal naming the file, and batch mode."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from standings import points_by_player
from swiss import eventfile as ef
from swiss import venuefile
from swiss.model import Event, Venue

FORMATS = ("auto", "json", "trf")
SECTION_HELP = "in a file with sections (version 2), only this section (default: each in turn, by name)"


class FileRefused(Exception):
    """A file a tool cannot work on: the message names the file and the place of the error; exit status 2."""

    status = 2


def read_event_file(name: str, format: str = "auto") -> Event | Venue:
    """The parsed file (a swiss-event JSON file of either version or a FIDE TRF-16 file, told apart by their
    first line unless `format` says), or FileRefused naming the file and the place of the error. A version-2
    file (an event with sections) is a Venue."""
    return read_event_bytes(name, format)[0]


def read_event_bytes(name: str, format: str = "auto") -> tuple[Event | Venue, bytes, bool]:
    """As read_event_file, with the file's bytes and whether it is a TRF."""
    try:
        path = Path(name)
        with path.open("rb") as f:
            start = f.read(64)
        # A swiss-event file starts with "{", which no TRF does: the TRF reader is imported only for another.
        json_start = format == "auto" and start.lstrip().startswith(b"{")
        if format == "trf" or (format == "auto" and not json_start and _trf().looks_like_trf(start)):
            trf = _trf()
            # The web upload's bound: a file larger than any real tournament's is refused unread.
            trf.check_size(path.stat().st_size)
            data = path.read_bytes()
            return trf.loads(data, points_by_player), data, True
        data = path.read_bytes()
        return venuefile.loads(data), data, False
    except OSError as e:
        raise FileRefused(f"{name}: cannot read file ({e.strerror})") from None
    except ef.EventFileError as e:
        raise FileRefused(f"{name}: {e}") from None


def _trf():
    from swiss import trf

    return trf


def sections_to_run(doc: Event | Venue, name: str, section: str | None, one: bool) -> list[tuple[str | None, Event]]:
    """The events a file command runs on, each with the heading it prints (None: no heading). A file without
    sections is one event; a file with sections is the section `--section` names, or else each in turn,
    headed by its name, unless the output is `one` document (JSON), which needs a section named."""
    if isinstance(doc, Event):
        if section is not None:
            raise FileRefused(f"{name}: this file has no sections (--section is for a version-2 file)")
        return [(None, doc)]
    names = [s.settings.name for s in doc.sections]
    if section is not None:
        for s in doc.sections:
            if s.settings.name == section:
                return [(None, s)]
        raise FileRefused(f"{name}: no section {section!r}; the sections are {', '.join(map(repr, names))}")
    if one:
        raise FileRefused(f"{name}: the file has sections; name one with --section ({', '.join(map(repr, names))})")
    return [(s.settings.name, s) for s in doc.sections]


@contextmanager
def without_cycle_collector() -> Iterator[None]:
    """A one-shot command building ~10^5 acyclic objects: the cycle collector would only rescan them."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
