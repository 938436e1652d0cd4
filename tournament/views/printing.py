"""Printing (pairings by table and by name, match slips, standings) and exports (JSON, CSV)."""

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

import standings
from swiss import eventfile as ef
from swiss import model, venuefile
from tournament.files import csv_exports
from tournament.models import Event, Job, Player
from tournament.pages.printing import round_print
from tournament.pages.standings import standings_tables
from tournament.services.divisions import division_standings
from tournament.services.locks import current_round
from tournament.services.standings import event_standings, tiebreak_rules
from tournament.services.top_cut import final_placings, placings_by_division
from tournament.snapshot import event_to_file, export_file
from tournament.views.access import HtmxHttpRequest, event_for
from tournament.views.jobs import large_event, offer
from tournament.views.responses import round_or_404


@require_GET
@login_required
def print_round(request: HtmxHttpRequest, slug: str, number: int, kind: str):
    access = event_for(request, slug)
    rnd = round_or_404(access.event, number)
    template, context = round_print(access.event, rnd, kind, request.build_absolute_uri)
    return render(request, template, context)


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
            "tiebreak_rules": tiebreak_rules(access.event),
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
