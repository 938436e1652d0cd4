from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from swiss import trf, venuefile
from tournament.models import Event
from tournament.snapshot import event_to_trf, export_file


class Command(BaseCommand):
    help = (
        "Print an event as a swiss-event JSON file (version 2 for an event with sections, with them all; a "
        "section's slug gives that section alone) or with --format trf as a FIDE TRF-16 file (a section's), or "
        "with --all DIR write every event to DIR/<slug>.json (a whole-database backup that import_event "
        "DIR/*.json restores) or every event that pairs its own rounds to DIR/<slug>.trf."
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
            # JSON: each event the venue knows, its sections inside; TRF: each event that pairs, sections too.
            events = Event.objects.filter(parent=None) if format == "json" else Event.objects.filter(sections=None)
            for event in events.order_by("slug").iterator():
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
            if event.sections.exists():
                names = ", ".join(s.slug for s in event.section_list)
                raise CommandError(f"{event.slug} has sections: a TRF file is a section's ({names})", returncode=2)
            try:
                return event_to_trf(event)
            except trf.TRFExportError as e:
                raise CommandError(f"{event.slug}: {e}", returncode=2) from None
        return venuefile.dumps(export_file(event))
