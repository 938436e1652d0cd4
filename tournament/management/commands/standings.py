from django.core.management.base import BaseCommand, CommandError

from standings import compute, dumps_json, to_text
from tournament.management.files import SECTION_HELP, read_event_file, sections_to_run, without_cycle_collector


class Command(BaseCommand):
    help = (
        "Print the standings of the swiss-event JSON or FIDE TRF-16 file FILE: match points, record and the event's "
        "tie-breakers, computed exactly. Reads only the file, never the database."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="swiss-event JSON file or FIDE TRF-16 file")
        parser.add_argument(
            "--format",
            choices=("json", "text"),
            default="text",
            help="json: exact figures as strings (docs/file-formats.md); text: a table for people (default)",
        )
        parser.add_argument(
            "--after-round",
            type=int,
            metavar="N",
            help="standings after Swiss round N (default: the last round with a result)",
        )
        parser.add_argument("--section", metavar="NAME", help=SECTION_HELP + "; --format json needs one")

    def handle(self, *args, file, format="text", after_round=None, section=None, **options):
        if after_round is not None and after_round < 0:
            raise CommandError("--after-round must be 0 or more", returncode=2)
        with without_cycle_collector():
            output = self.standings(file, format, after_round, section)
        self.stdout.write(output, ending="")

    def standings(self, file: str, format: str, after_round: int | None, section: str | None = None) -> str:
        parts = []
        for heading, event in sections_to_run(read_event_file(file), file, section, one=format == "json"):
            result = compute(event, after_round)
            text = dumps_json(result) if format == "json" else to_text(result)
            parts.append(text if heading is None else f"== {heading} ==\n\n{text}")
        return "\n".join(parts)
