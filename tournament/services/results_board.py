"""The round's results page (organisers and judges, often on a phone on the floor): the counts, which
tables it shows in which order, and what each table's row says.

Every table is empty, reported (waiting for the opponent), disputed or stored. A large round opens on
what needs a judge (disputed, then waiting, oldest first) and one range of tables, so a judge's phone
loads it quickly; the full list is one click away.

The cost of the page is a constant number of queries whatever the size of the round (the counts, the
open reports, the rows shown and their reports, the event's names) and a small amount of work per row
shown: everything a row says is prepared here once (`Rows`), so the template only places it.
"""

from dataclasses import dataclass

from django.db.models import Count, F, Q
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext as _

from tournament.models import Event, Match, Player, Report, Round
from tournament.services.reports import DISPUTED, STORED, WAITING, status, told
from tournament.services.standings import chess_idents
from tournament.text import name_search
from tournament.text.names import Names

LARGE_ROUND = 150
RANGE_TABLES = 30
ATTENTION_ROWS = 40
VIEWS = ("default", "all", "attention", "disputed", "waiting", "outstanding")

# A match with no result yet (`Match.has_result` in SQL).
NO_RESULT = Q(result=Match.Result.PLAYED, games_a__isnull=True)


@dataclass
class Counts:
    """The round's tables by state, for the counts at the top ("412 of 512 stored, 3 disputed")."""

    total: int  # games between two players (byes are not reported)
    stored: int
    outstanding: int  # results still to come, the desk's "N results outstanding"
    entered: bool  # any result entered at all (a round with none can still be paired again)
    matches: int  # every match of the round, byes included
    disputed: list[int]  # match ids, oldest report first
    waiting: list[int]


def counts(rnd: Round) -> Counts:
    """Two queries: the matches counted by state, and the open reports (which say disputed or waiting)."""
    game = Q(player_b__isnull=False)
    c = rnd.matches.aggregate(
        total=Count("id", filter=game),
        stored=Count("id", filter=game & ~NO_RESULT),
        outstanding=Count("id", filter=NO_RESULT),
        entered=Count(
            "id",
            filter=Q(games_a__isnull=False) | Q(result__in=[Match.Result.DOUBLE_LOSS, Match.Result.FORFEIT]),
        ),
        matches=Count("id"),
    )
    open_reports: dict[int, list[Report]] = {}
    for r in Report.objects.filter(match__round=rnd, match__result=Match.Result.PLAYED, match__games_a__isnull=True):
        open_reports.setdefault(r.match_id, []).append(r)
    disputed, waiting = [], []
    for match_id, rs in sorted(open_reports.items(), key=lambda item: min(r.at for r in item[1])):
        contested = any(r.disputes for r in rs) or (len(rs) == 2 and not rs[0].agrees_with(rs[1]))
        (disputed if contested else waiting).append(match_id)
    return Counts(c["total"], c["stored"], c["outstanding"], c["entered"] > 0, c["matches"], disputed, waiting)


@dataclass
class Overview:
    """What the round's results page shows: the counts, and which matches in which order."""

    counts: Counts
    matches: list[Match]
    attention: list[Match]
    large: bool
    view: str
    start: int
    q: str

    @property
    def total(self) -> int:
        return self.counts.total

    @property
    def stored(self) -> int:
        return self.counts.stored

    @property
    def disputed(self) -> list[int]:
        return self.counts.disputed

    @property
    def waiting(self) -> list[int]:
        return self.counts.waiting

    @property
    def last(self) -> int:
        return self.start + RANGE_TABLES - 1

    @property
    def earlier(self) -> int | None:
        return max(1, self.start - RANGE_TABLES) if self.start > 1 else None

    @property
    def later(self) -> int | None:
        return self.start + RANGE_TABLES if self.start + RANGE_TABLES <= self.total else None

    @property
    def empty(self) -> int:
        return self.total - self.stored - len(self.disputed) - len(self.waiting)


def overview(rnd: Round, view: str = "default", q: str = "", start: int = 1) -> Overview:
    """The counts and the rows of one view of the results page, in four queries whatever the view."""
    view = view if view in VIEWS else "default"
    c = counts(rnd)
    rows = rnd.matches.select_related("player_a", "player_b", "entered_by").order_by(
        F("table").asc(nulls_last=True), "id"
    )
    large = c.total > LARGE_ROUND
    attention_ids: list[int] = []
    q = q.strip()
    start = max(1, start)
    if q:
        # The folding of every other search (Søren for "soren", やまだ for "ﾔﾏﾀﾞ", 高橋 for "髙橋"), not
        # the database's: SQLite's LIKE folds the case of ASCII only. One query, as the other views.
        table = int(q) if q.isdigit() else None
        shown = [
            m
            for m in rows
            if m.table == table
            or name_search.matches(q, m.player_a.name, m.player_a.reading)
            or (m.player_b and name_search.matches(q, m.player_b.name, m.player_b.reading))
        ][: RANGE_TABLES * 2]
    elif view == "all" or (view == "default" and not large):
        shown = list(rows)
    elif view == "outstanding":
        shown = list(rows.filter(NO_RESULT))
    elif view in ("disputed", "waiting", "attention"):
        ids = {"disputed": c.disputed, "waiting": c.waiting, "attention": c.disputed + c.waiting}[view]
        shown = _in_order(rows.filter(pk__in=ids), ids)
    else:
        # What needs a judge, then one range of tables: one query for both.
        attention_ids = (c.disputed + c.waiting)[:ATTENTION_ROWS]
        in_range = Q(table__gte=start, table__lt=start + RANGE_TABLES)
        both = list(rows.filter(in_range | Q(pk__in=attention_ids)))
        shown = [m for m in both if m.table is not None and start <= m.table < start + RANGE_TABLES]
        attention = _in_order(both, attention_ids)
        _attach_reports(both)
        return Overview(c, shown, attention, large, view, start, q)
    _attach_reports(shown)
    return Overview(c, shown, [], large, view, start, q)


def _attach_reports(matches: list[Match]) -> None:
    """Each match's reports as `report_list`, in one query (cheaper per row than prefetch_related)."""
    by_match: dict[int, list[Report]] = {m.pk: [] for m in matches}
    for r in Report.objects.filter(match__in=list(by_match)):
        by_match[r.match_id].append(r)
    for m in matches:
        m.report_list = by_match[m.pk]


def _in_order(matches, ids: list[int]) -> list[Match]:
    by_id = {m.pk: m for m in matches}
    return [by_id[pk] for pk in ids if pk in by_id]


class Rows:
    """What each row of the results page says, prepared once per page: names (with the player number when
    two players share a name), the state and the players' versions, the result buttons and their labels.

    `prepare(match)` works on a match whose reports `overview` attached, or reads them (one query) for
    the single row an HTMX answer shows. The result buttons are built here, not in the template: they
    are the same for every row but the table and the chosen one, and a template loop of six buttons per
    row was most of the full list's rendering time.
    """

    def __init__(self, event: Event, rnd: Round, choices: list[tuple[str, str]]):
        self.event, self.round = event, rnd
        self._names: Names | None = None
        self._idents: dict | None = None
        self.choices = choices
        # The match's pages under the round's (tournament/urls/organiser.py): reversed once per page, not
        # twice per row (reverse() was a fifth of the full list's time).
        self.round_url = reverse("org_round", args=[event.slug, rnd.number])
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

    def prepare(self, m: Match) -> Match:
        rs = m.report_list if hasattr(m, "report_list") else list(m.reports.all())
        m.state = status(m, rs)
        m.label = m.result_label(self.event.chess_results)
        # Shown in colour order (White first; a forfeit Black won is player A with `white` kept), which is
        # the order the result buttons read (1-0 is White's win).
        first, second = m.colour_order()
        winner = m.winner
        m.won = "" if winner is None else "a" if winner.pk == first.pk else "b"
        m.name_a = self.names.label(first)
        m.name_b = self.names.label(second) if second else ""
        m.ident_a = self.idents.get(first.pk)
        m.ident_b = self.idents.get(second.pk) if second else None
        m.page_url = f"{self.round_url}matches/{m.pk}/"
        m.result_url = f"{m.page_url}result/"
        # Set by the view answering a click; looked up by the template on every row.
        m.error, m.question = getattr(m, "error", None), getattr(m, "question", None)
        m.buttons = format_html_join(
            "",
            '<button type="submit" name="result" value="{}" class="res{}" aria-label="{}">{}</button>',
            (
                (
                    value,
                    " chosen" if value == m.label else "",
                    self.table_label % {"table": m.table, "label": label},
                    label,
                )
                for value, label in self.choices
            ),
        )
        m.entered = ""
        if m.state == STORED and m.player_b_id:
            if m.entered_by_player_id:
                # The player whose report stored it (the one who confirmed, or reported alone).
                reporter = m.name_a if m.entered_by_player_id == m.player_a_id else m.name_b
                m.entered = self.by_phone % {"name": reporter}
            elif m.entered_by_id:
                m.entered = _("by %(name)s") % {"name": m.entered_by.get_username()}
        m.versions = []
        if m.state in (DISPUTED, WAITING):
            for r in rs:
                player = m.player_a if r.player_id == m.player_a_id else m.player_b
                text = self.not_right if r.disputes else told(r.games, r.result, m, self.event.chess_results)
                m.versions.append((player, text))
        return m

    def prepare_all(self, matches: list[Match]) -> list[Match]:
        return [self.prepare(m) for m in matches]


def phone_drops(event: Event, rnd: Round) -> list[Player]:
    """Players who dropped themselves from their phones after this round (still dropped)."""
    dropped = list(event.players.filter(dropped_after=rnd.number))
    if not dropped:
        return []
    asked = event.log.filter(action="drop", detail__asked_by_player=True, detail__after_round=rnd.number)
    keys = {detail["player"] for detail in asked.values_list("detail", flat=True)}
    return [p for p in dropped if p.key in keys]
