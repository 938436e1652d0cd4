"""`makemessages` with output that merges cleanly when engineers add strings in parallel: entries
sorted, lines unwrapped, and no POT-Creation-Date (a timestamp every run would change). Use
`make messages` (docs/languages.md: Translating your strings)."""

import re
from pathlib import Path

from django.core.management.commands import makemessages

_CREATION_DATE = re.compile(r'^"POT-Creation-Date: [^"]*\\n"\n', re.MULTILINE)


# The pure core marks the words it holds for people without importing Django (swiss/tiebreakers.py):
# `gettext_noop` is one of Django's own markers, `pgettext_noop` (a context, then the text) is ours.
MARKERS = ["--keyword=pgettext_noop:1c,2"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, *MARKERS, "--sort-output", "--no-wrap"]
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--sort-output", "--no-wrap"]
    msguniq_options = [*makemessages.Command.msguniq_options, "--sort-output", "--no-wrap"]
    msgattrib_options = [*makemessages.Command.msgattrib_options, "--sort-output", "--no-wrap"]

    def write_po_file(self, potfile, locale):
        super().write_po_file(potfile, locale)
        basedir = Path(potfile).parent / locale / "LC_MESSAGES"
        po = basedir / f"{self.domain}.po"
        text = po.read_text(encoding="utf-8")
        po.write_text(_CREATION_DATE.sub("", text), encoding="utf-8")
