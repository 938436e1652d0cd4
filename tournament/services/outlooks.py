"""What do I need, in the web app (docs/explanations.md#what-do-i-need-in-the-web-app): the outlook of standings/outlook.py for
the round being played, worked out when a round is published and again when its pairing changes, and stored
with it (`RoundOutlook`) for the player's phone and the organiser's page.

The line is the event's own: a Day-2 cut made after this round (its points, or its top N), else the top cut
when this is the last planned Swiss round; an event with neither has no stored outlook (the organiser's page
can still work one out for a place they name). A round with more than IN_REQUEST_UP_TO players is worked out
by the worker (`refresh_task`), as a large pairing is: a 16-player round's exact answer ranks thousands of
combinations.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.db.models import F
from django_tasks import task

from standings import StandingsError
from standings.outlook import Outlook, OutlookRefused, outlook
from swiss.messages import message_of
from swiss.model import parse_fraction
from tournament.models import Event, Match, Round, RoundOutlook
from tournament.services.locks import changed
from tournament.snapshot import event_to_file

IN_REQUEST_UP_TO = 12


@dataclass(frozen=True)
class Line:
    places: int | None = None
    points: Fraction | None = None

    def as_dict(self) -> dict:
        if self.places is not None:
            return {"by": "places", "line": self.places}
        return {"by": "points", "line": str(self.points)}


def default_line(event: Event, rnd: Round) -> Line | None:
    """The line the event draws after `rnd`: its Day-2 cut, or its top cut after the last planned round."""
    if rnd.kind != Round.Kind.SWISS:
        return None
    if event.cut_after == rnd.number:
        if event.cut_points:
            try:
                return Line(points=parse_fraction(event.cut_points))
            except ValueError:
                return None
        if event.cut_top:
            return Line(places=event.cut_top)
    if event.top_cut and event.planned_rounds == rnd.number:
        return Line(places=event.top_cut)
    return None


def work_out(event: Event, line: Line) -> Outlook:
    """The outlook of the event's round being played for `line`; OutlookRefused when there is none to give."""
    file_event = event_to_file(event)
    try:
        return outlook(file_event, places=line.places, points=line.points)
    except StandingsError as e:
        raise OutlookRefused(message_of(e)) from None


def refresh(rnd: Round) -> RoundOutlook | None:
    """Work out and store the outlook of `rnd` for the event's line (none: any stored one is removed)."""
    event = rnd.event
    line = default_line(event, rnd)
    if line is None:
        RoundOutlook.objects.filter(round=rnd).delete()
        return None
    keys = dict(event.players.values_list("key", "pk"))
    try:
        result = work_out(event, line)
        fields = {"line": line.as_dict(), "players": _players(result, keys), "exact": result.exact, "error": None}
    except OutlookRefused as e:
        fields = {"line": line.as_dict(), "players": {}, "exact": True, "error": message_of(e).as_dict()}
    with transaction.atomic():
        stored, _ = RoundOutlook.objects.update_or_create(round=rnd, defaults=fields)
        Round.objects.filter(pk=rnd.pk).update(outlook_revision=F("outlook_revision") + 1)
    changed(event)
    return stored


def _players(result: Outlook, keys: dict[str, int]) -> dict[str, dict]:
    """Each player's claims (as the command's JSON gives them) and sentences, by player pk."""
    by_id = {d["id"]: d for d in result.as_dict()["players"]}
    out = {}
    for p in result.players:
        d = by_id[p.player_id]
        del d["id"]
        d["sentences"] = [s.as_dict() for s in p.sentences(result)]
        out[str(keys[p.player_id])] = d
    return out


def players_in(rnd: Round) -> int:
    return Match.objects.filter(round=rnd).count() * 2


def refresh_soon(rnd: Round) -> None:
    """After the current transaction: the outlook of `rnd` now (a small round) or by the worker."""
    if default_line(rnd.event, rnd) is None and not RoundOutlook.objects.filter(round=rnd).exists():
        return
    if players_in(rnd) <= IN_REQUEST_UP_TO:
        transaction.on_commit(lambda: refresh(Round.objects.select_related("event").get(pk=rnd.pk)))
    else:
        transaction.on_commit(lambda: refresh_task.enqueue(rnd.pk))


@task()
def refresh_task(round_pk: int) -> str:
    """The worker's side of `refresh_soon` for a large round."""
    rnd = Round.objects.select_related("event").filter(pk=round_pk).first()
    if rnd is None:
        return "gone"
    refresh(rnd)
    return "stored"


def sentences_for(rnd: Round | None, player_pk: int) -> list[dict]:
    """The stored sentences for one player of `rnd` (Message dicts), read alone from the round's outlook."""
    if rnd is None or not rnd.outlook_revision:
        return []  # never stored for this round: no query
    row = RoundOutlook.objects.filter(round_id=rnd.pk).values_list(f"players__{player_pk}__sentences", flat=True)
    found = row.first()
    return list(found or [])
