"""Write the name-folding tables of `tournament/text/name_search.py` into static/js/public.js, whose filter
folds names as the server's search does. Run it after changing a table; a test fails until it is run."""

import re

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.text.name_search import browser_line

SCRIPT = "static/js/public.js"
LINE = re.compile(r"^  var FOLD = .*;$", re.MULTILINE)


class Command(BaseCommand):
    help = "Write name_search's folding tables into static/js/public.js."

    def handle(self, *args, **options):
        path = settings.BASE_DIR / SCRIPT
        text = path.read_text(encoding="utf-8")
        if len(LINE.findall(text)) != 1:
            raise CommandError(f"{SCRIPT} should have exactly one line `  var FOLD = …;`")
        written = LINE.sub(lambda _m: browser_line(), text)
        if written != text:
            path.write_text(written, encoding="utf-8")
            self.stdout.write(f"wrote the folding tables into {SCRIPT}")
