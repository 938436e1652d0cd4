"""What the organiser's registration pages show: the roster (an event's, or a venue's with every section's players),
and a player's matches on their own page (views/players.py answers the request)."""

from dataclasses import dataclass

from django.db.models import Q

from tournament.forms.sections import PlaceForm
from tournament.jobs import workflow as jobs
from tournament.models import Event, Job, Match, Player
from tournament.pages.jobs import job_context
from tournament.services.roster import paired_players
from tournament.services.rounds import recommended_rounds
from tournament.text import name_search, names
from tournament.text.results import result_label


def roster_context(event: Event) -> dict:
    """The roster page: its players (alphabetical by reading when a player has one), who shares a name, who is
    paired, the recommended number of rounds, and a large import the worker is storing."""
    sections = [] if event.is_section else event.section_list
    if sections:
        return venue_roster_context(event, sections)
    # Alphabetical by reading when a player has one (a kanji name sorts as it is read).
    players = sorted(event.players.all(), key=lambda p: (name_search.player_key(p, event.language), p.pk))
    same_name = {}
    for p in players:
        same_name.setdefault(names.fold(p.name), []).append(p)
    active = [p for p in players if p.is_active]
    return {
        "players": players,
        "born": any(p.birth_date for p in players),
        "divisions": any(p.division for p in players),
        "duplicates": {p.pk for group in same_name.values() if len(group) > 1 for p in group},
        "active_count": len(active),
        "paired": paired_players(event),
        "recommendation": recommended_rounds(event, active),
        **job_context(jobs.shown(event, kind=Job.Kind.PLAYERS)),  # a large import the worker is storing
    }


def venue_roster_context(event: Event, sections: list[Event]) -> dict:
    """An event with sections registers its players once: every section's players, with their section, and
    those waiting on the event, unplaced (docs/sections.md)."""
    players = sorted(
        Player.objects.filter(event_id__in=[event.pk, *(s.pk for s in sections)]).select_related("event"),
        key=lambda p: (name_search.player_key(p, event.language), p.pk),
    )
    same_name = {}
    for p in players:
        same_name.setdefault(names.fold(p.name), []).append(p)
    return {
        "players": players,
        "born": any(p.birth_date for p in players),
        "sections": sections,
        "unplaced": sum(1 for p in players if p.event_id == event.pk and p.is_active),
        "duplicates": {p.pk for group in same_name.values() if len(group) > 1 for p in group},
        "active_count": sum(1 for p in players if p.is_active),
        "paired": set().union(*(paired_players(s) for s in sections)),
        "recommendation": None,
        "place_form": PlaceForm(sections=sections),
    }


@dataclass(frozen=True)
class HistoryLine:
    """One of a player's matches on their page: the round, the table, the players in colour order, the result."""

    round_number: int
    table: int | None
    first: Player
    second: Player | None
    label: str


def history_lines(event: Event, player: Player) -> list[HistoryLine]:
    """The player's matches, by round."""
    matches = (
        Match.objects.filter(Q(player_a=player) | Q(player_b=player))
        .select_related("round", "player_a", "player_b")
        .order_by("round__number")
    )
    return [
        HistoryLine(m.round.number, m.table, *m.colour_order(), result_label(m, event.chess_results)) for m in matches
    ]
