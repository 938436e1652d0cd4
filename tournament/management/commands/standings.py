from django.core.management.base import BaseCommand, CommandError

from pairing.tools.files import SECTION_HELP, FileRefused, without_cycle_collector
from pairing.tools.main import (
    NORMS_HELP,
    OUTLOOK_HELP,
    OUTLOOK_POINTS_HELP,
    TIEBREAK_RULES_HELP,
    run_norms,
    run_outlook,
    run_standings,
)


class Command(BaseCommand):
    """`swiss standings` (pairing/tools/) as a management command: the same code, the same output."""

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
        parser.add_argument("--tiebreak-rules", choices=("2024", "2026"), metavar="2024|2026", help=TIEBREAK_RULES_HELP)
        line = parser.add_mutually_exclusive_group()
        line.add_argument("--outlook", type=int, metavar="N", help=OUTLOOK_HELP)
        line.add_argument("--outlook-points", metavar="P", help=OUTLOOK_POINTS_HELP)
        line.add_argument("--norms", action="store_true", help=NORMS_HELP)

    def handle(
        self,
        *args,
        file,
        format="text",
        after_round=None,
        section=None,
        outlook=None,
        outlook_points=None,
        norms=False,
        tiebreak_rules=None,
        **options,
    ):
        try:
            with without_cycle_collector():
                if norms:
                    output = run_norms(file, format, section)
                elif outlook is not None or outlook_points is not None:
                    output = run_outlook(file, format, section, outlook, outlook_points, tiebreak_rules)
                else:
                    output = run_standings(file, format, after_round, section, tiebreak_rules)
        except FileRefused as e:
            raise CommandError(str(e), returncode=e.status) from None
        self.stdout.write(output, ending="")
