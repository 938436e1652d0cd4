"""Players report their own results from their phones (docs/features.md).

A player is known by the secret of their personal link or by their short code (`Player.token`,
`Player.code`). During the current published round they send a `Report` of their match; what happens
next is the event's rule (`Event.reporting`):

- organisers: players cannot report (the default; the desk enters every result);
- confirm: the opponent confirms (or reports the same result themselves) and the result is stored;
  a different report or "That's not right" makes the match disputed, for a judge to settle;
- alone: one report stores the result, unless it is a double loss: that costs the opponent a match they
  may think they won, so it waits for the opponent's agreeing report (or a judge) as in "confirm".

Storing always goes through `services.record_result`, the one validating, audited path the organiser's
desk uses; the match row is locked first, so double taps, two players at once and a judge entering
the result meanwhile end in exactly one stored result.
"""

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.infra.fast.rows import Joined, single
from tournament.models import (
    Event,
    Match,
    Player,
    Report,
    Round,
    new_code,
    new_token,
)
from tournament.services.adjourned import result_warnings
from tournament.services.locks import ServiceError, changed, current_round, lock_event, log, shared_round
from tournament.services.results import Outcome, after_result, store_result, validate_result
from tournament.services.roster import drop_player
from tournament.text import game_words
from tournament.text.results import CHESS_RESULTS, result_label

EMPTY, WAITING, DISPUTED, STORED = "empty", "waiting", "disputed", "stored"
# The players agree, yet the result is the arbiter's to enter: a FIDE-mode warning stands before it (an adjourned
# game's result other than a draw), which only the desk may pass. Their reports are kept for the desk to read.
ARBITER = "arbiter"


def reissue(player: Player, by) -> Player:
    """A new link and code for a lost or shared phone: the old ones stop working at once."""
    with transaction.atomic():
        taken = set(player.event.players.exclude(pk=player.pk).values_list("code", flat=True))
        code = new_code()
        while code in taken or code == player.code:
            code = new_code()
        player.token, player.code = new_token(), code
        player.save(update_fields=["token", "code"])
        log(player.event, "reissue_link", by, player=player.key)
    return player


# ---------------------------------------------------------------- the organiser's switches


def set_mode(event: Event, mode: str, by) -> None:
    if mode not in Event.Reporting.values:
        raise ServiceError(_("Pick how results are entered."))
    if mode == event.reporting:
        return
    was = event.reporting
    Event.objects.filter(pk=event.pk).update(reporting=mode)
    event.reporting = mode
    log(event, "reporting", by, mode=mode, was=was)
    changed(event)


def close_reporting(rnd: Round, closed: bool, by) -> None:
    if rnd.reporting_closed == closed:
        return
    rnd.reporting_closed = closed
    rnd.save(update_fields=["reporting_closed"])
    log(rnd.event, "close_reporting" if closed else "open_reporting", by, round=rnd.number)
    changed(rnd.event)


# ---------------------------------------------------------------- reports


def told(games: tuple[int, int, int] | None, result: str, match: Match, chess: bool = False) -> str:
    """A result as players say it: "2-1 for Anna", "1-1, a draw", "double loss"; `chess`: one game as chess
    writes it, White's first ("0-1 for Bo", "½-½, a draw")."""
    if result == Match.Result.DOUBLE_LOSS:
        return _("double loss")
    if result == Match.Result.FORFEIT:
        return _("%(name)s won by forfeit") % {"name": match.player_a.name}  # the winner is player A
    if games is None:
        return ""
    a, b, d = games
    drawn = f"-{d}" if d else ""
    chess_score = CHESS_RESULTS.get(games) if chess else None
    if a == b:
        return game_words.gettext("%(score)s, a draw") % {"score": chess_score or f"{a}-{b}{drawn}"}
    winner = match.player_a if a > b else match.player_b
    return _("%(score)s for %(name)s") % {
        "score": chess_score or f"{max(a, b)}-{min(a, b)}{drawn}",
        "name": winner.name,
    }


@dataclass(frozen=True)
class Sent:
    state: str  # WAITING, DISPUTED, ARBITER or STORED
    match: Match
    # The reports on the match by player, as they stood when this one was taken (under the match's lock), of
    # who plays it; None when not read.
    reports: dict[int, Report] | None = None


@dataclass(frozen=True)
class Shown:
    """The player's match as their page read it a moment ago, without a lock: with its round (the one being
    played then) and the reports on it by player. What a report on it starts from; the locked read decides."""

    match: Match
    reports: dict[int, Report]


def status(match: Match, reports: list[Report]) -> str:
    """Where a match stands: stored, disputed (reports differ or one disputes), agreed but the arbiter's to enter
    (`ARBITER`: agreeing reports store the result at once unless a warning stands before it), waiting for the
    opponent, empty.

    Only the reports of the players who play it now count (`locks.discard_reports` removes the others when the
    pairing changes; this holds whatever path changed it)."""
    if match.has_result:
        return STORED
    reports = [r for r in reports if r.player_id in (match.player_a_id, match.player_b_id)]
    if any(r.disputes for r in reports) or (len(reports) == 2 and not reports[0].agrees_with(reports[1])):
        return DISPUTED
    if len(reports) == 2:
        return ARBITER
    return WAITING if reports else EMPTY


def opponent_of(match: Match, player: Player) -> int | None:
    """The id of who plays `player` in `match` now: only their report counts against the player's."""
    return match.player_b_id if match.player_a_id == player.pk else match.player_a_id


def refusal(
    event: Event, rnd: Round, match: Match | None, player: Player, stored_ok: bool = False, current: Round | None = None
) -> str | None:
    """Why this player cannot report this match now, or None when they can.

    `stored_ok`: the report is the result already stored (a double tap), which is no reason to refuse.
    `current`: the round being played, when the caller has just read it.
    """
    if match is None or player.pk not in (match.player_a_id, match.player_b_id) or rnd.event_id != event.pk:
        return game_words.gettext("That is not your match.")
    current = current or current_round(event)
    if current is None or current.pk != rnd.pk:
        return game_words.gettext("Round %(number)s is not the round being played: report only this round's match.") % {
            "number": rnd.number
        }
    if event.reporting == Event.Reporting.ORGANISERS:
        return _("At this event the judges enter the results: hand in your match slip.")
    if match.player_b_id is None:
        return game_words.gettext("A bye has no result to report.")
    if match.has_result and stored_ok:
        return None
    if match.has_result:
        return _("Table %(table)s already has a result (%(result)s); only a judge can change it.") % {
            "table": match.table,
            "result": result_label(match, event.chess_results),
        }
    if rnd.state == Round.State.COMPLETE:
        return _("Round %(number)s is finished.") % {"number": rnd.number}
    if rnd.reporting_closed:
        return _("Reporting is closed for round %(number)s: tell a judge your result.") % {"number": rnd.number}
    return None


# The match locked with its round and players, in one statement: what a report reads under the lock. The round
# and the players come as first read (after waiting for the lock PostgreSQL reads the locked row again, not the
# joined ones), as the ORM's `select_related` gave them; the ORM compiled that query anew for every report, at
# several times the cost of answering it. Then every report on the match, as it stands under the lock.
_LOCKED = Joined(("m", Match), ("r", Round), ("a", Player), ("b", Player))
_ON_MATCH = Joined(("x", Report))


def _locked_sql() -> str:
    lock = " FOR UPDATE OF m" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {_LOCKED.select} FROM {Match._meta.db_table} m "  # noqa: S608 (names from the models)
        f"JOIN {Round._meta.db_table} r ON r.id = m.round_id JOIN {Player._meta.db_table} a ON a.id = m.player_a_id "
        f"LEFT JOIN {Player._meta.db_table} b ON b.id = m.player_b_id WHERE m.id = %s AND m.round_id = %s{lock}"
    )


def _locked_match(
    player: Player, match_id: int, with_round: bool = False, round_id: int | None = None
) -> tuple[Event, Match | None]:
    """The match row locked; `with_round`: its round's row locked first, as a result is stored (event, round,
    match). Only a report that stores the result needs the round: the others wait for no other table.
    `round_id`: the match's round, when the caller has read the match (a match never changes rounds)."""
    # The phone's request read the event with the player a moment ago (no lock either way): not again.
    event = player.event if Player.event.is_cached(player) else Event.objects.get(pk=player.event_id)
    if round_id is None:
        round_id = single(Match.objects.filter(pk=match_id).values_list("round_id", flat=True))
    if round_id is None or (with_round and shared_round(round_id) is None):
        return event, None
    row = _LOCKED.one(_locked_sql(), [match_id, round_id])
    if row is None:
        return event, None
    match, match.round, match.player_a, match.player_b = row
    if match.round.event_id == event.pk:
        match.round.event = event  # read just above: the checks below need it, not another query
    return event, match


def _on_match(match: Match) -> list[Report]:
    """Every report on `match` (under its lock), in the order they were sent."""
    sql = f"SELECT {_ON_MATCH.select} FROM {Report._meta.db_table} x WHERE x.match_id = %s ORDER BY x.at, x.id"  # noqa: S608
    return [report for (report,) in _ON_MATCH.rows(sql, [match.pk])]


class _RoundNeeded(Exception):
    """The report stores the result after all (the opponent's agreeing report came in meanwhile): start again
    holding the round, as a stored result must."""


def stores_alone(event: Event, outcome: Outcome) -> bool:
    """Whether one player's report stores the result by itself: in "alone" mode, any result but a double
    loss, which takes the match from the opponent too and so needs their word or a judge's."""
    return event.reporting == Event.Reporting.ALONE and outcome.result != Match.Result.DOUBLE_LOSS


def submit(
    player: Player,
    match_id: int,
    outcome: Outcome,
    address: str | None = None,
    seen: int | None = None,
    shown: Shown | None = None,
) -> Sent:
    """The player's report of their match (a new one, a changed one, or the same as the opponent's).

    Refused with a `ServiceError` (and nothing changed) when it is not theirs to report now or the
    result is not valid (the desk's own validation and messages). A report that stores the result holds
    the round's row, as the desk's entry does, and bumps the event's version after its commit
    (`services.after_result`); one that waits for the opponent holds only its match.
    `seen`: a confirmation's `Match.report_stamp` as the player's page showed it; refused when the reports
    changed since (the opponent changed theirs, or the pairing changed and took them away).
    `shown`: this match as the player's page read it a moment ago: its round is the one being played and its
    reports say whether this one stores the result, so neither is read again before the lock (which decides:
    a report that finds under it that it stores the result after all starts again holding the round).
    """
    if shown is not None and shown.match.pk != match_id:
        shown = None
    if stores_alone(player.event, outcome):
        stores = True
    elif shown is not None:
        theirs = shown.reports.get(opponent_of(shown.match, player))
        stores = theirs is not None and _report(match_id, player, outcome, address).agrees_with(theirs)
    else:
        stores = (
            Report.objects.filter(match_id=match_id, disputes=False, result=outcome.result)
            .exclude(player=player)
            .filter(games_a=_games(outcome, 0), games_b=_games(outcome, 1), games_drawn=_games(outcome, 2))
            .exists()
        )
    try:
        return _submit(player, match_id, outcome, address, stores, seen, shown)
    except _RoundNeeded:
        return _submit(player, match_id, outcome, address, True, seen, shown)


def _games(outcome: Outcome, side: int) -> int | None:
    return outcome.games[side] if outcome.games else None


def _report(match_id: int, player: Player, outcome: Outcome, address: str | None) -> Report:
    return Report(
        match_id=match_id,
        player=player,
        result=outcome.result,
        games_a=_games(outcome, 0),
        games_b=_games(outcome, 1),
        games_drawn=_games(outcome, 2),
        disputes=False,
        address=address,
        at=timezone.now(),
    )


def _submit(
    player: Player,
    match_id: int,
    outcome: Outcome,
    address: str | None,
    with_round: bool,
    seen: int | None,
    shown: Shown | None,
) -> Sent:
    with transaction.atomic():
        event, m = _locked_match(player, match_id, with_round, shown.match.round_id if shown else None)
        # A double tap, or the opponent's report stored this very result a moment ago.
        same = m is not None and m.has_result and (m.result, m.games) == (outcome.result, outcome.games)
        current = shown.match.round if shown else None
        problem = (
            refusal(event, m.round, m, player, same, current)
            if m is not None
            else game_words.gettext("That is not your match.")
        )
        if problem:
            raise ServiceError(problem)
        if same:
            return Sent(STORED, m)
        if seen is not None and seen != m.report_stamp:
            raise ServiceError(
                game_words.gettext(
                    "The report on your match changed since your page was shown: read it again before you confirm."
                )
            )
        validate_result(m, outcome)  # the desk's validation, same messages
        on_match = _on_match(m)
        other = next((r for r in on_match if r.player_id == opponent_of(m, player)), None)  # one per player
        mine = _report(m.pk, player, outcome, address)
        stores = stores_alone(event, outcome) or (other is not None and mine.agrees_with(other))
        # A result a FIDE-mode warning stands before is the arbiter's: the desk asks it, a phone cannot pass it.
        arbiter = stores and bool(result_warnings(m, outcome.games, outcome.result))
        stores = stores and not arbiter
        if stores and not with_round:
            raise _RoundNeeded
        _put(mine, m)
        now = sorted([r for r in on_match if r.player_id != player.pk] + [mine], key=lambda r: (r.at, r.pk))
        stored = None
        if stores:
            stored = store_result(m, outcome, None, reporter=player, address=address, held=True, reports=now)
    playing = {r.player_id: r for r in now if r.player_id in (m.player_a_id, m.player_b_id)}
    if stored is not None:
        return Sent(STORED, after_result(*stored, None), playing)
    if arbiter:
        return Sent(ARBITER, m, playing)
    return Sent(DISPUTED if other is not None else WAITING, m, playing)


_REPORTED = ("result", "games_a", "games_b", "games_drawn", "disputes", "address", "at")


def _put_sql() -> str:
    """On PostgreSQL `_put` is one statement: the report written, the stamp moved, the report's id returned."""
    fields = [Report._meta.get_field(name) for name in ("match", "player", *_REPORTED)]
    columns = ", ".join(f.column for f in fields)
    updates = ", ".join(f"{f.column} = EXCLUDED.{f.column}" for f in fields[2:])
    return (
        f"WITH put AS (INSERT INTO {Report._meta.db_table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))}) "  # noqa: S608
        f"ON CONFLICT (match_id, player_id) DO UPDATE SET {updates} RETURNING id) "
        f"UPDATE {Match._meta.db_table} SET report_stamp = report_stamp + 1 WHERE id = %s "
        "RETURNING report_stamp, (SELECT id FROM put)"
    )


def _put(report: Report, match: Match) -> None:
    """The player's report on `match`, new or replacing theirs: one INSERT ... ON CONFLICT (a fast path:
    tournament/infra/fast/; under the match
    lock; the report gets the id of the row it wrote). The match's stamp counts it, so both players' pages
    change, and a stamp of 0 means no report."""
    if connection.vendor == "postgresql":
        fields = [Report._meta.get_field(name) for name in ("match", "player", *_REPORTED)]
        values = [f.get_db_prep_save(getattr(report, f.attname), connection) for f in fields]
        with connection.cursor() as cursor:
            cursor.execute(_put_sql(), [*values, match.pk])
            match.report_stamp, report.pk = cursor.fetchone()
        report._state.adding, report._state.db = False, connection.alias
        return
    Report.objects.bulk_create(
        [report], update_conflicts=True, unique_fields=["match", "player"], update_fields=list(_REPORTED)
    )
    Match.objects.filter(pk=match.pk).update(report_stamp=F("report_stamp") + 1)
    match.report_stamp += 1


def dispute(player: Player, match_id: int, address: str | None = None) -> Sent:
    """ "That's not right": the opponent's report is contested; a judge settles the match."""
    with transaction.atomic():
        event, m = _locked_match(player, match_id)
        problem = refusal(event, m.round, m, player) if m is not None else game_words.gettext("That is not your match.")
        if problem:
            raise ServiceError(problem)
        if not m.reports.filter(player_id=opponent_of(m, player)).exists():
            raise ServiceError(_("Your opponent has not reported anything yet: report your result instead."))
        _put(Report(match=m, player=player, disputes=True, address=address, at=timezone.now()), m)
        log(event, "dispute", None, round=m.round.number, table=m.table, player=player.key)
    return Sent(DISPUTED, m)


def request_drop(player: Player, address: str | None = None) -> None:
    """ "Drop me after this round", from the player's own page: the organiser's drop, logged as asked."""
    with transaction.atomic():
        lock_event(player.event)  # the event first, as every workflow that bumps its version
        player = Player.objects.select_for_update().select_related("event").get(pk=player.pk)
        if player.dropped_after is not None:
            raise ServiceError(
                _("You have already dropped (after round %(number)s).") % {"number": player.dropped_after}
            )
        drop_player(player, None, asked_by_player=True, address=address)
