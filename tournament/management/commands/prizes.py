from django.core.management.base import BaseCommand, CommandError

from pairing.tools.files import SECTION_HELP, FileRefused, without_cycle_collector
from pairing.tools.prizes import PRIZES_HELP, run_prizes


class Command(BaseCommand):
    """`swiss prizes` (pairing/tools/) as a management command: the same code, the same output."""

    help = PRIZES_HELP[0].upper() + PRIZES_HELP[1:] + ". Reads only the file, never the database."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="swiss-event JSON file")
        parser.add_argument(
            "--format",
            choices=("json", "text"),
            default="text",
            help="json: amounts as decimal strings to the cent (docs/prizes.md); text: a list for people (default)",
        )
        parser.add_argument("--section", metavar="NAME", help=SECTION_HELP + "; --format json needs one")

    def handle(self, *args, file, format="text", section=None, **options):
        try:
            with without_cycle_collector():
                output = run_prizes(file, format, section)
        except FileRefused as e:
            raise CommandError(str(e), returncode=e.status) from None
        self.stdout.write(output, ending="")
