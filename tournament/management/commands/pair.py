from django.core.management.base import BaseCommand, CommandError

from pairing.tools.files import SECTION_HELP, FileRefused, without_cycle_collector
from pairing.tools.main import EXPLAIN_HELP, WHY_NOT_HELP, run_pair


class Command(BaseCommand):
    """`swiss pair` (pairing/tools/) as a management command: the same code, the same output."""

    help = (
        "Print the pairing of the next round of the swiss-event JSON or FIDE TRF-16 file FILE: no rematch, "
        "no second bye and the fewest, smallest floats whenever possible; once the planned Swiss rounds are "
        "played, the top cut. Reads only the file, never the database."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="swiss-event JSON file or FIDE TRF-16 file")
        parser.add_argument(
            "--seed",
            type=int,
            metavar="N",
            help="random seed, to reproduce a pairing (default: a new one, printed with the pairing)",
        )
        parser.add_argument(
            "--format",
            choices=("json", "text"),
            default="text",
            help='json: {"round", "seed", "pairings": [{"table", "a", "b"}], "warnings"}; '
            "text: a table for people (default)",
        )
        parser.add_argument("--section", metavar="NAME", help=SECTION_HELP + "; --format json needs one")
        parser.add_argument("--why-not", metavar="A,B", help=WHY_NOT_HELP)
        parser.add_argument("--explain", action="store_true", help=EXPLAIN_HELP)

    def handle(self, *args, file, seed=None, format="text", section=None, why_not=None, explain=False, **options):
        try:
            with without_cycle_collector():
                output = run_pair(file, seed, format, section, why_not, explain)
        except FileRefused as e:
            raise CommandError(str(e), returncode=e.status) from None
        self.stdout.write(output, ending="")
