"""Results: what a typed result means (`parse_outcome`), whether the match's format allows it
(`validate_result`), the questions asked before a result replaces another or advances a bracket, and
storing it under the match's lock (`record_result`, `store_result`, `correct_result`)."""

import math
import re
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from swiss.model import DOUBLE_LOSS, FORFEIT, PLAYED, games_problem
from tournament.models import (
    Match,
    Player,
    Report,
    ResultChange,
    Round,
)
from tournament.services import outlooks, trail
from tournament.services.adjourned import result_warnings
from tournament.services.locks import ServiceError, awaiting_result, changed, log, shared_round
from tournament.services.top_cut import advance_bracket
from tournament.services.warnings import NONE, Passed, check
from tournament.text import game_words
from tournament.text.results import CHESS_RESULTS, result_label


@dataclass(frozen=True)
class Outcome:
    result: str
    games: tuple[int, int, int] | None
    # A forfeit's winner: "a", the player listed first (White), or "b".
    winner: str = "a"

    @property
    def text(self) -> str:
        """The result as the desk types it: what `parse_outcome` reads back."""
        if self.result == DOUBLE_LOSS:
            return "dl"
        if self.result == FORFEIT:
            return "+-" if self.winner == "a" else "-+"
        a, b, d = self.games
        return f"{a}-{b}-{d}" if d else f"{a}-{b}"

    def label(self, chess: bool = False) -> str:
        if self.result == DOUBLE_LOSS:
            return gettext("double forfeit −/−") if chess else gettext("double loss")
        if self.result == FORFEIT:
            return "+/−" if self.winner == "a" else "−/+"
        return CHESS_RESULTS.get(self.games, self.text) if chess else self.text


def stored_outcome(match: Match) -> Outcome:
    """The match's stored result as an outcome (a forfeit's winner named by the colours it was paired with)."""
    return Outcome(match.result, match.games, "b" if match.black_won_by_forfeit else "a")


# What a chess desk types: a win for White or Black, a draw (also the keyboard's 1/2 and 0.5-0.5).
_CHESS_WORDS = {
    "1": (1, 0, 0),
    "1-0": (1, 0, 0),
    "0": (0, 1, 0),
    "0-1": (0, 1, 0),
    "=": (0, 0, 1),
    "½": (0, 0, 1),
    "½-½": (0, 0, 1),
    "1/2": (0, 0, 1),
    "1/2-1/2": (0, 0, 1),
    "0.5": (0, 0, 1),
    "0.5-0.5": (0, 0, 1),
    ",5-,5": (0, 0, 1),
    "0,5-0,5": (0, 0, 1),
    "d": (0, 0, 1),
    "draw": (0, 0, 1),
    "remis": (0, 0, 1),
}
# Forfeits as chess writes them: + the side that won without playing, − the side that did not come.
_FORFEITS = {"+-": "a", "-+": "b"}
_DOUBLE_FORFEITS = ("--",)


# Words typed at the desk for results that are not game counts ("double loss" may be typed with a space).
DOUBLE_LOSS_WORDS = ("dl", "double", "double loss")
DRAW_WORDS = ("d", "draw")
INTENTIONAL_DRAW_WORDS = ("id", "intentional")
# Japanese keyboards type full-width digits and dashes; superscripts and other digits are not results.
_FULL_WIDTH = str.maketrans("０１２３４５６７８９－ー−", "0123456789---")
_GAMES = re.compile(r"([0-9]{1,6})-([0-9]{1,6})(?:-([0-9]{1,6}))?|([0-9])([0-9])([0-9])?")


def _draw_games(best_of: int, intentional: bool) -> tuple[int, int, int]:
    if best_of == 1:
        return (0, 0, 1)
    return (0, 0, best_of) if intentional else (1, 1, 0)


def parse_outcome(text: str, best_of: int, chess: bool = False, forfeits: bool = True) -> Outcome:
    """A result as typed at the desk: "2-0", "21", "1-1", "0-0-3", "d" (draw), "id", "dl" (double loss);
    forfeits "+-" (player A, White, won without playing), "-+" and "--" (a double forfeit: a double loss);
    in a chess event also "1", "0", "=", "½", "1-0", "0-1", "1/2", "0.5-0.5" (White's result first).

    `forfeits=False` (a player's phone): a forfeit is the judges' to record, so its notations are refused as
    such, and the help for a mistyped result does not suggest them."""
    plain = text.translate(_FULL_WIDTH).lower().replace("–", "-").replace("−", "-")
    compact = "".join(plain.split())
    if chess and compact in _CHESS_WORDS:
        return Outcome(PLAYED, _CHESS_WORDS[compact])
    forfeit = compact.replace("/", "").replace(":", "")
    if not forfeits and (forfeit in _FORFEITS or forfeit in _DOUBLE_FORFEITS):
        raise ServiceError(gettext("A forfeit is recorded by the judges: tell them at the desk."))
    if forfeit in _FORFEITS:
        return Outcome(FORFEIT, None, _FORFEITS[forfeit])
    if forfeit in _DOUBLE_FORFEITS:
        return Outcome(DOUBLE_LOSS, None)
    t = "-".join(plain.split())
    if t in {w.replace(" ", "-") for w in DOUBLE_LOSS_WORDS} | {"double_loss"}:
        return Outcome(DOUBLE_LOSS, None)
    if t in DRAW_WORDS or t in INTENTIONAL_DRAW_WORDS:
        return Outcome(PLAYED, _draw_games(best_of, t in INTENTIONAL_DRAW_WORDS))
    m = _GAMES.fullmatch(t)
    if m is None:
        if chess and not forfeits:
            raise ServiceError(
                gettext("“%(text)s” is not a result: type it like 1-0, ½-½ (or =) or 0-1.") % {"text": text[:40]}
            )
        if chess:
            raise ServiceError(
                gettext("“%(text)s” is not a result: type it like 1-0, ½-½ (or =), 0-1, or +- for a forfeit.")
                % {"text": text[:40]}
            )
        raise ServiceError(
            gettext("“%(text)s” is not a result: type it like 2-0, 2-1, 1-1 or 0-0-3.") % {"text": text[:40]}
        )
    a, b, d = (m[1], m[2], m[3]) if m[1] is not None else (m[4], m[5], m[6])
    return Outcome(PLAYED, (int(a), int(b), int(d or 0)))


def outcome_from_games(
    games_a: int | None, games_b: int | None, games_drawn: int | None, double_loss: bool, forfeit: str = ""
) -> Outcome:
    """The “other…” form's fields as a result; a double loss or a forfeit with game counts is contradictory,
    not a guess."""
    games = (games_a or 0, games_b or 0, games_drawn or 0)
    if forfeit:
        if any(games) or double_loss:
            raise ServiceError(
                gettext(
                    "A forfeit is chosen and games or “Double loss” are filled in: a game not played has no "
                    "game counts. Clear them or choose no forfeit."
                )
            )
        return Outcome(FORFEIT, None, forfeit)
    if double_loss:
        if any(games):
            raise ServiceError(
                gettext(
                    "“Double loss” is ticked and games are filled in (%(games)s): a double loss has no game "
                    "counts. Clear the games or untick “Double loss”."
                )
                % {"games": "-".join(map(str, games))}
            )
        return Outcome(DOUBLE_LOSS, None)
    return Outcome(PLAYED, games)


def shorthands(best_of: int, elimination: bool, chess: bool = False, draws: bool = True) -> list[tuple[str, list[str]]]:
    """What the desk may type, result by result, for the keyboard entry's hint (every form `parse_outcome` takes);
    `draws=False`: a game without draws (backgammon), whose hint offers none."""
    forfeits = [
        (gettext("forfeit, first player wins +/−"), ["+-", "+/-"]),
        (gettext("forfeit, second player wins −/+"), ["-+", "-/+"]),
    ]
    if chess and not elimination:
        return [
            ("1-0", ["1", "1-0"]),
            ("½-½", ["=", "½", "1/2", "0.5-0.5"]),
            ("0-1", ["0", "0-1"]),
            (gettext("White wins by forfeit +/−"), ["+-", "+/-"]),
            (gettext("Black wins by forfeit −/+"), ["-+", "-/+"]),
            (gettext("double forfeit −/−"), ["--", "-/-"]),
        ]
    need = math.ceil(best_of / 2)
    wins = [(need, j) for j in range(need)] + [(j, need) for j in reversed(range(need))]
    rows = [(f"{a}-{b}", [f"{a}{b}"]) for a, b in wins]
    if not elimination:
        if draws and best_of == 1:
            rows.append((gettext("draw 0-0-1"), ["001", *DRAW_WORDS, *INTENTIONAL_DRAW_WORDS]))
        elif draws:
            rows.append((gettext("draw 1-1"), ["11", *DRAW_WORDS]))
            rows.append(
                (gettext("intentional draw 0-0-%(n)d") % {"n": best_of}, [f"00{best_of}", *INTENTIONAL_DRAW_WORDS])
            )
        rows.append((gettext("double loss"), list(DOUBLE_LOSS_WORDS)))
        rows += [*forfeits, (gettext("double forfeit −/−"), ["--", "-/-"])]
    return rows


def _games_message(code: str, params: dict) -> str:
    messages = {
        "negative": gettext("Game counts cannot be negative."),
        "empty": gettext("A result needs at least one game."),
        "too_many_wins": gettext("In best of %(best_of)d nobody wins more than %(need)d games."),
        "both_win": gettext("In best of %(best_of)d only one side can win %(need)d games."),
        "too_many_draws": gettext("In best of %(best_of)d a match has at most %(best_of)d drawn games."),
        "elimination_draw": gettext("An elimination match cannot end in a draw."),
    }
    return messages[code] % params


def _winner_key(match: Match, outcome: Outcome):
    if outcome.result != PLAYED or outcome.games[0] == outcome.games[1]:
        return None
    return match.player_a_id if outcome.games[0] > outcome.games[1] else match.player_b_id


def validate_result(match: Match, outcome: Outcome) -> None:
    """Whether this result may be stored for this match: the one check every result path makes.

    Raises `ServiceError` saying why not: a draft round, a bye, a double loss in the top cut, game counts
    the match format cannot produce, or a bracket winner changed after the next stage was paired.
    """
    rnd = match.round
    where = gettext("Table %(table)s: ") % {"table": match.table}
    if rnd.state == Round.State.DRAFT:
        raise ServiceError(
            gettext("Round %(number)d is a draft: publish it before entering results.") % {"number": rnd.number}
        )
    if match.player_b_id is None:
        raise ServiceError(game_words.gettext("A bye or unpaired loss has no result to enter."))
    elimination = rnd.kind == Round.Kind.ELIMINATION
    if outcome.result == DOUBLE_LOSS:
        if elimination:
            raise ServiceError(where + gettext("A top-cut match needs a winner; a double loss is not possible."))
    elif outcome.result == FORFEIT:
        if elimination:
            raise ServiceError(where + gettext("A top-cut match is played: enter its games."))
    elif outcome.result != PLAYED or outcome.games is None:
        raise ServiceError(where + gettext("A result needs game counts."))
    else:
        problem = games_problem(outcome.games, rnd.event.best_of, elimination)
        if problem:
            raise ServiceError(where + _games_message(*problem))
        if not rnd.event.draws and (outcome.games[0] == outcome.games[1] or outcome.games[2]):
            raise ServiceError(where + gettext("There are no draws in backgammon: enter who won."))
    if (
        elimination
        and match.has_result
        and match.winner is not None
        and match.winner.pk != _winner_key(match, outcome)
        and Round.objects.filter(event_id=rnd.event_id, number__gt=rnd.number).exists()
    ):
        raise ServiceError(
            where + gettext("The next stage of the bracket is already paired from this result: its winner stays.")
        )


class ConfirmReplace(ServiceError):
    """The match already has a different result: the person must see it and confirm replacing it.

    `stale` when it changed after the form was shown (someone, or another tab, entered it meanwhile).
    """

    def __init__(self, match: Match, outcome: Outcome, by, stale: bool):
        self.match, self.outcome, self.stale = match, outcome, stale
        self.keep = stored_outcome(match).text  # what a “keep” answer sends back: no change
        who = gettext("you") if by is not None and match.entered_by_id == by.pk else str(match.entered_by or "")
        chess = match.round.event.chess_results
        self.new_label, self.stored_label = outcome.label(chess), result_label(match, chess)
        params = {"table": match.table, "stored": self.stored_label, "who": who, "new": self.new_label}
        if stale:
            text = gettext(
                "Table %(table)s was changed to %(stored)s by %(who)s since this page was shown. "
                "Replace %(stored)s with %(new)s?"
            )
            if not who:
                text = gettext(
                    "Table %(table)s was changed to %(stored)s since this page was shown. Replace %(stored)s with %(new)s?"
                )
        elif who:
            text = gettext("Table %(table)s already has %(stored)s, entered by %(who)s. Replace it with %(new)s?")
        else:
            text = gettext("Table %(table)s already has %(stored)s. Replace it with %(new)s?")
        super().__init__(text % params)


class ConfirmAdvance:
    """A top-cut result about to be entered: it sends its winner on (and may pair the next stage), so the
    organiser confirms each one (“Alice beats Bob 2-1?”) before it is stored, on every path.

    Built only for a result `validate_result` accepts, so it always has a winner.
    """

    def __init__(self, match: Match, outcome: Outcome):
        a, b, _ = outcome.games
        self.match, self.outcome, self.result = match, outcome, outcome.text
        self.winner, self.loser = (match.player_a, match.player_b) if a > b else (match.player_b, match.player_a)
        self.score = f"{max(a, b)}-{min(a, b)}"


def advance_question(match: Match, outcome: Outcome) -> ConfirmAdvance | None:
    """The question to ask before storing `outcome`, if it is a top-cut match's first result; None otherwise.

    Raises `ServiceError` for a result the match may not have, so a refusal comes before any question.
    A stored result is not asked about here: replacing it asks its own question (`ConfirmReplace`).
    """
    if match.round.kind != Round.Kind.ELIMINATION or match.has_result:
        return None
    validate_result(match, outcome)
    return ConfirmAdvance(match, outcome)


def record_result(
    match: Match,
    outcome: Outcome,
    by,
    expected_version: int | None = None,
    replace: bool = False,
    reporter: Player | None = None,
    address: str | None = None,
    passed: Passed = NONE,
) -> Match:
    """Store a match result; the one workflow behind every result path (buttons, keyboard, forms, top cut).

    `expected_version` is the match version the person's page showed. A result is filled in without asking;
    replacing a different stored result raises `ConfirmReplace` unless `replace` is given together with the
    version the person confirmed (a replacement without a version would overwrite blind, so it is refused).
    The same result twice changes nothing. Every change is audited (`ResultChange`); a replacement is also
    logged as a correction.
    `reporter` is the player whose report from their phone (at `address`) stores it; `by` is then None.
    """
    m, stored = store_result(match, outcome, by, expected_version, replace, reporter, address, passed=passed)
    return after_result(m, stored, by)


def store_result(
    match: Match,
    outcome: Outcome,
    by,
    expected_version: int | None = None,
    replace: bool = False,
    reporter: Player | None = None,
    address: str | None = None,
    held: bool = False,
    reports: list[Report] | None = None,
    passed: Passed = NONE,
) -> tuple[Match, bool]:
    """`record_result`'s part inside the caller's transaction: the match stored (True) or already so (False).

    The caller calls `after_result` once that transaction has committed: it decides the round's state,
    bumps the event's version and advances a bracket, which take the round's row for update and the event's
    row, and no workflow may wait for those while it holds a round or a match (the order is event, round,
    match: a re-pair holds the event and waits for the round).
    `held`: the caller's transaction already holds the round (FOR SHARE) and `match` (FOR UPDATE), read after
    taking them, with its round and event (a player's confirmation, `reports.submit`); a refusal then rolls back
    the caller's whole transaction, so no savepoint is taken. `reports`: the match's reports as they stand
    under that lock, in the order sent (the caller read them and put its own), not read again.
    `passed`: the FIDE-mode warnings the arbiter passed (an adjourned game's result, services/adjourned.py).
    """
    event = match.round.event
    with transaction.atomic(savepoint=not held):
        if held:
            rnd, m = match.round, match
        else:
            # The round row first (the order every workflow locks in: event, round, match), held FOR SHARE:
            # a re-pair or swap waits for the result or wins, while the round's other results go on side by
            # side (a 2048-player round stores ten a second). Whether the round is complete is decided after
            # the commit, one result at a time (`after_result`).
            rnd = shared_round(match.round_id)
            m = (
                # Not `entered_by`: after waiting for the lock, PostgreSQL re-reads the match row but keeps the
                # joined rows of its first look, so a user entered meanwhile would read as nobody.
                Match.objects.select_for_update(of=("self",))
                .select_related("round__event", "player_a", "player_b")
                .filter(pk=match.pk)
                .first()
            )
        if rnd is None or m is None:
            raise ServiceError(
                _(
                    "These pairings were changed meanwhile (the round was paired again): enter the result on the new ones."
                )
            )
        validate_result(m, outcome)
        same = stored_outcome(m) == outcome
        if not same:
            stale = expected_version is not None and m.version != expected_version
            if m.has_result and (stale or not replace or expected_version is None):
                raise ConfirmReplace(m, outcome, by, stale)
            if stale:
                # No result, yet the match changed since the page was shown: its players were swapped.
                raise ServiceError(
                    gettext(
                        "Table %(table)s changed since this page was shown: check its players and enter the result again."
                    )
                    % {"table": m.table}
                )
            check(event, by, result_warnings(m, outcome.games, outcome.result), passed, round=m.round.number)
            before = m.snapshot() if m.has_result else None
            was = trail.line(m) if before is not None else None  # a correction's line, as it was
            chess = event.chess_results
            before_label = result_label(m, chess)
            m.result = outcome.result
            m.games_a, m.games_b, m.games_drawn = outcome.games or (None, None, None)
            # A forfeit's winner is player A (the swiss-event rule); the colours they were paired with stay
            # known in `white`, and any other result puts White back as player A.
            white, black = m.colour_order()
            m.player_a, m.player_b = (
                (black, white) if outcome.result == FORFEIT and outcome.winner == "b" else (white, black)
            )
            m.white = white if outcome.result in (FORFEIT, DOUBLE_LOSS) else None
            m.entered_by = by
            m.entered_by_player = reporter
            m.entered_at = timezone.now()
            m.version += 1
            m.save(
                update_fields=[
                    "player_a",
                    "player_b",
                    "white",
                    "result",
                    "games_a",
                    "games_b",
                    "games_drawn",
                    "entered_by",
                    "entered_by_player",
                    "entered_at",
                    "version",
                ]
            )
            ResultChange.objects.create(
                match=m,
                before=before,
                after=m.snapshot(),
                by=by,
                player=reporter,
                address=address,
                # The stamp counts the match's reports (read before a report stored with this result was put):
                # a result with none, the desk's usual case, reads nothing.
                reports=[r.snapshot() for r in (m.reports.order_by("at", "id") if reports is None else reports)]
                if m.report_stamp or reporter is not None
                else [],
            )
            if before is not None:
                trail.result_corrected(m, was, by)
                m.corrected = True  # `after_result`: a correction is on the round's trail, shown at once
                log(
                    event,
                    "correct_result",
                    by,
                    round=m.round.number,
                    table=m.table,
                    before=before_label,
                    after=result_label(m, chess),
                )
        rnd.event = m.round.event
        m.round = rnd
    return m, not same


def after_result(m: Match, stored: bool, by) -> Match:
    """What follows a result's commit: the round's state, the version bump (phones refresh), the bracket's
    next stage.

    The round's state is decided here, in a transaction of its own holding the round's row: each result's
    check runs after its own commit, so the last of two results arriving together reads both and completes
    the round. Also for the same result again: entering it a second time repairs a round whose completion
    was missed (a server stopped between a result's commit and this check).
    """
    rnd, event = m.round, m.round.event
    _update_round_state(rnd)
    if stored:
        # A correction breaks the run of results (`changed`): no page made before it may stand in (`memo.may_lag`).
        changed(event, results_of_round=None if getattr(m, "corrected", False) else rnd.number)
        outlooks.refresh_played(rnd)  # every other player's outlook reads this result
    if rnd.kind == Round.Kind.ELIMINATION and rnd.state == Round.State.COMPLETE:
        advance_bracket(event, by)
    return m


def correct_result(match: Match, outcome: Outcome, by, expected_version: int) -> Match:
    """Replace a result already entered (an earlier round's too), as confirmed on the page showing
    `expected_version`; audited and logged; pairings already made stay."""
    if not Match.objects.filter(pk=match.pk).exclude(awaiting_result()).exists():
        raise ServiceError(game_words.gettext("That match has no result to correct yet."))
    return record_result(match, outcome, by, expected_version=expected_version, replace=True)


# Whether a round still has a match without its result, written out (a fast path: tournament/infra/fast/): it is asked
# after every stored result, where compiling the ORM's query cost more than answering it.
_MISSING_SQL = (
    f"SELECT EXISTS (SELECT 1 FROM {Match._meta.db_table} WHERE round_id = %s AND result = %s AND games_a IS NULL)"  # noqa: S608
)


def _missing(round_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_MISSING_SQL, [round_id, Match.Result.PLAYED])
        return bool(cursor.fetchone()[0])


def _update_round_state(rnd: Round) -> None:
    """The round's state after a result's commit: in progress from its first result, complete with its last.

    While results are missing (read after this result's commit) the round cannot be complete, and the
    result that completes it, committed last, reads every other: only then is the round's row locked and
    read again (two last results arriving together each run this after their own commit; the later one
    reads both). A round with a thousand tables does not queue its results behind that lock.
    """
    missing = _missing(rnd.pk)
    if missing and rnd.state != Round.State.COMPLETE:
        # Nothing moves a round back to paired: one read in progress (under the result's lock) still is, or
        # is complete, and is left alone.
        paired = rnd.state == Round.State.PAIRED
        if paired and Round.objects.filter(pk=rnd.pk, state=Round.State.PAIRED).update(state=Round.State.IN_PROGRESS):
            rnd.state = Round.State.IN_PROGRESS
        return
    with transaction.atomic():
        rnd.state = Round.objects.select_for_update().values_list("state", flat=True).get(pk=rnd.pk)
        missing = _missing(rnd.pk)
        state = rnd.state
        if not missing:
            state = Round.State.COMPLETE
        elif rnd.state in (Round.State.PAIRED, Round.State.COMPLETE):
            state = Round.State.IN_PROGRESS
        if state != rnd.state:
            rnd.state = state
            rnd.save(update_fields=["state"])
