"""What the management commands share with the file tools (pairing/tools/files.py): reading a swiss-event or TRF
file with a one-line refusal (a CommandError, exit code 2), and batch mode."""

from django.core.management.base import CommandError

from pairing.tools import files
from pairing.tools.files import FORMATS, SECTION_HELP, without_cycle_collector
from swiss.model import Event, Venue

__all__ = ["FORMATS", "SECTION_HELP", "read_event_file", "sections_to_run", "without_cycle_collector"]


def read_event_file(name: str, format: str = "auto") -> Event | Venue:
    """pairing.tools.files.read_event_file, refusing with a CommandError (exit code 2)."""
    try:
        return files.read_event_file(name, format)
    except files.FileRefused as e:
        raise CommandError(str(e), returncode=e.status) from None


def sections_to_run(doc: Event | Venue, name: str, section: str | None, one: bool) -> list[tuple[str | None, Event]]:
    """pairing.tools.files.sections_to_run, refusing with a CommandError (exit code 2)."""
    try:
        return files.sections_to_run(doc, name, section, one)
    except files.FileRefused as e:
        raise CommandError(str(e), returncode=e.status) from None
