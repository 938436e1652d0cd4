"""The browser's scripts keep one home for each fact: one clock for every page (static/js/clock.js), written as
the server writes it, and the name-folding tables of the player search taken from the server's
(tournament/text/name_search.py, written into static/js/public.js by `manage.py fold_table`)."""

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from tournament.text import l10n, name_search

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "static" / "js"


def test_the_browsers_folding_tables_are_the_servers():
    text = (SCRIPTS / "public.js").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("  var FOLD = ")]
    assert lines == [name_search.browser_line()], "run `manage.py fold_table`"


def test_the_folding_tables_hold_every_letter_the_server_folds():
    table = name_search.browser_table()
    for letter, folded in table["letters"].items():
        assert name_search.fold(letter) == name_search.fold(folded)
    assert {name_search.fold(a) for a in table["apostrophes"]} == {"'"}
    assert {"髙", "渡邊"[1], "ø", "æ", "å", "ß"} <= set(table["letters"])


def test_fold_table_writes_nothing_when_the_tables_match(capsys):
    before = (SCRIPTS / "public.js").read_bytes()
    call_command("fold_table")
    assert (SCRIPTS / "public.js").read_bytes() == before
    assert capsys.readouterr().out == ""


CLOCK_WORDS = re.compile(
    r"data-deadline|dataset\.deadline|secondsLeft|dataset\.left|\.clock\b|getResponseHeader\(\"Date\"\)"
)


def test_one_script_counts_the_clocks():
    counting = sorted(p.name for p in SCRIPTS.glob("*.js") if CLOCK_WORDS.search(p.read_text(encoding="utf-8")))
    assert counting == ["clock.js"]
    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    assert "js/clock.js" in base  # every page, organiser's and public


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (2945, "49:05"),
        (2100, "35:00"),
        (59, "0:59"),
        (-30, "−0:30"),
        (3600, "1:00:00"),
        (5400, "1:30:00"),
        (-3661, "−1:01:01"),
    ],
)
def test_the_server_writes_a_clock_as_the_script_does(seconds, shown):
    assert l10n.clock(seconds) == shown
