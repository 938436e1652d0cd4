"""Printing (pairings by table and by name, match slips, standings) and exports (JSON, CSV)."""

import json

from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

import standings
from swiss import eventfile as ef
from swiss import model, venuefile
from tournament.files import csv_exports
from tournament.models import Event, Job, Player
from tournament.pages.rows import qr_svg
from tournament.pages.standings import standings_tables
from tournament.services.divisions import division_standings
from tournament.services.locks import current_round
from tournament.services.standings import chess_idents, event_standings
from tournament.services.top_cut import final_placings, placings_by_division
from tournament.snapshot import event_to_file, export_file
from tournament.text import l10n, name_search
from tournament.text.results import result_label
from tournament.views.access import HtmxHttpRequest, event_for
from tournament.views.jobs import large_event, offer
from tournament.views.pages import round_or_404


@require_GET
@login_required
def print_round(request: HtmxHttpRequest, slug: str, number: int, kind: str):
    access = event_for(request, slug)
    event = access.event
    rnd = round_or_404(event, number)
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
        return render(request, "print/pairings_by_name.html", {"event": event, "round": rnd, "lines": lines})
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
                r["qr"] = qr_svg(request.build_absolute_uri(reverse("player:table", args=[slug, number, r["m"].table])))
    return render(
        request,
        template,
        {"event": event, "round": rnd, "rows": rows, "best_of": event.best_of, "slips_range": range(3)},
    )


@require_GET
@login_required
def print_standings(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    if access.event.sections.exists():  # each section prints its own: the list of them
        return redirect("org_standings", slug)
    # Printed for the wall: the public rule (standings after the last complete round).
    shown, labels, tables = standings_tables(access.event, live=False)
    return render(
        request,
        "print/standings.html",
        {
            "event": access.event,
            "result": shown.standings,
            "labels": labels,
            "tables": tables,
            "placings": placings_by_division(access.event),
        },
    )


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@login_required
def export_json(request: HtmxHttpRequest, slug: str):
    access = event_for(request, slug)
    if large_event(access.event, Job.Kind.EXPORT):
        return offer(request, access, Job.Kind.EXPORT)
    # An event with sections is a version-2 file with them all; any other event (a section alone too) version 1.
    doc = export_file(access.event)
    data = ef.dump(doc) if isinstance(doc, model.Event) else venuefile.dump(doc)
    return _download(json.dumps(data, ensure_ascii=False, indent=1), f"{slug}.json", "application/json")


@require_GET
@login_required
def export_csv(request: HtmxHttpRequest, slug: str, what: str):
    access = event_for(request, slug)
    event = access.event
    if what == "players":
        return _csv_download(_players_csv(event), f"{slug}-players.csv")
    if what == "standings":
        players = {p.key: p for p in event.players.all()}
        placings = {p.key: place for place, p in final_placings(event) or []}
        result = event_standings(event)
        content = csv_exports.standings_csv(result, players, placings, division_standings(event, result))
        return _csv_download(content, f"{slug}-standings.csv")
    asked = request.GET.get("round", "")
    if asked and not (asked.isdecimal() and len(asked) < 6):
        raise Http404("No such round.")
    current = current_round(event)
    number = int(asked or (current.number if current else 0))
    rnd = round_or_404(event, number)
    before = standings.compute(event_to_file(event, include_drafts=True), after_round=number - 1)
    keys = {p.key: p.pk for p in event.players.all()}
    points = {keys[r.player_id]: standings.format_value("points", r.points) for r in before.rows}
    return _csv_download(
        csv_exports.pairings_csv(rnd, points, event.colours, event.chess_results), f"{slug}-round-{number}-pairings.csv"
    )


def _csv_download(content: str, filename: str) -> HttpResponse:
    """A CSV file says its language: in its name (friday-standings-da.csv) and in Content-Language."""
    language = get_language()
    stem = filename.removesuffix(".csv")
    response = _download(csv_exports.BOM + content, f"{stem}-{language}.csv", "text/csv; charset=utf-8")
    response["Content-Language"] = language
    return response


def _players_csv(event: Event) -> str:
    """The roster; an event with sections exports every section's players with their section (read back by an
    import at the event: docs/sections.md)."""
    if event.is_section:  # a section's own players, with its name in the section column
        return csv_exports.players_csv(
            event.players.select_related("event").order_by("number"), chess=event.colours, root=event.parent
        )
    sections = event.section_list
    if not sections:
        return csv_exports.players_csv(event.players.order_by("number"), chess=event.colours)
    venue = Player.objects.filter(event_id__in=[event.pk, *(s.pk for s in sections)]).select_related("event")
    chess = event.colours or any(s.colours for s in sections)
    return csv_exports.players_csv(venue.order_by("number"), chess=chess, root=event)
