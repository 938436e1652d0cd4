"""Why a round is paired as it is, in the web app (docs/explanations.md#in-the-web-app): the engine's explanation
(pairing.explain) stored with the round when it is paired, amended when the organiser changes the round by hand,
and "why not X" answered about a round as it stands.

Stored reasons are only ever the engine's for a pair the engine made: a swap replaces the reasons of the players
it moved by "paired by the organiser by hand" (with the time; the trail of changes has the details), a flip their
colour reasons by "colours flipped by hand"; the groups keep the engine's pairs that still stand and name the
players changed by hand. A round paired before explanations were stored has none, and the pages show nothing.
"""

import hashlib
import json
import logging
from collections import OrderedDict
from datetime import timedelta

from django.core.cache import cache
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from pairing import PairingError, from_event
from pairing.dutch import DutchInput
from pairing.explain import explain, why_not
from pairing.types import Pair, Pairing, PairingInput
from swiss.messages import Message, message_of
from tournament.models import Match, Player, Round, RoundExplanation
from tournament.services import budgets
from tournament.services.locks import ServiceError
from tournament.services.sections import first_table, fixed_tables_within
from tournament.snapshot import event_to_file
from tournament.text import engine_text

logger = logging.getLogger(__name__)
SWAP, FLIP = "swap", "flip"
# The answers to "why not" computed for one player and for one event's phones (cached answers cost nothing).
PLAYER_BUDGET: budgets.Budget = ("why-not-player", 12, timedelta(seconds=10))
# An uncached answer is about one pairing of the round by its engine (up to half a second of CPU at 500 players):
# an event's phones together may take a quarter of a core at most, once their first burst is spent.
EVENT_BUDGET: budgets.Budget = ("why-not-event", 30, timedelta(seconds=2))
ANSWER_SECONDS = 6 * 3600
# The engine's input of a round, kept from its pairing: rebuilt from the event it costs seconds at 500 players
# (every earlier round read and replayed), which "why not" must not pay per question. The input of a round is the
# one it was paired from: a later correction of an earlier round does not change why it was paired so.
INPUT_SECONDS = 24 * 3600
KEPT_INPUTS = 4  # rounds' inputs kept in this process as objects (a round is asked about in bursts)
_kept: OrderedDict = OrderedDict()


def store(
    rnd: Round,
    inp: PairingInput | DutchInput,
    result: Pairing,
    players: list[Player],
    asked: dict[str, str] | None = None,
) -> RoundExplanation | None:
    """Explain the engine's pairing `result` of `inp` and keep it with `rnd`, by player pk; asked: the byes asked
    for the round by player key (pairing.requested_byes), whose players get that reason. An explanation that
    fails is logged and left out (the pages then show no reasons): it never stops a round being paired."""
    pk = {p.key: p.pk for p in players}
    try:
        ex = explain(inp, result, names={p.key: p.name for p in players}, asked=asked)
    except (ValueError, KeyError, PairingError):
        logger.exception("round %s of event %s: the pairing could not be explained", rnd.number, rnd.event_id)
        return None
    own = {}
    groups = []
    for k, g in enumerate(ex.groups):
        d = g.as_dict()
        for field in ("residents", "moved_down", "floated"):
            d[field] = [pk[i] for i in d[field]]
        d["pairs"] = [[pk[x], pk[y]] for x, y in d["pairs"]]
        d["bye"] = pk[d["bye"]] if d["bye"] is not None else None
        own.update(dict.fromkeys(d["residents"], k))
        groups.append(d)
    stored = {
        str(pk[pid]): {"reasons": [m.as_dict() for m in reasons], "group": own.get(pk[pid])}
        for pid, reasons in ex.players.items()
    }
    cache.set(_input_key(rnd.pk), inp, INPUT_SECONDS)  # "why not" starts from it (engine_round)
    return RoundExplanation.objects.create(round=rnd, method=result.method, players=stored, groups=groups)


def _hand_message(kind: str, at: str) -> dict:
    if kind == FLIP:
        return Message("colours_by_hand", "Colours flipped by the organiser by hand ({time}).", time=at).as_dict()
    return Message("paired_by_hand", "Paired by the organiser by hand ({time}).", time=at).as_dict()


def by_hand(rnd: Round, kind: str, player_pks: list[int]) -> None:
    """The organiser changed the pairing of these players by hand (a swap moved them, a flip gave them the other
    colour): their engine reasons no longer hold. Call it inside the change's transaction, the round locked."""
    ex = RoundExplanation.objects.filter(round=rnd).first()
    if ex is None:
        return
    at = timezone.now().isoformat()
    moved = set(player_pks)
    for pk in player_pks:
        entry = ex.players.get(str(pk), {"reasons": [], "group": None})
        if kind == FLIP:
            kept = [r for r in entry["reasons"] if r.get("code") not in ("colour", "colours_by_hand", "colour_repeat")]
            entry["reasons"] = [*kept, _hand_message(FLIP, at)]
        else:
            entry = {"reasons": [_hand_message(SWAP, at)], "group": None}
        ex.players[str(pk)] = entry
    if kind == SWAP:
        for g in ex.groups:
            touched = moved & {*g["residents"], *g["moved_down"], *(g["bye"],)}
            if touched or any(moved & set(p) for p in g["pairs"]):
                g["pairs"] = [p for p in g["pairs"] if not moved & set(p)]
                g["by_hand"] = sorted(
                    {*g.get("by_hand", []), *touched, *(x for p in g["pairs"] for x in p if x in moved)}
                )
    ex.by_hand = [*ex.by_hand, {"kind": kind, "players": sorted(moved), "at": at}]
    ex.revision += 1
    ex.save(update_fields=["players", "groups", "by_hand", "revision"])


def _json_at(round_id: int, column: str, key: str | int):
    """One value inside a JSON column of the round's explanation, read alone: an object's member by its key (a
    string), or a list's item by its index. Django's key lookups take a key of digits for a list index."""
    table = RoundExplanation._meta.db_table
    if connection.vendor == "postgresql":
        sql = f"SELECT {column} -> %s FROM {table} WHERE round_id = %s"  # noqa: S608 (names from the model)
        arg: str | int = key
    else:
        sql = f"SELECT json_extract({column}, %s) FROM {table} WHERE round_id = %s"  # noqa: S608
        arg = f"$[{key}]" if isinstance(key, int) else f'$."{key}"'
    with connection.cursor() as cursor:
        cursor.execute(sql, [arg, round_id])
        row = cursor.fetchone()
    value = row[0] if row else None
    return json.loads(value) if isinstance(value, str | bytes) else value


def player_entry(round_id: int, player_pk: int) -> tuple[dict | None, dict | None]:
    """One player's stored reasons and their group, read alone from the round's explanation (a megabyte for 2,048
    players is never read whole for one phone): ({"reasons", "group"}, the group's dict), None where the round
    has none for them."""
    entry = _json_at(round_id, "players", str(player_pk))
    if not isinstance(entry, dict):
        return None, None
    if entry.get("group") is None:
        return entry, None
    group = _json_at(round_id, "groups", int(entry["group"]))
    return entry, group if isinstance(group, dict) else None


# ---------------------------------------------------------------- why not


def engine_round(rnd: Round) -> tuple[PairingInput | DutchInput, Pairing]:
    """The engine's input for round `rnd` (kept from its pairing, or rebuilt from the event with its rounds from
    `rnd` on ignored, as when it was paired), and the round's pairing as it stands (swaps and flips included; White first in a chess round)."""
    event = rnd.event
    inp = _kept.get(rnd.pk) or cache.get(_input_key(rnd.pk))
    if inp is None:
        file_event = fixed_tables_within(event_to_file(event), first_table(event))
        inp = from_event(file_event, rnd.number, seed=rnd.seed or 0)
        cache.set(_input_key(rnd.pk), inp, INPUT_SECONDS)
    # The same object for the next question in this process: read from the cache once, not for every question.
    _kept[rnd.pk] = inp
    _kept.move_to_end(rnd.pk)
    while len(_kept) > KEPT_INPUTS:
        _kept.popitem(last=False)
    awarded = inp.awarded_byes if isinstance(inp, DutchInput) else tuple(e.id for e in inp.awarded_byes)
    pairs, byes = [], []
    first = first_table(event)
    for m in rnd.matches.select_related("player_a", "player_b").order_by("table", "pk"):
        if m.player_b_id is not None:
            white, black = m.colour_order()
            pairs.append(Pair((m.table or 1) - first + 1, white.key, black.key))
        elif m.result == Match.Result.BYE:
            byes.append(m.player_a.key)
    computed = [b for b in byes if b not in awarded]
    method = "dutch" if isinstance(inp, DutchInput) else inp.method
    result = Pairing(
        round=rnd.number,
        seed=rnd.seed or 0,
        pairs=tuple(pairs),
        byes=(*computed, *(b for b in byes if b in awarded)),
        awarded_byes=tuple(b for b in byes if b in awarded),
        method=method,
    )
    return inp, result


def _input_key(round_id: int) -> str:
    return f"why-not-input:{round_id}"


def _answer_key(rnd: Round, revision: int, a: int, b: int) -> str:
    return "why-not:" + hashlib.blake2b(f"{rnd.pk}:{revision}:{a}:{b}".encode(), digest_size=12).hexdigest()


def _refusal(seconds: int) -> str:
    return ngettext(
        "Too many questions at once: ask again in %(seconds)s second.",
        "Too many questions at once: ask again in %(seconds)s seconds.",
        seconds,
    ) % {"seconds": seconds}


def answer(rnd: Round, a: Player, b: Player, *, asker: Player | None = None) -> dict:
    """Why `a` and `b` are not paired together in `rnd` as it stands: the answer of pairing.explain.why_not as
    `Message.as_dict()`, cached per (round, its changes by hand, a, b). `asker`: the player asking from their
    phone, whose questions (and their event's) are budgeted when not cached; the organiser's are not.
    ServiceError when the round cannot be explained (a top-cut round, players not of the round's event)."""
    if rnd.kind != Round.Kind.SWISS:
        raise ServiceError(gettext("Top-cut rounds follow the bracket: there is no “why not” to ask."))
    if a.pk == b.pk:
        raise ServiceError(gettext("Choose two different players."))
    if a.event_id != rnd.event_id or b.event_id != rnd.event_id:
        raise ServiceError(gettext("Both players must be in this event."))
    revision = RoundExplanation.objects.filter(round=rnd).values_list("revision", flat=True).first() or 0
    key = _answer_key(rnd, revision, a.pk, b.pk)
    found = cache.get(key)
    if found is None:
        if asker is not None:
            budgets.take(
                [
                    (f"{PLAYER_BUDGET[0]}:{asker.pk}", *PLAYER_BUDGET[1:]),
                    (f"{EVENT_BUDGET[0]}:{rnd.event_id}", *EVENT_BUDGET[1:]),
                ],
                _refusal,
            )
        try:
            inp, result = engine_round(rnd)
            found = why_not(inp, result, a.key, b.key).as_dict()
        except (PairingError, ValueError) as e:
            raise ServiceError(engine_text.sentence(message_of(e))) from None
        cache.set(key, found, ANSWER_SECONDS)
    return found
