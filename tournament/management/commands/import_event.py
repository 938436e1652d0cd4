from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from swiss import eventfile as ef
from tournament.management.files import FORMATS, read_event_file
from tournament.services.event_files import import_file


class Command(BaseCommand):
    help = (
        "Load swiss-event JSON files (version 2: an event with its sections) or FIDE TRF-16 files (a chess event) "
        "into the database as new events. A malformed file is refused with a "
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
        parsed = [(name, read_event_file(name, format)) for name in files]
        events = []
        # All files or none: a restore that half-happened is worse than one that did not start. A file the
        # database refuses (a name holding a control character) is named as a file the reader refuses is.
        with transaction.atomic():
            for name, doc in parsed:
                try:
                    events.append(import_file(doc, slug))
                except ef.EventFileError as e:
                    raise CommandError(f"{name}: {e}", returncode=2) from None
        for event in events:
            self.stdout.write(event.slug)
