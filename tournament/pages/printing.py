"""What a round's prints show: its pairings by table and by name (with the points going into the round, and a chess
event's start numbers, titles and ratings), and its match slips (with the table's reporting page as a QR code when
players report). views/printing.py answers the request."""

from collections.abc import Callable

from django.db.models import F
from django.urls import reverse

import standings
from tournament.models import Event, Round
from tournament.pages.rows import qr_svg
from tournament.services.standings import chess_idents
from tournament.snapshot import event_to_file
from tournament.text import l10n, name_search
from tournament.text.results import result_label


def round_print(event: Event, rnd: Round, kind: str, absolute: Callable[[str], str]) -> tuple[str, dict]:
    """The template and context of the print `kind` (by-name, by-table, slips) of `rnd`; `absolute` makes a path
    an address to scan (the request's own host)."""
    number = rnd.number
    before = standings.compute(event_to_file(event, include_drafts=True), after_round=number - 1)
    points = {r.player_id: l10n.points(r.points) for r in before.rows}
    matches = list(rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id"))
    idents = chess_idents(event)  # a chess list's start number, title and rating beside each name
    if kind == "by-name":
        lines = []
        for m in matches:
            # With colours, player A is White (a forfeit Black won keeps its colours: `colour_order`).
            a, b = m.colour_order()
            lines.append(
                {
                    "name": a.name,
                    "player": a,
                    "key": name_search.player_key(a, event.language),
                    "table": m.table,
                    "opponent": b,
                    "points": points.get(a.key, "0"),
                    "m": m,
                    "colour": "w" if event.colours and b else "",
                    "ident": idents.get(a.pk),
                    "opponent_ident": idents.get(b.pk) if b else None,
                }
            )
            if b:
                lines.append(
                    {
                        "name": b.name,
                        "player": b,
                        "key": name_search.player_key(b, event.language),
                        "table": m.table,
                        "opponent": a,
                        "points": points.get(b.key, "0"),
                        "m": m,
                        "colour": "b" if event.colours else "",
                        "ident": idents.get(b.pk),
                        "opponent_ident": idents.get(a.pk),
                    }
                )
        lines.sort(key=lambda x: x["key"])
        return "print/pairings_by_name.html", {"event": event, "round": rnd, "lines": lines}
    template = {"by-table": "print/pairings_by_table.html", "slips": "print/slips.html"}[kind]
    rows = []
    for m in matches:
        first, second = m.colour_order()
        rows.append(
            {
                "m": m,
                "first": first,
                "second": second,
                "pa": points.get(first.key, "0"),
                "pb": points.get(second.key, "0") if second else "",
                "label": result_label(m, event.chess_results),
                "ia": idents.get(first.pk),
                "ib": idents.get(second.pk) if second else None,
            }
        )
    if kind == "slips":
        rows = [r for r in rows if r["m"].player_b_id]
        if event.reporting != Event.Reporting.ORGANISERS:
            for r in rows:  # the table's reporting page, for players who have not opened their own page
                r["qr"] = qr_svg(absolute(reverse("player:table", args=[event.slug, number, r["m"].table])))
    return template, {"event": event, "round": rnd, "rows": rows, "best_of": event.best_of, "slips_range": range(3)}
