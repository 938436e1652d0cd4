"""What do I need, in the web app (docs/explanations.md#what-do-i-need-in-the-web-app): the outlook of standings/outlook.py for
the round being played, worked out when a round is published and again when its pairing changes, and stored
with it (`RoundOutlook`) for the player's phone and the organiser's page.

The line is the event's own: a Day-2 cut made after this round (its points, or its top N), else the top cut
when this is the last planned Swiss round; an event with neither has no stored outlook (the organiser's page
can still work one out for a place they name). Only a small round with few tables still open is worked out in
the request (`in_request`: at most IN_REQUEST_UP_TO players and REQUEST_WORK combinations of the open tables'
results times players, some 50 ms); any other is worked out by the worker (`refresh_task`), as a large
pairing is: a 16-player round's exact answer ranks thousands of combinations.

Stored with it, for each player at an open table, what each result of their own match gives (`gives`): the
game's FIDE rating change in a chess event with ratings, and in the last planned round of an event with a
prize list, the prizes (standings/prize_outlook.py, from the outlook's own enumeration). Worked out again
whenever a result is stored or corrected in the round or its colours are flipped (every figure read here
depends on them: points, tie-breaks such as BPG and BWG on colours), so the phone's copy is never older than
the round it speaks of; a run of results in a large round asks the worker once (`_PENDING`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django_tasks import task

from standings import StandingsError
from standings.outlook import Outlook, OutlookRefused, outlook
from standings.prize_outlook import prize_outlook
from standings.rating import format_change, has_ratings, result_changes
from swiss import model
from swiss.messages import message_of
from swiss.model import parse_fraction
from tournament.models import Event, Match, Round, RoundOutlook
from tournament.records.prize_lists import PrizeList, prize_list_of
from tournament.services.locks import awaiting_result, changed
from tournament.snapshot import event_to_file

IN_REQUEST_UP_TO = 12
# Combinations of the open tables' results times players: 3 open tables of 8 players. Past it, the outlook and
# the prize claims take more than some 50 ms (bench/result_gives.py): the desk would feel it.
REQUEST_WORK = 3**3 * 8


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


def work_out(event: Event, line: Line, file_event: model.Event | None = None) -> Outlook:
    """The outlook of the event's round being played for `line`; OutlookRefused when there is none to give."""
    file_event = file_event or event_to_file(event)
    try:
        return outlook(file_event, places=line.places, points=line.points)
    except StandingsError as e:
        raise OutlookRefused(message_of(e)) from None


def refresh(rnd: Round) -> RoundOutlook | None:
    """Work out and store the outlook of `rnd` for the event's line and what each result gives (neither: any
    stored one is removed)."""
    cache.delete(_PENDING % rnd.pk)
    event = rnd.event
    line = default_line(event, rnd)
    file_event = event_to_file(event) if rnd.kind == Round.Kind.SWISS else None
    gives = _gives(event, rnd, file_event) if file_event is not None else {}
    if line is None and not gives:
        RoundOutlook.objects.filter(round=rnd).delete()
        return None
    keys = dict(event.players.values_list("key", "pk"))
    fields: dict = {"line": {}, "players": {}, "exact": True, "error": None}
    if line is not None:
        try:
            result = work_out(event, line, file_event)
            fields = {"line": line.as_dict(), "players": _players(result, keys), "exact": result.exact, "error": None}
        except OutlookRefused as e:
            fields = {"line": line.as_dict(), "players": {}, "exact": True, "error": message_of(e).as_dict()}
    for key, d in gives.items():
        fields["players"].setdefault(str(keys[key]), {})["gives"] = d
    with transaction.atomic():
        stored, _ = RoundOutlook.objects.update_or_create(round=rnd, defaults=fields)
        Round.objects.filter(pk=rnd.pk).update(outlook_revision=F("outlook_revision") + 1)
    changed(event)
    return stored


def gives_apply(event: Event, rnd: Round) -> bool:
    """Whether what each result gives is worked out for `rnd`: a Swiss round of a chess event with a rated
    player, or the last planned round of an event with a prize list."""
    if rnd.kind != Round.Kind.SWISS:
        return False
    if event.preset == "chess" and event.players.exclude(rating=None).exclude(rating=0).exists():
        return True
    return event.planned_rounds == rnd.number and PrizeList.objects.filter(event=event).exclude(prizes=[]).exists()


def _gives(event: Event, rnd: Round, doc: model.Event) -> dict[str, dict]:
    """By player key, for each result of their open match: {"rating": "+7.2", "prize": PrizeClaim.as_dict()},
    either left out where it does not apply; with the prize list's currency."""
    if not gives_apply(event, rnd):
        return {}
    out: dict[str, dict] = {}
    if has_ratings(doc):
        for pid, by_outcome in result_changes(doc).items():
            for o, change in by_outcome.items():
                out.setdefault(pid, {}).setdefault(o, {})["rating"] = format_change(change)
    prizes, rules = prize_list_of(event)
    claims = prize_outlook(doc, prizes, rules) if prizes and event.planned_rounds == rnd.number else None
    for pid, by_outcome in (claims or {}).items():
        for o, claim in by_outcome.items():
            out.setdefault(pid, {}).setdefault(o, {})["prize"] = claim.as_dict()
        out[pid]["currency"] = rules.currency
    return out


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


def in_request(rnd: Round) -> bool:
    """Whether the outlook of `rnd` is cheap enough to work out in the request: few players, few tables open."""
    players = players_in(rnd)
    if players > IN_REQUEST_UP_TO:
        return False
    still_open = Match.objects.filter(awaiting_result(), round=rnd, player_b__isnull=False).count()
    return 3**still_open * players <= REQUEST_WORK


# A refresh asked of the worker and not started yet: a run of results in a large round asks once (a mark lost
# with the cache only costs a second refresh; one left by a failed task lapses after PENDING_SECONDS).
_PENDING = "outlook-pending:%s"
PENDING_SECONDS = 120


def refresh_soon(rnd: Round) -> None:
    """After the current transaction: the outlook of `rnd` now (`in_request`) or by the worker."""
    if (
        default_line(rnd.event, rnd) is None
        and not gives_apply(rnd.event, rnd)
        and not RoundOutlook.objects.filter(round=rnd).exists()
    ):
        return
    if in_request(rnd):
        transaction.on_commit(lambda: refresh(Round.objects.select_related("event").get(pk=rnd.pk)))
    elif cache.add(_PENDING % rnd.pk, True, PENDING_SECONDS):
        transaction.on_commit(lambda: refresh_task.enqueue(rnd.pk))


def refresh_played(rnd: Round) -> None:
    """A result stored or corrected, or colours flipped, in `rnd`: its outlook again while it is the round
    being played (a correction of an earlier round changes none of it)."""
    latest = Round.objects.filter(event_id=rnd.event_id).exclude(state=Round.State.DRAFT).order_by("-number").first()
    if latest is not None and latest.pk == rnd.pk and rnd.kind == Round.Kind.SWISS:
        refresh_soon(latest)


@task()
def refresh_task(round_pk: int) -> str:
    """The worker's side of `refresh_soon` for a large round."""
    rnd = Round.objects.select_related("event").filter(pk=round_pk).first()
    if rnd is None:
        return "gone"
    refresh(rnd)
    return "stored"


def stored_for(rnd: Round | None, player_pk: int) -> tuple[list[dict], dict]:
    """The stored sentences (Message dicts) and what each result gives for one player of `rnd`, read alone
    from the round's outlook."""
    if rnd is None or not rnd.outlook_revision:
        return [], {}  # never stored for this round: no query
    row = RoundOutlook.objects.filter(round_id=rnd.pk).values_list(
        f"players__{player_pk}__sentences", f"players__{player_pk}__gives"
    )
    sentences, gives = row.first() or (None, None)
    return list(sentences or []), dict(gives or {})
