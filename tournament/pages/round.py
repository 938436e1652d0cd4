"""What the organiser's round pages show: the results page (its counts, its rows as `MatchRow`s, the one-click
results), the draft (its boards, floats, rematches and byes), the rounds' tabs and a match's history of changes.
The data the results page reads is gathered by results_board.py; the views (views/rounds.py, views/results.py)
answer the request around these."""

import math
from dataclasses import dataclass, field

from django.db.models import F
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournament.models import Event, Match, Player, Report, Round
from tournament.pages import results_board
from tournament.services.reports import ARBITER, DISPUTED, STORED, WAITING, status, told
from tournament.services.results import shorthands
from tournament.services.rounds import met_before
from tournament.services.standings import chess_idents, event_standings
from tournament.services.top_cut import stage_name, stage_names
from tournament.text import game_words, l10n
from tournament.text.names import Names
from tournament.text.results import CHESS_RESULTS, result_label, result_word


def result_choices(best_of: int, elimination: bool, chess: bool = False, draws: bool = True) -> list[tuple[str, str]]:
    """The one-click results of a match format: every winning score, then the draws (none where a game has
    none: `draws=False`, backgammon); a chess game's 1-0, ½-½, 0-1 (White's result first)."""
    if chess and not elimination:
        return [("1-0", "1-0"), ("½-½", "½-½"), ("0-1", "0-1")]
    need = math.ceil(best_of / 2)
    wins_a = [(f"{need}-{j}", f"{need}-{j}") for j in range(need)]
    wins_b = [(f"{j}-{need}", f"{j}-{need}") for j in reversed(range(need))]
    choices = wins_a + wins_b
    if not elimination and draws:
        if best_of == 1:
            choices.append(("0-0-1", game_words.gettext("Draw")))
        else:
            choices += [
                ("1-1", _("1-1 draw")),
                (f"0-0-{best_of}", _("0-0-%(n)s ID") % {"n": best_of}),  # an intentional draw
            ]
    return choices


# --- The results page's rows -------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchRow:
    """One table of the results page, as its row says it (templates/organiser/round.html, `match-row`)."""

    pk: int
    table: int | None
    version: int
    player_b_id: int | None
    has_result: bool
    state: str  # stored, disputed, waiting or empty (services/reports.py `status`)
    label: str  # the result as stored ("" while there is none)
    won: str  # "a" or "b": which name (in colour order) won; "" for none
    name_a: str  # in colour order (White first), with the player number when two players share a name
    name_b: str
    ident_a: tuple | None  # a chess event's start number, title and rating beside each name
    ident_b: tuple | None
    page_url: str  # the match's page ("other…", "Correct…")
    result_url: str  # where the result buttons post
    buttons: SafeString  # one <button> per one-click result, the stored one marked
    entered: str = ""  # who stored it: "by anna", "by Bo (phone)"
    versions: tuple[tuple[Player, str], ...] = ()  # what each player reported, while disputed or waiting
    error: str | None = None  # the refusal of the click this row answers
    question: object = None  # or the question it asks first (`services.results.ConfirmReplace`)
    warning: dict | None = None  # or the FIDE-mode warnings to pass first (`views.warnings.asking`'s form)
    division_a: str = ""  # each player's division, where divisions are paired together
    division_b: str = ""


class RowMaker:
    """What each row of the results page says, prepared once per page: names (with the player number when two
    players share a name), the state and the players' versions, the result buttons and their labels.

    The result buttons are built here, not in the template: they are the same for every row but the table and
    the chosen one, and a template loop of six buttons per row was most of the full list's rendering time. The
    row's two links are `reverse()`d: about 0.1 ms of CPU a row, 0.1 s for a 1024-table full list.
    """

    def __init__(self, event: Event, rnd: Round, choices: list[tuple[str, str]]):
        self.event, self.round = event, rnd
        self._names: Names | None = None
        self._idents: dict | None = None
        self.choices = choices
        self.table_label = _("Table %(table)s: %(label)s")
        self.by_phone = _("by %(name)s (phone)")
        self.not_right = _("that's not right")

    @property
    def names(self) -> Names:
        if self._names is None:
            self._names = Names.of(self.event.pk)
        return self._names

    @property
    def idents(self) -> dict:
        """A chess event's start number, title and rating beside each name (`chess_idents`), read once."""
        if self._idents is None:
            self._idents = chess_idents(self.event)
        return self._idents

    def row(
        self,
        m: Match,
        reports: list[Report] | None = None,
        error: str | None = None,
        question: object = None,
        warning: dict | None = None,
    ) -> MatchRow:
        """The row of `m`, with its reports as the page read them (`results_board.Overview.reports`), or read now
        (one query) for the single row an HTMX answer shows."""
        rs = list(m.reports.all()) if reports is None else reports
        state = status(m, rs)
        label = result_label(m, self.event.chess_results)
        # Shown in colour order (White first; a forfeit Black won is player A with `white` kept), which is
        # the order the result buttons read (1-0 is White's win).
        first, second = m.colour_order()
        winner = m.winner
        name_a = self.names.label(first)
        name_b = self.names.label(second) if second else ""
        entered = ""
        if state == STORED and m.player_b_id:
            if m.entered_by_player_id:
                # The player whose report stored it (the one who confirmed, or reported alone).
                reporter = name_a if m.entered_by_player_id == m.player_a_id else name_b
                entered = self.by_phone % {"name": reporter}
            elif m.entered_by_id:
                entered = _("by %(name)s") % {"name": m.entered_by.get_username()}
        versions = []
        if state in (DISPUTED, WAITING, ARBITER):
            for r in rs:
                player = m.player_a if r.player_id == m.player_a_id else m.player_b
                text = self.not_right if r.disputes else told(r.games, r.result, m, self.event.chess_results)
                versions.append((player, text))
        buttons = format_html_join(
            "",
            '<button type="submit" name="result" value="{}" class="res{}" aria-label="{}">{}</button>',
            (
                (value, " chosen" if value == label else "", self.table_label % {"table": m.table, "label": text}, text)
                for value, text in self.choices
            ),
        )
        slug, number = self.event.slug, self.round.number
        return MatchRow(
            pk=m.pk,
            table=m.table,
            version=m.version,
            player_b_id=m.player_b_id,
            has_result=m.has_result,
            state=state,
            label=label,
            won="" if winner is None else "a" if winner.pk == first.pk else "b",
            name_a=name_a,
            name_b=name_b,
            ident_a=self.idents.get(first.pk),
            ident_b=self.idents.get(second.pk) if second else None,
            page_url=reverse("org_match", args=[slug, number, m.pk]),
            result_url=reverse("org_match_result", args=[slug, number, m.pk]),
            buttons=buttons,
            entered=entered,
            versions=tuple(versions),
            error=error,
            question=question,
            warning=warning,
            division_a=first.division,
            division_b=second.division if second else "",
        )


def round_context(
    event: Event,
    rnd: Round,
    view: str = "default",
    q: str = "",
    start: int = 1,
    rows: bool = True,
    row: Match | None = None,
    error: str | None = None,
    question: object = None,
    warning: dict | None = None,
) -> dict:
    """The results page: the counts, and the rows of `view` (none when `rows` is false); `row`: the one match an
    HTMX answer shows (as `m`), prepared like a row of the page, with the refusal, the question or the warnings
    it answers."""
    elimination = rnd.kind == Round.Kind.ELIMINATION
    choices = result_choices(event.best_of, elimination, event.chess_results, event.draws)
    if rows and row is None:
        overview = results_board.overview(rnd, view, q, start)
    else:
        counts = results_board.counts(rnd)
        overview = results_board.Overview(counts, [], [], counts.total > results_board.LARGE_ROUND, view, start, q)
    maker = RowMaker(event, rnd, choices)
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return {
        "round": rnd,
        "stage": stage_name(overview.counts.matches) if elimination else "",
        "matches": [maker.row(m, overview.reports[m.pk]) for m in overview.matches],
        "attention": [maker.row(m, overview.reports[m.pk]) for m in overview.attention],
        "m": maker.row(row, error=error, question=question, warning=warning) if row is not None else None,
        "overview": overview,
        "missing": overview.counts.outstanding,
        "entered": overview.counts.entered,
        "only_outstanding": overview.view == "outstanding",
        "choices": choices,
        "shorthands": shorthands(event.best_of, elimination, event.chess_results, event.draws),
        "is_latest": rnd.number == latest,
        "seconds_left": rnd.seconds_left(),
    }


# --- The rounds' tabs and lists ----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundLine:
    """A round as a list of rounds shows it (the round page's tabs, the event's home): a top-cut round with its
    stage's name (Semifinals, Final)."""

    pk: int
    number: int
    kind: str
    state: str
    state_label: str
    stage: str = ""
    tables: int | None = None  # the event's home: matches with a table (a bye or an unpaired loss takes none)
    missing: int | None = None  # and results outstanding


def round_lines(event: Event, rounds: list[Round]) -> list[RoundLine]:
    """`rounds` of `event` as lists show them (with `tables` and `missing` where the query counted them)."""
    stages = stage_names(event) if any(r.kind == Round.Kind.ELIMINATION for r in rounds) else {}
    return [
        RoundLine(
            r.pk,
            r.number,
            r.kind,
            r.state,
            r.get_state_display(),
            stages.get(r.number, ""),
            getattr(r, "tables", None),
            getattr(r, "missing", None),
        )
        for r in rounds
    ]


# --- The draft ---------------------------------------------------------------------------------------


def draft_context(event: Event, rnd: Round) -> dict:
    """The draft's page: each board with the players' points going into it (a float where they differ), a
    rematch marked, why the bye went where it did, who waits unpaired and who dropped meanwhile."""
    before = event_standings(event, after_round=rnd.number - 1)  # cached per event version
    points = {r.player_id: r.points for r in before.rows}
    met = met_before(event, rnd.number)
    idents = chess_idents(event)
    rows = []
    for m in rnd.matches.select_related("player_a", "player_b").order_by(F("table").asc(nulls_last=True), "id"):
        pa = points.get(m.player_a.key, 0)
        pb = points.get(m.player_b.key, 0) if m.player_b else None
        rows.append(
            {
                "match": m,
                "points_a": l10n.points(pa),
                "points_b": l10n.points(pb) if pb is not None else "",
                "ident_a": idents.get(m.player_a_id),
                "ident_b": idents.get(m.player_b_id),
                "float": pb is not None and pa != pb,
                "rematch": m.player_b_id is not None and frozenset((m.player_a_id, m.player_b_id)) in met,
            }
        )
    in_round = [p for m in rows for p in (m["match"].player_a, m["match"].player_b) if p]
    bye_notes = [
        bye_note(event, r["match"].player_a, rnd.number)
        for r in rows
        if r["match"].result == Match.Result.BYE and r["match"].player_a.byes < rnd.number
    ]
    waiting = event.players.filter(dropped_after__isnull=True, joined_round__lte=rnd.number).exclude(
        pk__in=[p.pk for p in in_round]
    )
    return {
        "round": rnd,
        "rows": rows,
        "bye_notes": bye_notes,
        "waiting": waiting,
        "dropped": [p for p in in_round if p.dropped_after is not None and p.dropped_after < rnd.number],
        "in_round": in_round,
    }


def bye_note(event: Event, player: Player, number: int) -> str:
    """Why this player has the round's bye; a late entrant's surprises organisers, so it says so."""
    name = Names.of(event.pk).label(player)
    if player.joined_round > 1 and event.late_entry == Event.LateEntry.NONE:
        return game_words.gettext(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with no record for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    if player.joined_round > 1:
        return game_words.gettext(
            "The bye goes to the lowest-ranked player who has not had one: %(name)s, who entered late "
            "(in round %(joined)s, with losses for the rounds before)."
        ) % {"name": name, "joined": player.joined_round}
    return game_words.gettext("The bye goes to the lowest-ranked player who has not had one: %(name)s.") % {
        "name": name
    }


# --- A match's history -------------------------------------------------------------------------------


def snapshot_label(snap: dict | None, chess: bool = False) -> str:
    """A result as a match's history kept it; `chess`: one game as chess writes it (½-½, not 0-0-1)."""
    if not snap:
        return _("no result")
    if snap.get("games"):
        a, b, d = snap["games"]
        if chess and (a, b, d) in CHESS_RESULTS:
            return CHESS_RESULTS[(a, b, d)]
        return f"{a}-{b}-{d}" if d else f"{a}-{b}"
    result = snap.get("result", "")
    return result_word(result)


@dataclass(frozen=True)
class ChangeLine:
    """A result change as a history reads it: the result before and after, who stored it (a person at the desk,
    or the player whose phone's report stored it), and what each player had reported from their phone."""

    at: object  # when (a datetime)
    match: Match
    who: str
    before_label: str
    after_label: str
    versions: list[tuple[str, str]] = field(default_factory=list)  # (name, what they reported)


def change_lines(changes, chess: bool = False) -> list[ChangeLine]:
    """`changes` (ResultChange rows with `by`, `player` and their match's players: select_related) as lines."""
    lines = []
    for c in changes:
        if c.by_id:
            who = c.by.get_username()
        elif c.player_id:
            who = _("%(name)s, by phone") % {"name": c.player.name}
        else:
            who = "—"
        m = c.match
        players = {p.pk: p for p in (m.player_a, m.player_b) if p is not None}
        versions = []
        for r in c.reports:
            reporter = players.get(r["player"])
            games = tuple(r["games"]) if r["games"] else None
            text = _("that's not right") if r["disputes"] else told(games, r["result"], m, chess)
            versions.append((reporter.name if reporter else "?", text))
        lines.append(
            ChangeLine(c.at, m, who, snapshot_label(c.before, chess), snapshot_label(c.after, chess), versions)
        )
    return lines
