"""Public pages: what players see on their phones and what the venue screen shows. Read-only, no login.

Each view fetches the event row (one query), and `public_response` answers 304 for an unchanged page
before any other work; the context functions below run only when a page has to be rendered for a new
event version. Drafts are never shown: everything reads published rounds only.
"""

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

import segno
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

import standings
from pairing import topcut
from standings.format import LABELS, format_number
from tournament import services
from tournament.access import HtmxHttpRequest
from tournament.models import Event, Match, Player, Round
from tournament.public_cache import cached, event_key, event_standings, is_fragment, public_event, public_response

STANDINGS_PAGE_SIZE = 100
MAX_QUERY = 60


# --- Views ---------------------------------------------------------------------------------------


@require_safe
def home(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    # The QR code holds this page's absolute address, so the rendering depends on the host asked for.
    url = request.build_absolute_uri(reverse("public:home", args=[slug]))
    template = "public/home.html"
    if is_fragment(request):
        template += "#live"
    return public_response(request, event, template, lambda: home_context(event, url), url)


@require_safe
def pairings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    q = _query(request)
    template = "public/pairings.html"
    if is_fragment(request):
        template += "#pairings"
    return public_response(request, event, template, lambda: pairings_context(event, q), q, store=not q)


@require_safe
def standings_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    q = _query(request)
    page = request.GET.get("page", "1")[:6]
    template = "public/standings.html"
    if is_fragment(request):
        template += "#standings"
    return public_response(request, event, template, lambda: standings_context(event, page, q), page, q, store=not q)


@require_safe
def player(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    event = public_event(request, slug)
    template = "public/player.html"
    if is_fragment(request):
        template += "#matches"
    return public_response(request, event, template, lambda: player_context(event, pk), pk)


@require_safe
def screen(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    url = request.build_absolute_uri(reverse("public:home", args=[slug]))
    template = "public/screen.html"
    if is_fragment(request):
        template += "#board"
    return public_response(request, event, template, lambda: screen_context(event, url), url)


@require_safe
def bracket(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    event = public_event(request, slug)
    template = "public/bracket.html"
    if is_fragment(request):
        template += "#bracket"
    return public_response(request, event, template, lambda: bracket_context(event))


# --- Page contexts (run only when a page is rendered for a new event version) --------------------


def home_context(event: Event, url: str) -> dict:
    rounds = published_rounds(event)
    current = rounds[-1] if rounds else None
    return {
        "event": event,
        "current": current,
        "clock": clock_of(current),
        "has_bracket": event.top_cut > 0 or any(r.kind == Round.Kind.ELIMINATION for r in rounds),
        "player_count": event.players.count(),
        "qr": qr_svg(url),
        "url": url,
        "nav": "home",
    }


def pairings_context(event: Event, q: str) -> dict:
    rounds = published_rounds(event)
    swiss = [r for r in rounds if r.kind == Round.Kind.SWISS]
    current = swiss[-1] if swiss else None
    rows = pairing_rows(event, current) if current else []
    if q:
        rows = [r for r in rows if _matches(q, r.name)]
    return {
        "event": event,
        "round": current,
        "clock": clock_of(current),
        "rows": rows,
        "q": q,
        "has_bracket": event.top_cut > 0 or any(r.kind == Round.Kind.ELIMINATION for r in rounds),
        "top_cut_running": bool(rounds) and rounds[-1].kind == Round.Kind.ELIMINATION,
        "nav": "pairings",
    }


def standings_context(event: Event, page: str, q: str) -> dict:
    table = standings_table(event)
    rows = table["rows"]
    if q:
        rows = [r for r in rows if _matches(q, r.name)]
    paginator = Paginator(rows, STANDINGS_PAGE_SIZE)
    page_obj = paginator.get_page(page)
    numbers = paginator.get_elided_page_range(page_obj.number, on_each_side=2, on_ends=1)
    params: dict[str, object] = {"q": q} if q else {}
    if page_obj.number > 1:
        params["page"] = page_obj.number
    query = urlencode(params)
    return {
        "event": event,
        "table": table,
        "page": page_obj,
        "page_numbers": [n if isinstance(n, int) else None for n in numbers],
        "page_url": reverse("public:standings", args=[event.slug]) + (f"?{query}" if query else ""),
        "q": q,
        "has_bracket": event.top_cut > 0,
        "nav": "standings",
    }


def player_context(event: Event, pk: int) -> dict:
    person = get_object_or_404(event.players, pk=pk)
    matches = (
        Match.objects.filter(Q(player_a=person) | Q(player_b=person), round__event=event)
        .exclude(round__state=Round.State.DRAFT)
        .select_related("round", "player_a", "player_b")
        .order_by("round__number")
    )
    lines = [_player_line(m, person) for m in matches]
    played = {line["number"] for line in lines}
    # Pre-awarded byes (rounds 1..k) need no match row; show them in every published round.
    published = {r.number for r in published_rounds(event)}
    for number in range(1, person.byes + 1):
        if number in published and number not in played:
            lines.append({"number": number, "label": f"Round {number}", "outcome": "bye", "text": "Bye (awarded)"})
    lines.sort(key=lambda line: line["number"])
    table = standings_table(event)
    row = next((r for r in table["rows"] if r.pk == person.pk), None)
    return {
        "event": event,
        "player": person,
        "lines": lines,
        "row": row,
        "tiebreakers": list(zip(table["headers"], row.tiebreakers, strict=True)) if row else [],
        "has_bracket": event.top_cut > 0,
    }


def screen_context(event: Event, url: str) -> dict:
    rounds = published_rounds(event)
    current = rounds[-1] if rounds else None
    # Between rounds (nothing published yet, or every result of the round in) the screen shows standings.
    between = (
        current is None
        or current.state == Round.State.COMPLETE
        or not current.matches.filter(result=Match.Result.PLAYED, games_a__isnull=True).exists()
    )
    return {
        "event": event,
        "round": current,
        "round_title": round_title(current) if current else "",
        "clock": clock_of(current),
        "between": between,
        "rows": [] if between else pairing_rows(event, current),
        "table": standings_table(event) if between else None,
        "qr": qr_svg(url),
        "url": url,
    }


def bracket_context(event: Event) -> dict:
    rounds = [r for r in published_rounds(event) if r.kind == Round.Kind.ELIMINATION]
    # Seeds as the top cut was seeded: the final Swiss order without dropped players.
    seeds = {r.pk: k for k, r in enumerate((r for r in standings_table(event)["rows"] if not r.dropped), 1)}
    by_round: dict[int, list[Match]] = {r.pk: [] for r in rounds}
    for m in Match.objects.filter(round__in=rounds).select_related("player_a", "player_b").order_by("table", "id"):
        by_round[m.round_id].append(m)
    columns = []
    position: dict[int, int] = {}  # player pk -> index of their match in the previous stage
    for r in rounds:
        ms = by_round[r.pk]
        if position:
            # Line each match up under the matches its players came from, as a bracket is drawn.
            ms.sort(key=lambda m: min(position.get(m.player_a_id, 99), position.get(m.player_b_id or 0, 99)))
        position = {}
        for i, m in enumerate(ms):
            position[m.player_a_id] = i
            if m.player_b_id:
                position[m.player_b_id] = i
        columns.append({"round": r, "title": stage_name(len(ms)), "matches": [_bracket_match(m, seeds) for m in ms]})
    champion = None
    if columns and len(columns[-1]["matches"]) == 1:
        final = columns[-1]["matches"][0]
        champion = next((side for side in final["sides"] if side["won"]), None)
    projected = []
    if not rounds and event.top_cut:
        top = [r for r in standings_table(event)["rows"] if not r.dropped][: event.top_cut]
        if len(top) == event.top_cut and event.top_cut & (event.top_cut - 1) == 0:
            seeded = [{"seed": k, "name": r.name} for k, r in enumerate(top, 1)]
            projected = topcut.bracket(seeded)
    return {
        "event": event,
        "columns": columns,
        "champion": champion,
        "placings": services.final_placings(event) if champion else None,
        "projected": projected,
        "has_bracket": True,
        "nav": "bracket",
    }


# --- Shared pieces ---------------------------------------------------------------------------------


def published_rounds(event: Event) -> list[Round]:
    return list(event.rounds.exclude(state=Round.State.DRAFT).order_by("number"))


def round_title(rnd: Round) -> str:
    if rnd.kind == Round.Kind.SWISS:
        return f"Round {rnd.number}"
    return f"Top cut: {stage_name(rnd.matches.count())}"


def stage_name(matches: int) -> str:
    return {1: "Final", 2: "Semifinals", 4: "Quarterfinals"}.get(matches, f"Top {matches * 2}")


@dataclass(frozen=True)
class Clock:
    """The round clock as the browser counts it: from the server's deadline, or frozen while paused."""

    deadline_ms: int | None  # running: when it reaches zero (epoch milliseconds)
    seconds_left: int | None  # paused: what is left
    deadline: datetime | None = None  # running: the aware datetime, for the page without JavaScript

    @property
    def paused(self) -> bool:
        return self.deadline_ms is None

    @property
    def text(self) -> str:
        left = self.seconds_left or 0
        sign = "−" if left < 0 else ""
        return f"{sign}{abs(left) // 60}:{abs(left) % 60:02d}"


def clock_of(rnd: Round | None) -> Clock | None:
    if rnd is None or rnd.clock_started is None or rnd.state == Round.State.COMPLETE:
        return None
    deadline = rnd.clock_deadline
    if deadline is None:
        return Clock(deadline_ms=None, seconds_left=rnd.seconds_left())
    return Clock(deadline_ms=int(deadline.timestamp() * 1000), seconds_left=None, deadline=deadline)


def qr_svg(url: str) -> str:
    # segno writes only path data (no text from the URL), so the markup is ours to trust.
    svg = segno.make(url, error="m").svg_inline(scale=1, omitsize=True, dark="#000", light="#fff", border=2)
    return mark_safe(svg)  # noqa: S308


@dataclass(frozen=True)
class PairingRow:
    name: str
    pk: int
    table: int | None
    points: str
    opponent: str = ""
    opponent_pk: int | None = None
    opponent_points: str = ""
    note: str = ""  # bye, unpaired loss, ...
    result: str = ""  # from this player's side: "won 2-1", "lost", "draw"


def pairing_rows(event: Event, rnd: Round) -> list[PairingRow]:
    """Every player of the round, sorted by name (a venue's pairings): one row per player, not per table."""

    def make() -> list[PairingRow]:
        matches = list(rnd.matches.select_related("player_a", "player_b"))
        players = list(event.players.only("id", "event", "name", "file_id", "byes"))
        seated = {p.pk for m in matches for p in (m.player_a, m.player_b) if p}
        # Pre-awarded byes (rounds 1..k) need no match row.
        awarded = [p for p in players if p.pk not in seated and p.byes >= rnd.number and rnd.kind == Round.Kind.SWISS]
        points = points_before(event, rnd, matches, awarded)

        def pts(p: Player) -> str:
            return format_number(points.get(p.key, Fraction(0)))

        rows = []
        for m in matches:
            a, b = m.player_a, m.player_b
            if b is None:
                note = "Unpaired loss" if m.result == Match.Result.LOSS else "Bye"
                rows.append(PairingRow(a.name, a.pk, m.table, pts(a), note=note))
                continue
            rows.append(PairingRow(a.name, a.pk, m.table, pts(a), b.name, b.pk, pts(b), result=_side_result(m, True)))
            rows.append(PairingRow(b.name, b.pk, m.table, pts(b), a.name, a.pk, pts(a), result=_side_result(m, False)))
        rows += [PairingRow(p.name, p.pk, None, pts(p), note="Bye (awarded)") for p in awarded]
        rows.sort(key=lambda r: (_fold(r.name), r.pk))
        return rows

    return cached(f"public-pairings:{event_key(event)}:{rnd.pk}", make)


def points_before(event: Event, rnd: Round, matches: list[Match], awarded: list[Player]) -> dict[str, Fraction]:
    """Match points going into `rnd`, by player key: what pairings show next to each name.

    The event's standings minus what this round's results already gave, so that a result coming in
    does not cost a second standings computation: a win (or a bye, awarded or paired) is worth the
    event's win points, a draw its draw points, any loss (unpaired, double) its loss points.
    """
    latest = event_standings(event)
    points = {r.player_id: r.points for r in latest.rows}
    if rnd.kind != Round.Kind.SWISS or latest.after_round < rnd.number:
        return points  # the standings stop before this round
    win, draw, loss = event.scoring

    def earned(m: Match, p: Player) -> Fraction:
        if m.result == Match.Result.BYE:
            return win
        if m.result in (Match.Result.LOSS, Match.Result.DOUBLE_LOSS):
            return loss
        if m.games_a is None:
            return Fraction(0)
        return draw if m.winner is None else win if m.winner == p else loss

    for m in matches:
        for p in (m.player_a, m.player_b):
            if p is not None and p.key in points:
                points[p.key] -= earned(m, p)
    for p in awarded:
        if p.key in points:
            points[p.key] -= win
    return points


@dataclass(frozen=True)
class StandingRow:
    rank: int
    pk: int
    name: str
    points: str
    record: str
    tiebreakers: tuple[str, ...]
    dropped: bool


def standings_table(event: Event) -> dict:
    """The event's standings formatted for display once per version, shared by every page and search."""

    def make() -> dict:
        result = event_standings(event)
        pk_of = {p.key: p.pk for p in event.players.only("id", "event", "file_id")}
        rows = [
            StandingRow(
                rank=r.rank,
                pk=pk_of[r.player_id],
                name=r.name,
                points=format_number(r.points),
                record=f"{r.wins}-{r.losses}-{r.draws}",
                tiebreakers=tuple(standings.format_value(c, v) for c, v in r.tiebreakers.items()),
                dropped=r.dropped,
            )
            for r in result.rows
        ]
        return {
            "after_round": result.after_round,
            "headers": [LABELS.get(c, c) for c in result.tiebreakers],
            "rows": rows,
        }

    return cached(f"public-standings:{event_key(event)}", make)


def _side_result(m: Match, side_a: bool) -> str:
    if m.result == Match.Result.DOUBLE_LOSS:
        return "double loss"
    if m.games_a is None:
        return ""
    mine, theirs = (m.games_a, m.games_b) if side_a else (m.games_b, m.games_a)
    score = f"{mine}-{theirs}" + (f"-{m.games_drawn}" if m.games_drawn else "")
    if mine == theirs:
        return f"draw {score}"
    return f"{'won' if mine > theirs else 'lost'} {score}"


def _player_line(m: Match, person: Player) -> dict:
    r = m.round
    label = f"Round {r.number}" if r.kind == Round.Kind.SWISS else f"Top cut (round {r.number})"
    line = {"number": r.number, "label": label, "table": m.table}
    if m.player_b is None:
        lost = m.result == Match.Result.LOSS
        return line | {"outcome": "loss" if lost else "bye", "text": "Unpaired loss" if lost else "Bye"}
    side_a = m.player_a_id == person.pk
    line["opponent"] = m.player_b if side_a else m.player_a
    text = _side_result(m, side_a)
    line["text"] = text or "in progress"
    line["outcome"] = text.split(" ")[0] if text else "pending"
    if m.result == Match.Result.DOUBLE_LOSS:
        line["outcome"] = "loss"
    return line


def _bracket_match(m: Match, seeds: dict[int, int]) -> dict:
    winner = m.winner
    sides = []
    for p, games in ((m.player_a, m.games_a), (m.player_b, m.games_b)):
        if p is None:
            sides.append({"name": "Bye", "pk": None, "seed": None, "games": None, "won": False})
        else:
            sides.append({"name": p.name, "pk": p.pk, "seed": seeds.get(p.pk), "games": games, "won": winner == p})
    return {"table": m.table, "sides": sides, "done": m.has_result}


def _fold(text: str) -> str:
    """Case- and accent-insensitive form for sorting and searching ("Bjørn" keeps its ø, "José" finds "jose")."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _matches(q: str, name: str) -> bool:
    return _fold(q) in _fold(name)


def _query(request: HttpRequest) -> str:
    return " ".join(request.GET.get("q", "").split())[:MAX_QUERY]
