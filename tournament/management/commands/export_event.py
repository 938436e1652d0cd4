from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from swiss import eventfile as ef
from swiss import trf
from tournament.files.eventio import event_to_file, event_to_trf
from tournament.models import Event


class Command(BaseCommand):
    help = (
        "Print an event as a swiss-event JSON file (or with --format trf as a FIDE TRF-16 file), or with "
        "--all DIR write every event to DIR/<slug>.json (a whole-database backup that import_event DIR/*.json "
        "restores) or DIR/<slug>.trf."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the event's slug")
        parser.add_argument("--all", metavar="DIR", help="write every event to DIR/<slug>.json (or .trf)")
        parser.add_argument(
            "--format",
            choices=("json", "trf"),
            default="json",
            help="json: the swiss-event file (default); trf: FIDE TRF-16, the file chess federations take",
        )

    def handle(self, *args, slug=None, all=None, format="json", **options):
        if bool(slug) == bool(all):
            raise CommandError("give either an event SLUG or --all DIR", returncode=2)
        if all:
            directory = Path(all)
            directory.mkdir(parents=True, exist_ok=True)
            count = 0
            for event in Event.objects.order_by("slug").iterator():
                (directory / f"{event.slug}.{format}").write_text(self.text(event, format), encoding="utf-8")
                count += 1
            self.stderr.write(f"wrote {count} event(s) to {directory}")
            return
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the slug {slug!r}", returncode=2)
        self.stdout.write(self.text(event, format), ending="")

    def text(self, event: Event, format: str) -> str:
        if format == "trf":
            try:
                return event_to_trf(event)
            except trf.TRFExportError as e:
                raise CommandError(f"{event.slug}: {e}", returncode=2) from None
        return ef.dumps(event_to_file(event, include_drafts=True))
