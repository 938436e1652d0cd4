"""What the public pages of one event (or one section) show: each page's context, made only when the page is
rendered for a new event version (views/public.py answers the request, views/public_cache.py the HTTP).
Drafts are never shown: everything reads published rounds only."""

from collections import Counter

from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext

from pairing import topcut
from tournament.models import Event, Match, Player, Round
from tournament.pages.memo import BUILD, RowIndex, joined, lagging, row_index
from tournament.pages.rows import (
    absent_rows,
    bracket_match,
    clock_of,
    pairing_rows,
    player_line,
    published_rounds,
    qr_svg,
    round_title,
    standings_table,
    winner_of,
)
from tournament.pages.trail import player_trail, round_trail
from tournament.services.cut import cut_made, player_text
from tournament.services.divisions import joined_into
from tournament.services.locks import awaiting_result
from tournament.services.norms import round_norms
from tournament.services.standings import settled_marker
from tournament.services.top_cut import (
    division_cut,
    final_places,
    final_placings,
    placings_by_division,
    stage_name,
    stage_names,
)
from tournament.text import game_words, l10n, norm_text

STANDINGS_PAGE_SIZE = 100
SCREEN_TABLES_LISTED = 24  # the screen names the tables still playing up to this many, then "…"
# A search answers at most this many rows ("type more of your name" for the rest).
SEARCH_ROWS = 50


def home_context(event: Event, url: str) -> dict:
    rounds = published_rounds(event)
    current = rounds[-1] if rounds else None
    return {
        "event": event,
        "current": current,
        "clock": clock_of(current),
        "round_title": round_title(current) if current else "",
        "has_bracket": event.top_cut > 0 or any(r.kind == Round.Kind.ELIMINATION for r in rounds),
        "placings": final_placings(event) if current and current.kind == Round.Kind.ELIMINATION else None,
        "player_count": event.players.count(),
        "joined_into": joined_into(event),
        "qr": qr_svg(url),
        "url": url,
        "nav": "home",
    }


def pairings_context(event: Event, q: str) -> dict:
    page = pairings_page(event, exact=not q)
    rows, absent = page["rows"], page["absent"]
    paired, shown = rows.rows, absent.rows
    found = len(paired) + len(shown)
    if q:
        # Picked out of the rows rendered for this version: a search renders no row and reads no player.
        paired, shown = rows.find(q), page["absent_found"].find(q)
        found, paired = len(paired) + len(shown), paired[:SEARCH_ROWS]
        shown = shown[: SEARCH_ROWS - len(paired)]
    return {
        "event": event,
        "round": page["round"],
        "clock": clock_of(page["round"]),
        "body": joined([*paired, *shown]),
        "paired": len(paired),
        "found": found,
        "shown": len(paired) + len(shown),
        "q": q,
        "has_bracket": page["has_bracket"],
        "top_cut_running": page["top_cut_running"],
        "top_cut_over": page["top_cut_over"],
        "trail": page["trail"],
        "nav": "pairings",
    }


def pairings_page(event: Event, exact: bool) -> dict:
    """What the pairings page shows for this event version, in this language, whoever asks and whatever they
    search for: the latest Swiss round, and its rows rendered (tournament/pages/memo.py RowIndex). A search
    (not `exact`) may read a busy event's last rendered rows, as the page itself may lag."""

    def make() -> dict:
        rounds = published_rounds(event)
        swiss = [r for r in rounds if r.kind == Round.Kind.SWISS]
        current = swiss[-1] if swiss else None
        rows = pairing_rows(event, current) if current else []
        absent = absent_rows(event, current, rows) if current else []
        template = "public/pairings.html#rows"
        context = {"event": event}
        in_top_cut = bool(rounds) and rounds[-1].kind == Round.Kind.ELIMINATION
        # The final is the elimination round of one match: played once it has a winner.
        final = list(rounds[-1].matches.all()[:2]) if in_top_cut else []
        final_played = len(final) == 1 and final[0].winner is not None
        # What a row's HTML depends on besides the row: the build, the language, the event's address and its
        # roster (a name is shown with its number while another player has the same one).
        shape = f"{BUILD}:{get_language()}:{event.pk}:{event.slug}:{settled_marker(event, 0)}"
        return {
            "round": current,
            "rows": row_index(template, context, rows, f"{shape}:rows"),
            # Everybody's page keeps the absent hidden until the filter looks for them; a search shows them.
            "absent": row_index("public/pairings.html#absent", context | {"hidden": True}, absent, f"{shape}:hidden"),
            "absent_found": row_index("public/pairings.html#absent", context, absent, f"{shape}:absent"),
            "has_bracket": event.top_cut > 0 or any(r.kind == Round.Kind.ELIMINATION for r in rounds),
            "top_cut_running": in_top_cut and not final_played,
            "top_cut_over": final_played,
            # The round's changes since it was published, in this language (pages/trail.py).
            "trail": round_trail(event, current.number if current else None),
        }

    return lagging(f"pairings-page:{get_language()}", event, make, _html_size, exact)


def standings_context(event: Event, page: int, q: str) -> dict:
    if q:
        # Picked out of the rows rendered for this version: a search renders no row and reads no player.
        found = standings_found(event)
        table, placings, rows = found["table"], found["placings"], found["rows"].find(q)
    else:
        table, placings = standings_table(event), placings_by_division(event)
        rows = table["rows"]
    pages = paged(rows, page)
    page_obj = pages["page"]
    params: dict[str, object] = {"q": q} if q else {}
    if page_obj.number > 1:
        params["page"] = page_obj.number
    query = urlencode(params)
    return pages | {
        "event": event,
        "table": table,
        "body": joined(page_obj.object_list) if q else "",
        "page_url": reverse("public:standings", args=[event.slug]) + (f"?{query}" if query else ""),
        "q": q,
        "placings": placings,
        "has_bracket": event.top_cut > 0,
        "nav": "standings",
    }


def standings_found(event: Event) -> dict:
    """What a standings search reads, once per event version and language: the table without its rows, and
    every row rendered (tournament/pages/memo.py RowIndex). Made by the first search of a version, so that
    the pages everybody polls still render only their hundred rows; at a busy event, the last one made stands
    in for a while, as a big page does."""

    def make() -> dict:
        table = standings_table(event)
        return {
            "table": {k: v for k, v in table.items() if k != "rows"},
            "rows": row_index(
                "public/standings.html#rows",
                {"event": event, "searching": True, "table": {"prizes": table.get("prizes", False)}},
                table["rows"],
            ),
            "placings": placings_by_division(event),
        }

    return lagging(f"standings-found:{get_language()}", event, make, _html_size, exact=False)


def _html_size(page: dict) -> int:
    return sum(len(row) for index in page.values() if isinstance(index, RowIndex) for row in index.rows)


def player_context(event: Event, pk: int) -> dict:
    person = get_object_or_404(event.players, pk=pk)
    matches = (
        Match.objects.filter(Q(player_a=person) | Q(player_b=person), round__event=event)
        .exclude(round__state=Round.State.DRAFT)
        .select_related("round", "player_a", "player_b")
        .order_by("round__number")
    )
    stages = stage_names(event)
    lines = [player_line(m, person, stages) for m in matches]
    played = {line["number"] for line in lines}
    # Pre-awarded byes (rounds 1..k) need no match row; show them in every published round.
    rounds = published_rounds(event)
    published = {r.number for r in rounds}
    for number in range(1, person.byes + 1):
        if number in published and number not in played:
            label = gettext("Round %(number)s") % {"number": number}
            lines.append(
                {"number": number, "label": label, "outcome": "bye", "text": game_words.gettext("Bye (awarded)")}
            )
    lines.sort(key=lambda line: line["number"])
    table = standings_table(event)
    row = next((r for r in table["rows"] if r.pk == person.pk), None)
    places = final_places(event)
    return {
        "event": event,
        "player": person,
        "lines": lines,
        "row": row,
        "day2": player_text(event, person, cut_made(event), row.rank if row else None, own=False),
        "label": table["label"],
        "final_place": places.get(person.pk) if places else None,
        "tiebreakers": list(zip(table["headers"], row.tiebreakers, strict=True)) if row else [],
        "has_bracket": event.top_cut > 0,
        # The changes made after publication to the tables this player was or is at (pages/trail.py).
        "trail": player_trail(event, person.key, sorted(published)),
        # A chess event that asks for title norms: the norms this player has made or still has in reach.
        "norms": norm_lines(event, rounds[-1] if rounds else None, person),
    }


def norm_lines(event: Event, rnd: Round | None, person: Player) -> list[str]:
    """The public page's sentence for each norm the player has made or still has in reach, as round `rnd` (the
    latest published) began."""
    chances = round_norms(event, rnd).get(person.key)
    lines = [norm_text.public_line(person.name, c) for c in chances.norms] if chances else []
    return [line for line in lines if line]


def screen_context(event: Event, url: str) -> dict:
    return screen_board(event) | {"qr": qr_svg(url), "url": url}


def screen_board(event: Event) -> dict:
    """What the screen shows of one event or section, without the address and its QR code (a venue's screen
    shows one of those for all its sections)."""
    rounds = published_rounds(event)
    current = rounds[-1] if rounds else None
    playing = (
        list(
            current.matches.filter(awaiting_result(), player_b__isnull=False)
            .order_by("table")
            .values_list("table", flat=True)
        )
        if current
        else []
    )
    # Between rounds (nothing published yet, or every result of the round in) the screen shows standings;
    # once the final is played, the final placings.
    between = not playing
    placings = None
    if between and current and current.kind == Round.Kind.ELIMINATION:
        places = final_places(event)
        if places:
            names = dict(event.players.values_list("pk", "name"))
            placings = sorted((place, pk, names[pk]) for pk, place in places.items())
    shown = [str(t) for t in playing[:SCREEN_TABLES_LISTED]]
    rows = [] if between else pairing_rows(event, current)
    return {
        "event": event,
        "round": current,
        "round_title": round_title(current) if current else "",
        "clock": None if between else clock_of(current),
        "between": between,
        "playing": playing,
        "playing_text": l10n.join(shown) + (" …" if len(playing) > len(shown) else ""),
        "rows": rows,
        # A chess event's screen lists boards, White and Black, as its pairing lists do.
        "boards": board_rows(rows) if event.colours else [],
        "table": standings_table(event) if between and not placings else None,
        "placings": placings,
    }


def board_rows(rows: list) -> list[dict]:
    """A round's pairing rows (one per player) as boards: (board, White, Black) by board, then the players
    without a board (a bye) by name."""
    boards = [
        {"table": r.table, "white": (r.pk, r.name), "black": (r.opponent_pk, r.opponent), "done": bool(r.result)}
        for r in rows
        if r.opponent and r.colour == "w"
    ]
    boards.sort(key=lambda b: (b["table"] is None, b["table"] or 0))
    return boards + [
        {"table": None, "white": (r.pk, r.name), "note": r.note, "done": True} for r in rows if not r.opponent
    ]


def bracket_context(event: Event) -> dict:
    """The top cut as drawn: one bracket, or one per division (each cut and prized apart, side by side in the
    same rounds), each with its stages, its champion once its final is played, and its placings."""
    rounds = [r for r in published_rounds(event) if r.kind == Round.Kind.ELIMINATION]
    # Seeds as the top cut was seeded: the final Swiss order without dropped players, in each division.
    everyone = standings_table(event)["rows"]
    rows = [r for r in everyone if not r.dropped]
    seeds: dict[int, int] = {}
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.division] = counts.get(r.division, 0) + 1
        seeds[r.pk] = counts[r.division]
    by_round: dict[int, dict[str, list[Match]]] = {r.pk: {} for r in rounds}
    for m in Match.objects.filter(round__in=rounds).select_related("player_a", "player_b").order_by("table", "id"):
        by_round[m.round_id].setdefault(m.player_a.division, []).append(m)
    names = list(dict.fromkeys(name for r in rounds for name in by_round[r.pk]))
    placed = dict(placings_by_division(event) or []) if rounds else {}
    brackets = []
    for name in names:
        # A division's bracket may end before another's (each is sized by its own attendance).
        columns = _bracket_columns([(r, by_round[r.pk][name]) for r in rounds if name in by_round[r.pk]], seeds)
        champion = None
        if columns and len(columns[-1]["matches"]) == 1 and columns[-1]["round"] is not None:
            final = columns[-1]["matches"][0]
            champion = next((side for side in final["sides"] if side["won"]), None)
        brackets.append(
            {
                "division": name,
                "columns": columns,
                "champion": champion,
                "placings": placed.get(name) if champion else None,
            }
        )
    projected = []
    if not rounds and event.top_cut and event.top_cut & (event.top_cut - 1) == 0:
        attendance = Counter(r.division for r in everyone)
        for name in dict.fromkeys(r.division for r in rows):
            size = division_cut(attendance[name], event.top_cut) if name else event.top_cut
            top = [r for r in rows if r.division == name][:size]
            if size and len(top) == size:
                seeded = [{"seed": k, "name": r.name} for k, r in enumerate(top, 1)]
                projected.append({"division": name, "pairs": topcut.bracket(seeded)})
    return {
        "event": event,
        "brackets": brackets,
        "projected": projected,
        "has_bracket": True,
        "nav": "bracket",
    }


def _bracket_columns(rounds: list[tuple[Round, list[Match]]], seeds: dict[int, int]) -> list[dict]:
    """One bracket's stages: its matches of each round, then the stages still to come."""
    columns = []
    position: dict[int, int] = {}  # player pk -> index of their match in the previous stage
    for r, ms in rounds:
        if position:
            # Line each match up under the matches its players came from, as a bracket is drawn.
            ms.sort(key=lambda m: min(position.get(m.player_a_id, 99), position.get(m.player_b_id or 0, 99)))
        position = {}
        for i, m in enumerate(ms):
            position[m.player_a_id] = i
            if m.player_b_id:
                position[m.player_b_id] = i
        columns.append({"round": r, "title": stage_name(len(ms)), "matches": [bracket_match(m, seeds) for m in ms]})
    # The stages still to come are drawn too (the Final during the semis): winners of the matches before.
    while columns and len(columns[-1]["matches"]) > 1:
        before = columns[-1]["matches"]
        ahead = []
        for k in range(0, len(before), 2):
            sides = [winner_of(before[k + j], columns[-1]["title"], k + j + 1) for j in (0, 1)]
            ahead.append({"table": None, "sides": sides, "done": False, "ahead": True})
        columns.append({"round": None, "title": stage_name(len(ahead)), "matches": ahead})
    return columns


def paged(rows, page: int) -> dict:
    """One page of a long table's rows (public/_pager.html): the page, and the numbers its pager shows (None
    for a gap)."""
    paginator = Paginator(rows, STANDINGS_PAGE_SIZE)
    page_obj = paginator.get_page(page)
    numbers = paginator.get_elided_page_range(page_obj.number, on_each_side=2, on_ends=1)
    return {"page": page_obj, "page_numbers": [n if isinstance(n, int) else None for n in numbers]}
