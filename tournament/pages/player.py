"""What the player's own page shows (views/player.py answers the request: who the phone belongs to, reports, the
HTTP): the page as one query reads it (`PhonePage`), its context, the version its ETag names, its frame (rendered
once per event and language), a result in the player's own words, the one-tap result buttons, and their standing
and earlier rounds, which hold for the whole round being played (read and rendered once per round, not for every
phone's poll)."""

import hashlib
import math
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from standings.divisions import Division
from standings.rating import format_change
from tournament.forms.players import RequestedByeForm
from tournament.infra.fast.rows import Joined
from tournament.models import Event, Match, Player, Report, Round
from tournament.pages.memo import BUILD, cached, event_standings
from tournament.pages.result_gives import gives_lines
from tournament.pages.rows import clock_of, player_line
from tournament.pages.trail import player_trail
from tournament.pages.why import phone_why
from tournament.services import reports
from tournament.services.cut import cut_published, player_text
from tournament.services.divisions import division_standings
from tournament.services.norms import round_norms
from tournament.services.outlooks import stored_for
from tournament.services.prizes import player_prizes
from tournament.services.ratings import event_ratings, round_changes
from tournament.services.results import Outcome
from tournament.services.roster import next_requestable_round
from tournament.services.standings import settled_marker
from tournament.services.top_cut import stage_names
from tournament.text import game_words, l10n, norm_text
from tournament.text.engine_text import translate_all
from tournament.text.results import CHESS_RESULTS, result_label


def said(
    games: tuple[int, int, int] | None, result: str, match: Match, player: Player, named: bool = False, chess=False
) -> str:
    """A result as this player says it, from their own side: "you lost 1-2" ("to Anna" when `named`).

    `chess`: one game written as chess writes it, White's first ("you won 0-1" with Black, "a draw, ½-½")."""
    opponent = match.player_b if match.player_a_id == player.pk else match.player_a
    name = {"name": opponent.name if opponent else ""}
    if result == Match.Result.DOUBLE_LOSS:
        return _("a double loss with %(name)s") % name if named else _("a double loss")
    if games is None:
        return ""
    a, b, drawn = games
    mine, theirs = (a, b) if match.player_a_id == player.pk else (b, a)
    score = (
        CHESS_RESULTS[games]
        if chess and games in CHESS_RESULTS
        else f"{mine}-{theirs}" + (f"-{drawn}" if drawn else "")
    )
    values = {"score": score, **name}
    if mine > theirs:
        return (_("you won %(score)s against %(name)s") if named else _("you won %(score)s")) % values
    if mine < theirs:
        return (_("you lost %(score)s to %(name)s") if named else _("you lost %(score)s")) % values
    return (
        game_words.gettext("a draw, %(score)s, with %(name)s") if named else game_words.gettext("a draw, %(score)s")
    ) % values


def sent_message(sent: reports.Sent, player: Player, outcome: Outcome, chess: bool = False) -> str:
    m = sent.match
    if sent.state == reports.STORED:
        stored = said(m.games, m.result, m, player, named=True, chess=chess) or result_label(m, chess)
        return _("Result stored: %(result)s. Thank you!") % {"result": stored}
    if sent.state == reports.ARBITER:
        return _("Reported: %(result)s. You agree; the arbiter enters this result at the desk.") % {
            "result": said(outcome.games, outcome.result, m, player, chess=chess)
        }
    opponent = m.player_b if m.player_a_id == player.pk else m.player_a
    return _("Reported: %(result)s. %(name)s confirms it on their phone.") % {
        "result": said(outcome.games, outcome.result, m, player, chess=chess),
        "name": opponent.name,
    }


def disputed_message(sent: reports.Sent, player: Player, action: str) -> str:
    opponent = sent.match.player_b if sent.match.player_a_id == player.pk else sent.match.player_a
    if action == "dispute":
        return _("You said %(name)s's report is not right: a judge will come to your table.") % {"name": opponent.name}
    return _("Your report differs from %(name)s's: a judge will come to your table.") % {"name": opponent.name}


def quick_results(
    best_of: int, elimination: bool, white: bool | None = None, opponent: str = "", draws: bool = True
) -> list[tuple[str, str]]:
    """The common results from the player's own side, one tap each: wins, losses, then draws.

    `white`: in a chess event, whether the player has White. The buttons are then the game's outcomes as
    chess writes them, White's first, each saying in words who won with which colour ("Anna (White) won 1-0",
    "Draw ½-½", "You (Black) won 0-1"; `opponent` is the other player's name), and each sends the result from
    the player's side: a tap says what is stored, whichever colour taps it. `draws=False`: a game that has
    none (backgammon) offers none.
    """
    elimination = elimination or not draws
    if white is not None and best_of == 1:
        names = {"name": opponent}
        if white:
            white_won, black_won = _("You (White) won 1-0"), _("%(name)s (Black) won 0-1") % names
        else:
            white_won, black_won = _("%(name)s (White) won 1-0") % names, _("You (Black) won 0-1")
        # Sent from the player's side: "1-0" is "I won".
        white_sends, black_sends = ("1-0", "0-1") if white else ("0-1", "1-0")
        draw = [] if elimination else [("0-0-1", game_words.gettext("Draw %(score)s") % {"score": "½-½"})]
        return [(white_sends, white_won), *draw, (black_sends, black_won)]
    if best_of == 1:
        choices = [("1-0", _("I won")), ("0-1", _("I lost"))]
        return choices if elimination else [*choices, ("0-0-1", game_words.gettext("Draw"))]
    need = math.ceil(best_of / 2)
    wins = [(f"{need}-{j}", _("Won %(score)s") % {"score": f"{need}-{j}"}) for j in range(need)]
    losses = [(f"{j}-{need}", _("Lost %(score)s") % {"score": f"{j}-{need}"}) for j in reversed(range(need))]
    choices = wins + losses
    if not elimination:
        if best_of == 3:
            choices.append(("1-1-1", game_words.gettext("Draw %(score)s") % {"score": "1-1-1"}))
        choices.append(("1-1", game_words.gettext("Draw %(score)s") % {"score": "1-1"}))
    return choices


def finished(rnd: Round | None) -> int:
    """The last finished round while `rnd` is the one being played (0 before the first is finished)."""
    if rnd is None:
        return 0
    return rnd.number if rnd.state == Round.State.COMPLETE else rnd.number - 1


def standing_of(event: Event, player: Player, rnd: Round | None) -> tuple[int, object, str, str] | None:
    """The player's rank, points, record and division ("" without divisions) after the last finished round.

    It holds still while a round's results come in, so it is keyed not on the event's version (which
    every stored result bumps) but on what the standings after that round are made of.
    """
    after = finished(rnd)
    if after < 1:
        return None

    key = f"me-standing:{event.pk}.{int(event.created_at.timestamp())}:{after}:{settled_marker(event, after)}"

    def make() -> dict:
        result = event_standings(event, after_round=after)
        # Divisions ranked apart: the rank is the player's division's (services/divisions.py).
        divisions = division_standings(event, result) or [Division("", result)]
        return {
            r.player_id: (r.rank, r.points, (r.wins, r.losses, r.draws), d.name)
            for d in divisions
            for r in d.standings.rows
        }

    # Kept as figures and worded for each page: one entry serves every language.
    found = cached(key, make, keep=True).get(player.key)
    if found is None:
        return None
    rank, points, record, division = found
    return rank, l10n.points(points), l10n.record(*record), division


def past_lines(event: Event, player: Player, rnd: Round | None) -> list[dict]:
    """The player's matches of the other published rounds, newest first, as their page words them.

    Those rounds are finished while `rnd` is played, so the lines are kept on what the standings after
    them are made of (`services.settled_marker`: their matches, results and the roster's names), not read
    again for every poll while the round's results come in. Every player's lines are read at once, in one
    query per round and language: a round's first minutes load every player's page.
    """
    after = finished(rnd)

    def make() -> dict[int, list[dict]]:
        past = (
            Match.objects.filter(round__event=event)
            .exclude(round__state=Round.State.DRAFT)
            .exclude(round=rnd)
            .select_related("round", "player_a", "player_b")
            .order_by("-round__number", "table")
        )
        stages = stage_names(event) if any(m.round.kind == Round.Kind.ELIMINATION for m in past) else {}
        lines: dict[int, list[dict]] = {}
        for m in past:
            for person in (m.player_a, m.player_b):
                if person is not None:
                    person.event = event  # read already: the line asks it about colours, once per match
                    line = player_line(m, person, stages)
                    if "opponent" in line:  # the name is all the page shows of them
                        line["opponent"] = {"name": line["opponent"].name}
                    lines.setdefault(person.pk, []).append(line)
        return lines

    marker = settled_marker(event, after)
    created = int(event.created_at.timestamp())
    key = f"me-lines:{event.pk}.{created}:{rnd.pk if rnd else 0}:{marker}:{get_language()}"
    return cached(key, make, keep=True).get(player.pk, [])


# Each player's standing and earlier rounds as their page shows them, rendered: in each process, emptied when it
# grows past HISTORY_MEMO (a round of 2048 players in three languages is ~6000).
_histories: dict[str, str] = {}
HISTORY_MEMO = 20_000


def history(event: Event, player: Player, rnd: Round | None, standing: tuple | None) -> str:
    """The player's rank, points and record and their earlier rounds, rendered (the page's `history` part).

    Both are read after the last finished round, so they hold for the whole round being played: rendered once
    per player, round and language, not again for every poll and report that redraws the page's live part
    (a round's clock started redraws every player's). Keyed on what they are made of, as `standing_of` and
    `past_lines` are (`services.settled_marker`).
    """
    after = finished(rnd)
    marker = settled_marker(event, after)
    key = f"{BUILD}:{get_language()}:{event.pk}.{int(event.created_at.timestamp())}:{rnd.pk if rnd else 0}:{after}:{marker}:{player.pk}"
    html = _histories.get(key)
    if html is None:
        # Chess: the FIDE rating change of each rated game and of the event so far (docs/ratings.md).
        change = event_ratings(event, after).get(player.key)
        changes, lines = round_changes(change), past_lines(event, player, rnd)
        context = {
            "standing": standing,
            "points": standing[1] if standing else "",
            "lines": [line | {"rating_change": changes.get(line["number"], "")} for line in lines] if change else lines,
            "rating": {"total": format_change(change.total), "k": change.k} if change else None,
            **game_words.context(None),
        }
        html = render_to_string("player/me.html#history", context)
        if len(_histories) >= HISTORY_MEMO:
            _histories.clear()
        _histories[key] = html
    return html


# --- The page as one query reads it, and what it shows -------------------------------------------


# The player's page in one query: the player the cookie names, their event, the round being played (the latest
# published one), their match in it with both players, and each player's report on it. Every phone polls it every
# few seconds while a round is reported; building it with the ORM took several times what PostgreSQL takes to
# answer it. Only the reports of who plays the match now count (`reports.status`): one row each at most.
_PAGE = Joined(
    ("p", Player),
    ("e", Event),
    ("r", Round),
    ("m", Match),
    ("a", Player),
    ("b", Player),
    ("ra", Report),
    ("rb", Report),
)
_PAGE_SQL = (
    f"SELECT {_PAGE.select} "  # noqa: S608 (table and column names from the models; the values are parameters)
    + f"""FROM {Player._meta.db_table} p
    JOIN {Event._meta.db_table} e ON e.id = p.event_id
    LEFT JOIN {Round._meta.db_table} r ON r.id = (
        SELECT x.id FROM {Round._meta.db_table} x WHERE x.event_id = p.event_id AND x.state <> %s
        ORDER BY x.number DESC LIMIT 1)
    LEFT JOIN {Match._meta.db_table} m ON m.round_id = r.id AND (m.player_a_id = p.id OR m.player_b_id = p.id)
    LEFT JOIN {Player._meta.db_table} a ON a.id = m.player_a_id
    LEFT JOIN {Player._meta.db_table} b ON b.id = m.player_b_id
    LEFT JOIN {Report._meta.db_table} ra ON ra.match_id = m.id AND ra.player_id = m.player_a_id
    LEFT JOIN {Report._meta.db_table} rb ON rb.match_id = m.id AND rb.player_id = m.player_b_id
    WHERE p.id = %s AND p.event_id = %s AND e.slug = %s"""
)


@dataclass
class PhonePage:
    """What a phone's page shows, as one query read it: the event, the player the phone was opened as (None:
    a stranger), the round being played, the player's match in it and the reports on it by player."""

    event: Event
    player: Player | None = None
    round: Round | None = None
    match: Match | None = None
    reports: dict[int, Report] = field(default_factory=dict)

    @property
    def shown(self) -> "reports.Shown | None":
        """The match as this page read it, for a report on it to start from (`reports.submit`)."""
        return reports.Shown(self.match, self.reports) if self.match is not None else None

    def after(self, sent: "reports.Sent | None") -> "PhonePage | None":
        """The page as the report `sent` left it, from that report's own transaction: its match and the
        reports on it as they stood under the match's lock. None when the report did not tell (then read it)."""
        if sent is None or sent.reports is None or self.match is None or sent.match.pk != self.match.pk:
            return None
        return PhonePage(self.event, self.player, sent.match.round, sent.match, sent.reports)


def page_row(player_pk: int, event_pk: int, slug: str) -> PhonePage | None:
    row = _PAGE.one(_PAGE_SQL, [Round.State.DRAFT, player_pk, event_pk, slug])
    if row is None:
        return None
    player, event, rnd, match, a, b, *reported = row
    player.event = event
    if rnd is not None:
        rnd.event = event
    if match is not None:
        match.round, match.player_a, match.player_b = rnd, a, b
    return PhonePage(event, player, rnd, match, {r.player_id: r for r in reported if r is not None})


def me_context(page: PhonePage) -> dict:
    event, player, rnd, match = page.event, page.player, page.round, page.match
    from_a = match is not None and match.player_a_id == player.pk
    opponent = (match.player_b if from_a else match.player_a) if match else None
    mine = theirs = None
    state = reports.EMPTY
    if match is not None and match.player_b_id is not None:
        # A stored result is all the page shows of a match: its reports are the judges' to read.
        by_player = {} if match.has_result else page.reports
        mine, theirs = by_player.get(player.pk), by_player.get(opponent.pk)
        state = reports.status(match, list(by_player.values()))
    can_report = (
        rnd is not None and match is not None and reports.refusal(event, rnd, match, player, current=rnd) is None
    )
    standing = standing_of(event, player, rnd)
    chess = event.chess_results
    # What the player needs from this round's match and what each result of it gives, stored with the round
    # when it was published and again after every result (services.outlooks); the latter only while their
    # own game is open.
    sentences, gives = stored_for(rnd, player.pk) if rnd is not None and match is not None else ([], {})
    open_game = match is not None and match.player_b_id is not None and not match.has_result
    return {
        "event": event,
        "player": player,
        "round": rnd,
        "match": match,
        "opponent": opponent,
        "colour": (_("White") if from_a else _("Black")) if event.colours and opponent else "",
        "clock": clock_of(rnd),
        "state": state,
        "mine": mine,
        "theirs": theirs,
        "mine_text": said(mine.games, mine.result, match, player, chess=chess) if mine and not mine.disputes else "",
        "theirs_text": said(theirs.games, theirs.result, match, player, chess=chess)
        if theirs and not theirs.disputes
        else "",
        "stored_text": (
            said(match.games, match.result, match, player, named=True, chess=chess) or result_label(match, chess)
        )
        if state == reports.STORED
        else "",
        "can_report": can_report,
        "choices": quick_results(
            event.best_of,
            rnd.kind == Round.Kind.ELIMINATION,
            from_a if chess else None,
            opponent.name if opponent else "",
            event.draws,
        )
        if can_report
        else [],
        "chess": chess,
        # Every result a phone may send is a button: no "other result" field.
        "buttons_only": chess or (event.best_of == 1 and not event.draws),
        "history": history(event, player, rnd, standing),
        # Why the player is paired so in this round, and their group (pages/why.py); nothing for older rounds.
        "why": phone_why(event, rnd, player),
        # The changes made after publication to the tables this player was or is at, in every published round.
        "trail": player_trail(event, player.key, list(range(1, rnd.number + 1)) if rnd else []),
        # The Day-2 cut: what makes it, then whether the player made it (a round after it is being played).
        "day2": player_text(
            event,
            player,
            cut_published(event),
            standing[0] if standing else None,
            own=True,
        ),
        "outlook": translate_all(sentences),
        "gives": gives_lines(gives) if open_game else [],
        # Once the event is over, what the player won (services/prizes.py): looked for only once the round on
        # the phone is complete, so a round being reported reads nothing more.
        "prizes": player_prizes(event, player.key) if rnd is not None and rnd.state == Round.State.COMPLETE else [],
        # A chess event that asks for title norms: each norm made or still in reach, as this round began.
        "norms": norm_lines(event, rnd, player),
        "bye_form": RequestedByeForm(initial={"round": next_requestable_round(event)})
        if event.players_request_byes and player.is_active
        else None,
    }


def norm_lines(event: Event, rnd: Round | None, player: Player) -> list[str]:
    """The player's sentence for each norm they have made or still have in reach ("You need ½ from the last
    round for an IM norm."); nothing for an event that does not ask for norms (read from the event's row)."""
    chances = round_norms(event, rnd).get(player.key)
    lines = [norm_text.player_line(c) for c in chances.norms] if chances else []
    return [line for line in lines if line]


# The page's frame (its head, the event's header and the language links) is the same for every player of the event:
# rendered once per event's settings and language, not for each of 2048 phones. Only two things in it are the
# request's own, the player's name (in the title) and the CSRF token (for htmx): rendered as marks, put in after.
NAME_MARK, CSRF_MARK = "\ue000name\ue000", "\ue000csrf\ue000"
_MAIN_START, _MAIN_END = '<main id="main">', "</main>"


def settings_row(event: Event) -> tuple:
    """The event's settings: what its pages show of it, as against what every change moves."""
    return tuple(getattr(event, f.attname) for f in Event._meta.concrete_fields if f.attname not in Event.CHANGE_FIELDS)


def frame(event: Event, context: dict) -> tuple[str, str]:
    """The page's frame before and after its content, with NAME_MARK and CSRF_MARK where the player's name and the
    request's CSRF token go (views/player.py puts them in): rendered once per event's settings and language."""
    shape = repr((BUILD, get_language(), settings_row(event)))
    key = f"me-frame:{hashlib.blake2b(shape.encode(), digest_size=10).hexdigest()}"

    def make() -> tuple[str, str]:
        marked = (
            context | game_words.context(None) | {"player": SimpleNamespace(name=NAME_MARK), "csrf_token": CSRF_MARK}
        )
        html = render_to_string("player/me.html", marked)
        return html[: html.index(_MAIN_START) + len(_MAIN_START)], html[html.rindex(_MAIN_END) :]

    return cached(key, make, keep=True)


# What the player's page shows besides the current round and match: their own matches of other rounds.
_ROUND_FIELDS = (
    "pk",
    "number",
    "kind",
    "state",
    "clock_started",
    "clock_paused_at",
    "clock_paused_seconds",
    "clock_minutes",
    "reporting_closed",
    "outlook_revision",
)
_MATCH_FIELDS = ("pk", "version", "report_stamp", "table", "player_a_id", "player_b_id", "result")


def personal_version(page: PhonePage, template: str) -> str:
    """Names what this player's page shows, so a phone's poll answers 304 while none of it has changed.

    Not the event's version: every result anybody stores bumps that, and a 2048-player round stores ten a
    second, so every phone's poll would render its page anew. The page shows the event's settings, the
    round (its state and clock) and the player's match in it (its result and the reports on it), their
    standing and their matches of the earlier rounds, which are finished while `rnd` is played (both read
    after the last finished round, and named by `services.settled_marker` with the roster's names: a
    correction of an earlier round writes a `ResultChange`, which the marker counts); the build and the
    language shape the rest.
    """
    event, player, rnd, match = page.event, page.player, page.round, page.match
    parts = (
        BUILD,
        get_language(),
        template,
        settings_row(event),
        player.pk,
        sorted(player.requested_byes.items()),
        tuple(getattr(rnd, f) for f in _ROUND_FIELDS) if rnd else None,
        tuple(getattr(match, f) for f in _MATCH_FIELDS) if match else None,
        settled_marker(event, max(finished(rnd), 0)),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()
