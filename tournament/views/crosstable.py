"""The crosstable (the chess way to read an event: one row per player, one column per round, `12w1`), on
the public pages and printed by the organiser."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_safe

from tournament import services
from tournament.models import Event
from tournament.text import l10n
from tournament.views.access import HtmxHttpRequest, event_for, is_fragment
from tournament.views.public import page_asked, paged
from tournament.views.public_cache import public_event, public_response


def crosstable_context(event: Event, live: bool = False, page: int | None = None) -> dict:
    """The crosstable worded in the active language: each cell as one short text ("12w1", "5b½", "-½"); a
    page of it (as many rows as a standings page) when page is given, all of it for printing."""
    table = services.crosstable(event, live=live)
    pages = paged(table.rows, page) if page is not None else {}
    shown = pages["page"].object_list if pages else table.rows
    # How crosstables write the colours (White, Black) in this language.
    letters = {"w": pgettext("crosstable: White", "w"), "b": pgettext("crosstable: Black", "b"), "": ""}
    codes = table.shown.standings.tiebreakers
    rows = [
        {
            "rank": r.rank,
            "player": r.player,
            "points": l10n.points(r.points),
            "tiebreakers": [l10n.value(c, v) for c, v in zip(codes, r.tiebreakers, strict=True)],
            "cells": [
                ""
                if c is None
                else f"{c.opponent}{letters[c.colour]}{c.result}"
                if c.opponent is not None
                else f"-{c.result}"
                for c in r.cells
            ],
        }
        for r in shown
    ]
    return pages | {
        "event": event,
        "label": table.shown.label,
        "rounds": table.rounds,
        "labels": [l10n.label(c) for c in codes],
        "rows": rows,
        "nav": "crosstable",
        "has_bracket": event.top_cut > 0,
    }


@require_safe
def public_crosstable(request: HtmxHttpRequest, slug: str):
    event = public_event(request, slug)
    page = page_asked(request, event)
    template = "public/crosstable.html"
    if is_fragment(request):
        template += "#crosstable"
    return public_response(request, event, template, lambda: crosstable_context(event, page=page), page)


@require_GET
@login_required
def print_crosstable(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    return render(request, "print/crosstable.html", crosstable_context(access.event, live=True))
