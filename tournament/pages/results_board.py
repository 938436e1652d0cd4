"""The round's results page (organisers and judges, often on a phone on the floor): the counts, which
tables it shows in which order, and what each table's row says.

Every table is empty, reported (waiting for the opponent), disputed or stored. A large round opens on
what needs a judge (disputed, then waiting, oldest first) and one range of tables, so a judge's phone
loads it quickly; the full list is one click away.

The cost of the page is a constant number of queries whatever the size of the round (the counts, the
open reports, the rows shown and their reports, the event's names) and a small amount of work per row
shown: what a row says (its words, links and buttons) is prepared once per page (`pages/round.py`,
`MatchRow`), so the template only places it.
"""

from dataclasses import dataclass, field

from django.db.models import Count, F, Q

from tournament.models import Event, Match, Player, Report, Round
from tournament.services.locks import awaiting_result
from tournament.text import name_search

LARGE_ROUND = 150
RANGE_TABLES = 30
ATTENTION_ROWS = 40
VIEWS = ("default", "all", "attention", "disputed", "waiting", "outstanding")


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
        stored=Count("id", filter=game & ~awaiting_result()),
        outstanding=Count("id", filter=awaiting_result()),
        entered=Count(
            "id",
            filter=Q(games_a__isnull=False) | Q(result__in=[Match.Result.DOUBLE_LOSS, Match.Result.FORFEIT]),
        ),
        matches=Count("id"),
    )
    open_reports: dict[int, list[Report]] = {}
    for r in Report.objects.filter(awaiting_result("match__"), match__round=rnd):
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
    reports: dict[int, list[Report]] = field(default_factory=dict)  # by match id, for every match shown

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
        shown = list(rows.filter(awaiting_result()))
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
        return Overview(c, shown, attention, large, view, start, q, reports_of(both))
    return Overview(c, shown, [], large, view, start, q, reports_of(shown))


def reports_of(matches: list[Match]) -> dict[int, list[Report]]:
    """Each match's reports by its id, in one query (cheaper per row than prefetch_related)."""
    by_match: dict[int, list[Report]] = {m.pk: [] for m in matches}
    for r in Report.objects.filter(match__in=list(by_match)):
        by_match[r.match_id].append(r)
    return by_match


def _in_order(matches, ids: list[int]) -> list[Match]:
    by_id = {m.pk: m for m in matches}
    return [by_id[pk] for pk in ids if pk in by_id]


def phone_drops(event: Event, rnd: Round) -> list[Player]:
    """Players who dropped themselves from their phones after this round (still dropped)."""
    dropped = list(event.players.filter(dropped_after=rnd.number))
    if not dropped:
        return []
    asked = event.log.filter(action="drop", detail__asked_by_player=True, detail__after_round=rnd.number)
    keys = {detail["player"] for detail in asked.values_list("detail", flat=True)}
    return [p for p in dropped if p.key in keys]
