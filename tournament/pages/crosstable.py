"""The crosstable (one row per player, one column per round), on the public pages and printed by the
organiser (in the request, or by a job: tournament/jobs/files.py): a chess event's cells as arbiters write
them (`12w1`), another event's the opponent's number and the result apart, in the reader's words (English
`15 W`, Danish `15 V`, a Japanese 星取表's `○15`)."""

from django.utils.translation import pgettext

from standings.rating import RatingChange, format_change
from tournament.models import Event
from tournament.pages.public import paged
from tournament.services.ratings import event_ratings, round_changes
from tournament.services.standings import crosstable
from tournament.text import l10n


def cell_words(colours: bool):
    """How this language writes a crosstable cell: `text(cell)` for a `services.CrossCell` or None."""
    if colours:
        # How crosstables write the colours (White, Black) in this language: 12w1.
        letters = {"w": pgettext("crosstable: White", "w"), "b": pgettext("crosstable: Black", "b"), "": ""}

        def played(c) -> str:
            return f"{c.opponent}{letters[c.colour]}{c.result}"

    else:
        # No colours: the opponent's number and the result apart, as this language marks it.
        marks = {
            "1": pgettext("crosstable: won against", "%(opponent)s W"),
            "0": pgettext("crosstable: lost to", "%(opponent)s L"),
            "½": pgettext("crosstable: drew with", "%(opponent)s D"),
            "+": pgettext("crosstable: won by forfeit against", "%(opponent)s +"),
            "-": pgettext("crosstable: lost by forfeit to", "%(opponent)s −"),
            "": "%(opponent)s",  # still being played
        }

        def played(c) -> str:
            return marks[c.result] % {"opponent": c.opponent}

    # A round without an opponent: chess writes its points (-1, -½, -0); another game says what it was.
    alone = {}
    if not colours:
        alone = {
            "1": pgettext("crosstable: a round with a bye", "bye"),
            "½": pgettext("crosstable: a round with a half-point bye", "½ bye"),
            "0": pgettext("crosstable: a round missed, no points", "absent"),
        }

    def text(c) -> str:
        if c is None:
            return ""
        if c.opponent is None:
            return alone.get(c.result, f"-{c.result}")
        return played(c)

    return text


def crosstable_context(event: Event, live: bool = False, page: int | None = None) -> dict:
    """The crosstable worded in the active language: each cell as one short text ("12w1", "5b½", "-½", or
    without colours "15 W", ja "○15"); a page of it (as many rows as a standings page) when page is given, all
    of it for printing."""
    table = crosstable(event, live=live)
    pages = paged(table.rows, page) if page is not None else {}
    shown = pages["page"].object_list if pages else table.rows
    text = cell_words(event.colours)
    codes = table.shown.standings.tiebreakers
    # Chess: each rated game's FIDE rating change under its cell, and the event's in a column (docs/ratings.md).
    rated = any(r.player.rating for r in table.rows)
    changes = event_ratings(event, table.shown.standings.after_round, rated)
    rows = [
        {
            "rank": r.rank,
            "number": r.number,
            "player": r.player,
            "points": l10n.points(r.points),
            "tiebreakers": [l10n.value(c, v) for c, v in zip(codes, r.tiebreakers, strict=True)],
            **_cells(text, r.cells, table.rounds, changes.get(r.player.key)),
        }
        for r in shown
    ]
    return pages | {
        "event": event,
        "label": table.shown.label,
        "rounds": table.rounds,
        "labels": [l10n.label(c) for c in codes],
        # A column nobody has a value in is left out (an event without ratings on a 360-px phone).
        "ratings": rated,
        "rows": rows,
        "rating_changes": bool(changes),
        "nav": "crosstable",
        "has_bracket": event.top_cut > 0,
    }


def _cells(text, cells: tuple, rounds: tuple[int, ...], change: RatingChange | None) -> dict:
    """A row's cells as (result, rating change of that round) pairs, and the event's change ("" unrated)."""
    by_round = round_changes(change)
    return {
        "cells": [(text(c), by_round.get(n, "")) for c, n in zip(cells, rounds, strict=True)],
        "rating_change": format_change(change.total) if change else "",
    }
