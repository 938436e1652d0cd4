"""Why a round is paired as it is, as the pages say it (docs/explanations.md#in-the-web-app): a player's reasons
under their table on their phone, with their whole group behind "more"; both players' reasons per table on the
public pairings; the whole round group by group for the organiser; and the answers to "why not".

Everything here reads what `services.explanations` stored (the engine's reasons, amended by changes by hand) and
words it in the reader's language (`text.engine_text`). A round without a stored explanation shows nothing.
"""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.translation import pgettext

from tournament.models import Event, Player, Round, RoundExplanation
from tournament.pages.memo import cached, event_identity
from tournament.pages.trail import event_changes
from tournament.services.explanations import player_entry
from tournament.text import engine_text

CHOICES = 80  # a round's players offered in a list; more, and the phone types a name


def _local(event: Event, iso: str) -> str:
    at = parse_datetime(iso) if isinstance(iso, str) else None
    if at is None:
        return str(iso)
    zone = zoneinfo.ZoneInfo(event.time_zone) if event.time_zone else timezone.get_default_timezone()
    at = at.astimezone(zone)
    today = dt.datetime.now(zone).date()
    return f"{at:%H:%M}" if at.date() == today else date_format(at, "SHORT_DATETIME_FORMAT")


def said(event: Event, stored: list[dict]) -> list[str]:
    """Stored reasons (Message.as_dict()) in the active language, a change by hand with the venue's time."""
    out = []
    for r in stored:
        if r.get("code") in ("paired_by_hand", "colours_by_hand"):
            params = dict(r.get("params") or {})
            params["time"] = _local(event, params.get("time", ""))
            r = {**r, "params": params}
        out.append(engine_text.sentence(r))
    return out


@dataclass(frozen=True)
class GroupView:
    """One group of the round as a page shows it: its score, its notes (the rule that decided), its players
    (residents, then those who came down into it), its pairs and who went on down, by name; `by_hand` the
    players an organiser moved by hand after the engine paired it (their engine pairs are no longer shown)."""

    score: str
    notes: list[str]
    residents: list[str]
    moved_down: list[str]
    pairs: list[tuple[str, str]]
    floated: list[str]
    bye: str
    by_hand: list[str]


def _group(group: dict, name: dict[int, str]) -> GroupView:
    """A stored group by name; a player deleted since (a late entrant taken out again) is left out."""

    def names(pks) -> list[str]:
        return [name[pk] for pk in pks if pk in name]

    return GroupView(
        score=group["score"],
        notes=[engine_text.sentence(n) for n in group.get("notes", [])],
        residents=names(group["residents"]),
        moved_down=names(group["moved_down"]),
        pairs=[(name[a], name[b]) for a, b in group["pairs"] if a in name and b in name],
        floated=names(group["floated"]),
        bye=name.get(group["bye"], "") if group.get("bye") is not None else "",
        by_hand=names(group.get("by_hand", [])),
    )


def _names(event: Event, pks) -> dict[int, str]:
    return dict(Player.objects.filter(event=event, pk__in=set(pks)).values_list("pk", "name"))


def phone_why(event: Event, rnd: Round | None, player: Player) -> dict | None:
    """The player's own reasons in round `rnd` and their group: {"lines", "group", "choices"}; None for a round
    without them, in the reader's language. Read from the database once per pairing of the round and per change
    made to it by hand (each is on its trail), not once per result coming in: every result is a new event version
    and the phones of a busy round read nothing more for it."""
    if rnd is None or rnd.kind != Round.Kind.SWISS:
        return None

    def read() -> dict:
        entry, group = player_entry(rnd.pk, player.pk)
        if not entry or not entry.get("reasons"):
            return {"reasons": []}
        names = {}
        if group is not None:
            members = [
                *group["residents"],
                *group["moved_down"],
                *(x for p in group["pairs"] for x in p),
                *group.get("by_hand", []),
            ]
            names = _names(event, members)
        return {"reasons": entry["reasons"], "group": group, "names": names, "choices": why_not_choices(rnd, player)}

    # A re-pairing makes a new round (its creation time keeps a reused primary key apart); a swap or a flip of a
    # published round adds to its trail, read once per event version for every phone (pages/trail.py).
    made = f"{rnd.pk}.{int(rnd.created_at.timestamp() * 1_000_000)}"
    edits = sum(c.round_number == rnd.number for c in event_changes(event))
    raw = cached(f"why-phone:{event_identity(event)}:{made}:{edits}:{player.pk}", read)
    if not raw["reasons"]:
        return None
    view = _group(raw["group"], raw["names"]) if raw["group"] is not None else None
    return {"lines": said(event, raw["reasons"]), "group": view, "choices": raw["choices"]}


# The params of a "why not" answer that hold a player's id (pairing.explain.why_not): the two players asked
# about, and which of them holds the bye or is not in the round; and those holding pairs of ids ("p2-p4, p3-p5",
# the Dutch order's pairs of a bracket).
WHO = ("a", "b", "player")
PAIRS = ("this_round", "with_pair")


def _pairs_named(text: str, names: dict[str, str]) -> str:
    """ "p2-p4, p3-p5" as "Ann – Bob, Cid – Dan": each pair split at the hyphen that leaves an id on both sides
    (an imported id may hold a hyphen); a pair it cannot read stays as it is."""
    out = []
    for pair in text.split(", "):
        cuts = [i for i, c in enumerate(pair) if c == "-" and pair[:i] in names and pair[i + 1 :] in names]
        out.append(f"{names[pair[: cuts[0]]]} – {names[pair[cuts[0] + 1 :]]}" if len(cuts) == 1 else pair)
    return pgettext("list separator", ", ").join(out)


def why_not_said(answer: dict, rnd: Round, a: Player, b: Player) -> str:
    """A "why not" answer (`services.explanations.answer`) about round `rnd` as a sentence in the active language,
    naming the players by their names: the engine names them by id (the command line's ids, the app's keys)."""
    params = dict(answer.get("params") or {})
    names = {a.key: a.name, b.key: b.name}
    if any(isinstance(params.get(k), str) for k in PAIRS):
        names |= dict(Player.objects.filter(seats__round=rnd).values_list("key", "name"))
    for k in WHO:
        if isinstance(params.get(k), str):
            params[k] = names.get(params[k], params[k])
    for k in PAIRS:
        if isinstance(params.get(k), str):
            params[k] = _pairs_named(params[k], names)
    return engine_text.sentence({**answer, "params": params})


def why_not_choices(rnd: Round, player: Player | None = None) -> list[tuple[int, str]] | None:
    """The players of round `rnd` to ask "why not" about, by name (`player` left out); None past CHOICES players,
    where a phone types a name instead."""
    seated = Player.objects.filter(seats__round=rnd)
    if player is not None:
        seated = seated.exclude(pk=player.pk)
    rows = list(seated.order_by("name", "pk").values_list("pk", "name")[: CHOICES + 1])
    return rows if len(rows) <= CHOICES else None


def all_reasons(event: Event, rnd: Round) -> dict[int, list[str]]:
    """Every player's reasons in round `rnd`, by pk, in the active language (empty for a round without them)."""
    stored = RoundExplanation.objects.filter(round=rnd).values_list("players", flat=True).first()
    if not stored:
        return {}
    return {int(pk): said(event, entry.get("reasons", [])) for pk, entry in stored.items()}


@dataclass(frozen=True)
class RoundLog:
    """The organiser's view of a round's explanation: its groups from the top, and the changes made by hand."""

    groups: list[GroupView]
    by_hand: list[tuple[str, str]]  # one per change by hand: what and when, the players' names
    dutch: bool


def round_log(event: Event, rnd: Round) -> RoundLog | None:
    """The whole round group by group, for the organiser; None for a round without an explanation."""
    ex = RoundExplanation.objects.filter(round=rnd).first()
    if ex is None:
        return None
    name = dict(event.players.values_list("pk", "name"))
    changes = []
    for change in ex.by_hand:
        who = pgettext("list separator", ", ").join(name[pk] for pk in change["players"] if pk in name)
        code = "colours_by_hand" if change["kind"] == "flip" else "paired_by_hand"
        (text,) = said(event, [{"code": code, "params": {"time": change["at"]}, "text": ""}])
        changes.append((text, who))
    return RoundLog([_group(g, name) for g in ex.groups], changes, ex.method == "dutch")
