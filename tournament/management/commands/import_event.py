from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from swiss import eventfile as ef
from tournament.files.eventio import import_event
from tournament.management.files import FORMATS, read_event_file


class Command(BaseCommand):
    help = (
        "Load swiss-event JSON files or FIDE TRF-16 files (a chess event) into the database as new events. A malformed file is refused with a "
        "message naming the place of the error and nothing is written. Prints each new event's slug, "
        "the last one on the last line."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="swiss-event JSON or TRF-16 file(s)")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            default="auto",
            help="json or trf; auto (default) tells them apart by the first line",
        )
        parser.add_argument("--slug", help="slug for the new event (only with a single FILE)")

    def handle(self, *args, files, slug=None, format="auto", **options):
        if slug and len(files) > 1:
            raise CommandError("--slug can only be used with a single FILE", returncode=2)
        parsed = [read_event_file(name, format) for name in files]
        events = []
        try:
            # All files or none: a restore that half-happened is worse than one that did not start.
            with transaction.atomic():
                for doc in parsed:
                    events.append(import_event(doc, slug))
        except ef.EventFileError as e:
            # Named by its file, as a refusal while reading is (a player's name the database refuses).
            raise CommandError(f"{files[len(events)]}: {e}", returncode=2) from None
        for event in events:
            self.stdout.write(event.slug)
