from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from standings import eventfile as ef
from tournament.eventio import event_to_file
from tournament.models import Event


class Command(BaseCommand):
    help = (
        "Print an event as a swiss-event JSON file, or with --all DIR write every event to DIR/<slug>.json "
        "(a whole-database backup that import_event DIR/*.json restores)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the event's slug")
        parser.add_argument("--all", metavar="DIR", help="write every event to DIR/<slug>.json")

    def handle(self, *args, slug=None, all=None, **options):
        if bool(slug) == bool(all):
            raise CommandError("give either an event SLUG or --all DIR", returncode=2)
        if all:
            directory = Path(all)
            directory.mkdir(parents=True, exist_ok=True)
            count = 0
            for event in Event.objects.order_by("slug").iterator():
                (directory / f"{event.slug}.json").write_text(
                    ef.dumps(event_to_file(event, include_drafts=True)), encoding="utf-8"
                )
                count += 1
            self.stderr.write(f"wrote {count} event(s) to {directory}")
            return
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise CommandError(f"no event with the slug {slug!r}", returncode=2)
        self.stdout.write(ef.dumps(event_to_file(event, include_drafts=True)), ending="")
