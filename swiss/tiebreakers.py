"""Every tie-breaker, in one table: its code, its short heading, its long name and its kind.

- The *code* is what presets, settings, files and the `standings` output name (`omw`, `BH-C1`).
- The *heading* heads a standings column, short as a phone's table needs ("OMW%"); a FIDE C.07 tie-break is
  headed by its FIDE code, which chess organisers know in every language.
- The *name* says what it is (the settings page lists it beside the heading).
- The *kind* says how a value reads: a percentage (55.5556%), a number (2.5) or a vector of numbers, compared
  term by term (9/7/5/3).
- `among_tied`: the value depends on who else is still tied (direct encounter), not on the player alone; the
  standings engine computes these in `standings/tied.py`.
- `fide`: FIDE C.07's, with Article 16 on unplayed rounds (`standings/fide.py`); the others follow the rules
  in docs/engines.md (`standings/figures.py`).
- `lower_first`: the lower value ranks higher (TPN, the pairing number); every other ranks the higher first.

A FIDE code is written here with a hyphen before its modifier (`BH-C1`); C.07 and a TRF-2026 tie-break record
(202, 212) write it with a slash (`BH/C1`): `c07_code` and `from_c07` turn one into the other.

Headings and names are English. The web app shows them in the reader's language: `make messages` extracts
them from this table (`pgettext_noop`, `gettext_noop` are markers the project's `makemessages` knows) and
`tournament/text/l10n.py` looks them up, headings in the context `HEADING_CONTEXT`. docs/tiebreakers.md says
how to add one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PERCENT, NUMBER, VECTOR = "percent", "number", "vector"

# The translation context of every heading: "Wins" as a column heading may read otherwise than elsewhere.
HEADING_CONTEXT = "tie-breaker"


def gettext_noop(text: str) -> str:
    """Marks English words for translation (as Django's own `gettext_noop`): the text is returned as it is."""
    return text


def pgettext_noop(context: str, text: str) -> str:
    """Marks English words for translation in `context`; the text is returned as it is."""
    return text


@dataclass(frozen=True)
class Tiebreaker:
    code: str
    heading: str
    name: str
    kind: str = NUMBER
    among_tied: bool = False
    fide: bool = False
    lower_first: bool = False


def _fide(code: str, name: str, among_tied: bool = False, lower_first: bool = False) -> Tiebreaker:
    return Tiebreaker(code, code, name, NUMBER, among_tied=among_tied, fide=True, lower_first=lower_first)


# In the order the settings page offers them: the presets' own, then FIDE C.07's.
TIEBREAKERS = {
    t.code: t
    for t in (
        Tiebreaker("mw", pgettext_noop("tie-breaker", "MW%"), gettext_noop("Match-win percentage"), PERCENT),
        Tiebreaker("gw", pgettext_noop("tie-breaker", "GW%"), gettext_noop("Game-win percentage"), PERCENT),
        Tiebreaker(
            "omw", pgettext_noop("tie-breaker", "OMW%"), gettext_noop("Opponents' match-win percentage"), PERCENT
        ),
        Tiebreaker(
            "ogw", pgettext_noop("tie-breaker", "OGW%"), gettext_noop("Opponents' game-win percentage"), PERCENT
        ),
        Tiebreaker(
            "oomw",
            pgettext_noop("tie-breaker", "OOMW%"),
            gettext_noop("Opponents' opponents' match-win percentage"),
            PERCENT,
        ),
        Tiebreaker("buchholz", pgettext_noop("tie-breaker", "Buchholz"), gettext_noop("Sum of the opponents' points")),
        Tiebreaker(
            "buchholz_cut1",
            pgettext_noop("tie-breaker", "Buchholz cut-1"),
            gettext_noop("Opponents' points without the lowest"),
        ),
        Tiebreaker(
            "median_buchholz",
            pgettext_noop("tie-breaker", "Median Buchholz"),
            gettext_noop("Opponents' points without the highest and the lowest"),
        ),
        Tiebreaker(
            "buchholz_cuts",
            pgettext_noop("tie-breaker", "Buchholz cuts"),
            gettext_noop("Opponents' points: all rounds, then the best but one, … (9/7/5/3)"),
            VECTOR,
        ),
        Tiebreaker(
            "buchholz_variant",
            pgettext_noop("tie-breaker", "Buchholz variant"),
            gettext_noop("Buchholz cuts in another order: best R−2, R−1, R, then R−3, …"),
            VECTOR,
        ),
        Tiebreaker(
            "sonneborn_berger",
            pgettext_noop("tie-breaker", "Sonneborn-Berger"),
            gettext_noop("Points of the opponents beaten, plus half of those drawn"),
        ),
        Tiebreaker(
            "rating_sum", pgettext_noop("tie-breaker", "Rating sum"), gettext_noop("Sum of the opponents' ratings")
        ),
        Tiebreaker(
            "direct_encounter",
            pgettext_noop("tie-breaker", "Direct encounter"),
            gettext_noop("Result between the tied players"),
            among_tied=True,
        ),
        Tiebreaker(
            "head_to_head",
            pgettext_noop("tie-breaker", "Head-to-head"),
            gettext_noop("Head-to-head result between the tied players"),
            among_tied=True,
        ),
        Tiebreaker(
            "wins", pgettext_noop("tie-breaker", "Wins"), gettext_noop("Matches won over the board (byes excluded)")
        ),
        Tiebreaker(
            "cumulative",
            pgettext_noop("tie-breaker", "Cumulative"),
            gettext_noop("Sum of the running score after each round"),
        ),
        _fide("BH", gettext_noop("Buchholz: the sum of the opponents' scores")),
        _fide("BH-C1", gettext_noop("Buchholz without the lowest opponent's score")),
        _fide("BH-C2", gettext_noop("Buchholz without the two lowest opponents' scores")),
        _fide("BH-M1", gettext_noop("Buchholz without the highest and the lowest opponent's score")),
        _fide("BH-M2", gettext_noop("Buchholz without the two highest and the two lowest opponents' scores")),
        _fide("FB", gettext_noop("Fore Buchholz: Buchholz as if every last-round game were drawn")),
        _fide("FB-C1", gettext_noop("Fore Buchholz without the lowest opponent's score")),
        _fide("FB-C2", gettext_noop("Fore Buchholz without the two lowest opponents' scores")),
        _fide("FB-M1", gettext_noop("Fore Buchholz without the highest and the lowest opponent's score")),
        _fide("FB-M2", gettext_noop("Fore Buchholz without the two highest and the two lowest opponents' scores")),
        _fide("AOB", gettext_noop("Average of the opponents' Buchholz")),
        _fide("SB", gettext_noop("Sonneborn-Berger: the scores of the opponents beaten, plus half of those drawn")),
        _fide("SB-C1", gettext_noop("Sonneborn-Berger without the lowest opponent's part")),
        _fide("SB-C2", gettext_noop("Sonneborn-Berger without the two lowest opponents' parts")),
        _fide("SB-M1", gettext_noop("Sonneborn-Berger without the highest and the lowest opponent's part")),
        _fide("SB-M2", gettext_noop("Sonneborn-Berger without the two highest and the two lowest opponents' parts")),
        _fide("KS", gettext_noop("Koya system: points scored against those on half the possible score or more")),
        _fide("DE", gettext_noop("Direct encounter: the games between the tied players"), among_tied=True),
        _fide("WIN", gettext_noop("Rounds won, played or not")),
        _fide("WON", gettext_noop("Games won over the board")),
        _fide("BPG", gettext_noop("Games played with Black")),
        _fide("BWG", gettext_noop("Games won with Black")),
        _fide("REP", gettext_noop("Rounds the player elected to play (no requested bye, no forfeit loss)")),
        _fide("GE", gettext_noop("Games the player chose to play (no requested bye, no forfeit)")),
        _fide("STD", gettext_noop("Standard points: every round scored 1, ½ or 0, whatever the event's scoring")),
        _fide("PS", gettext_noop("Progressive score: the sum of the running score after each round")),
        _fide("PS-C1", gettext_noop("Progressive score without the first round")),
        _fide("ARO", gettext_noop("Average rating of the opponents")),
        _fide("ARO-C1", gettext_noop("Average rating of the opponents without the lowest")),
        _fide("ARO-C2", gettext_noop("Average rating of the opponents without the two lowest")),
        _fide("ARO-M1", gettext_noop("Average rating of the opponents without the highest and the lowest")),
        _fide("ARO-M2", gettext_noop("Average rating of the opponents without the two highest and the two lowest")),
        _fide("TPR", gettext_noop("Tournament performance rating")),
        _fide("PTP", gettext_noop("Perfect tournament performance")),
        _fide("APRO", gettext_noop("Average of the opponents' tournament performance ratings")),
        _fide("APPO", gettext_noop("Average of the opponents' perfect tournament performances")),
        _fide("RTNG", gettext_noop("The player's own rating")),
        _fide("TPN", gettext_noop("Pairing number: the lower ranks higher"), lower_first=True),
    )
}

CODES = tuple(TIEBREAKERS)
FIDE_CODES = tuple(c for c, t in TIEBREAKERS.items() if t.fide)
PERCENTAGES = tuple(c for c, t in TIEBREAKERS.items() if t.kind == PERCENT)
AMONG_TIED = tuple(c for c, t in TIEBREAKERS.items() if t.among_tied)
LOWER_FIRST = tuple(c for c, t in TIEBREAKERS.items() if t.lower_first)


def c07_code(code: str) -> str:
    """`code` as C.07 and a TRF-2026 tie-break record write it (`BH-C1` -> `BH/C1`)."""
    return code.replace("-", "/")


def from_c07(word: str) -> str:
    """The code of this table a C.07 spelling names ("BH/C1", "bh:c1", "BH C1" and "BH-C1" are all BH-C1); a
    word this table does not know comes back upper-cased, its modifier after a hyphen. GE, C.07's name for
    REP before March 2026, stays GE: an event that ranks by it keeps its values."""
    code = re.sub(r"[/:\s]+", "-", word.strip().upper())
    return code


def heading(code: str) -> str:
    """The English column heading of `code` (the code itself for one this table does not know)."""
    t = TIEBREAKERS.get(code)
    return t.heading if t else code
