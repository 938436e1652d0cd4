"""Rating changes: what each rated game of an event does to a player's rating, exact (docs/ratings.md).

The calculation is a `RatingSystem`: who is rated, a player's development coefficient K, and the expected
score of a game. `FIDE` is the FIDE Rating Regulations (Handbook B.02, in force since 1 March 2024) as they
stand now, `FIDE_BEFORE_OCTOBER_2025` as they stood before 8.3.1 was amended; `fide_for(event)` is the one in
force on the event's start date (swiss.rules), the default. A national system would be another
`RatingSystem` passed to `rating_changes`.

FIDE, as this module applies it:

* A game counts when it was played over the board between two players who both have a rating: a forfeit,
  a bye, a double forfeit and a game against an unrated player change nothing (the unrated player gets no
  change here either: a first rating is calculated by FIDE from several events).
* The expected score is read from table 8.1(b) for the rating difference, a difference of more than 400
  points counting as 400 (the 400-point rule, applied to every game) for a player rated below 2650; for a
  player rated 2650 or more the whole difference counts (8.3.1 as amended from 1 October 2025), so the
  same game can be capped for one side and not for the other. An event that began before 1 October 2025
  caps every player, as FIDE rated it then.
* The change of one game is K × (score − expected score), 1, ½ or 0 for the score; the event's change is
  the sum. Both are exact; for display they are rounded to one decimal, half away from zero (with K = 10,
  20 or 40 and the table's hundredths the sum is already exact to one decimal). FIDE rounds the new rating
  of a rating period to a whole number, 0.5 up.
* K: the one the file gives for the player (`k`), which the organiser copies from the rating list; else 10
  once the rating is 2400 or more, 40 until the end of the year of the player's 18th birthday while the
  rating is under 2300 (the event's year against the birth year), else 20. A player new to the list (fewer
  than 30 rated games) has K = 40 too, but the file does not know the count: give `k` for them. When K
  times the player's rated games in the event exceeds 700, K is the largest whole number for which it
  does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from standings.fide import expected
from standings.outlook_round import DRAW, LOSS, WIN, OutlookRefused, round_state
from swiss.model import DREW, PLAYED, WON, Event, Player
from swiss.placement import birth_year
from swiss.rules import top_uncapped

# Where a player's K came from, as the output names it.
K_GIVEN, K_TOP, K_JUNIOR, K_STANDARD = "given", "rating_2400", "junior", "standard"
K_SOURCES = (K_GIVEN, K_TOP, K_JUNIOR, K_STANDARD)
# K × rated games in one rating period may not exceed this (B.02 8.3.3).
MAX_K_TIMES_GAMES = 700
# The 400-point rule applies to a player rated below this; from it up, the whole difference counts (8.3.1).
UNCAPPED_FROM = 2650


class RatingSystem(Protocol):
    """A rating calculation: FIDE's, or a national federation's."""

    def rated(self, player: Player) -> bool:
        """Whether the player has a rating their games count against."""
        ...

    def k_factor(self, player: Player, event: Event) -> tuple[int, str]:
        """The player's development coefficient and where it came from (one of K_SOURCES)."""
        ...

    def limit_k(self, k: int, games: int) -> int:
        """K once the player's number of rated games in the event is known."""
        ...

    def expected(self, rating: int, opponent: int) -> Fraction:
        """The player's expected score in one game against the opponent."""
        ...


class FideRating:
    """FIDE Rating Regulations (Handbook B.02): the 400-point rule for players rated below `uncapped_from`
    (None: for every player, as before 1 October 2025)."""

    def __init__(self, uncapped_from: int | None = UNCAPPED_FROM):
        self.uncapped_from = uncapped_from

    def rated(self, player: Player) -> bool:
        return bool(player.rating)

    def k_factor(self, player: Player, event: Event) -> tuple[int, str]:
        if player.k is not None:
            return player.k, K_GIVEN
        rating = player.rating or 0
        if rating >= 2400:
            return 10, K_TOP
        born, year = birth_year(player.birth_date), _year(event.settings.date)
        if born is not None and year is not None and year <= born + 18 and rating < 2300:
            return 40, K_JUNIOR
        return 20, K_STANDARD

    def limit_k(self, k: int, games: int) -> int:
        return min(k, MAX_K_TIMES_GAMES // games) if games else k

    def expected(self, rating: int, opponent: int) -> Fraction:
        difference = rating - opponent
        if self.uncapped_from is None or rating < self.uncapped_from:
            difference = max(-400, min(400, difference))
        return expected(difference)


FIDE = FideRating()
FIDE_BEFORE_OCTOBER_2025 = FideRating(None)


def fide_for(event: Event) -> FideRating:
    """FIDE's rules as they stood on the event's start date (today's for an event without one)."""
    return FIDE if top_uncapped(event.settings) else FIDE_BEFORE_OCTOBER_2025


@dataclass(frozen=True)
class GameChange:
    """One rated game: the round, the opponent and their rating, the score (1, ½, 0), the expected score
    and the change K × (score − expected)."""

    round: int
    opponent: str
    opponent_rating: int
    score: Fraction
    expected: Fraction
    change: Fraction


@dataclass(frozen=True)
class RatingChange:
    """A rated player's change in the event: K (and where it came from), the rated games and their sum."""

    player_id: str
    rating: int
    k: int
    k_source: str
    games: tuple[GameChange, ...]

    @property
    def total(self) -> Fraction:
        return sum((g.change for g in self.games), Fraction(0))

    @property
    def score(self) -> Fraction:
        return sum((g.score for g in self.games), Fraction(0))

    @property
    def expected_score(self) -> Fraction:
        return sum((g.expected for g in self.games), Fraction(0))

    def by_round(self) -> dict[int, Fraction]:
        """The change of each round with a rated game (a round has at most one game)."""
        out: dict[int, Fraction] = {}
        for g in self.games:
            out[g.round] = out.get(g.round, Fraction(0)) + g.change
        return out


def has_ratings(event: Event) -> bool:
    """Whether rating changes apply: a chess event with at least one rated player."""
    return event.settings.preset == "chess" and any(p.rating for p in event.players)


def rating_changes(
    event: Event, after_round: int | None = None, system: RatingSystem | None = None
) -> dict[str, RatingChange]:
    """Every rated player's change from the Swiss rounds up to `after_round` (all of them when None), by id.

    Players without a rating are left out; a rated player without a rated game has a change of 0. The system
    is FIDE's as it stood on the event's start date unless another is given.
    """
    if system is None:
        system = fide_for(event)
    players = {p.id: p for p in event.players}
    results: dict[str, list[tuple[int, str, Fraction]]] = {p.id: [] for p in event.players if system.rated(p)}
    for rnd in event.swiss_rounds():
        if after_round is not None and rnd.number > after_round:
            continue
        for m in rnd.matches:
            if m.result != PLAYED or m.games is None or m.b is None:
                continue
            a, b = players.get(m.a), players.get(m.b)
            if a is None or b is None or not (system.rated(a) and system.rated(b)):
                continue
            oa, ob = m.outcome()
            results[a.id].append((rnd.number, b.id, _score(oa)))
            results[b.id].append((rnd.number, a.id, _score(ob)))
    out: dict[str, RatingChange] = {}
    for pid, games in results.items():
        player = players[pid]
        rating = player.rating or 0
        k, source = system.k_factor(player, event)
        k = system.limit_k(k, len(games))
        changes = []
        for number, opponent, score in sorted(games):
            opp_rating = players[opponent].rating or 0
            exp = system.expected(rating, opp_rating)
            changes.append(GameChange(number, opponent, opp_rating, score, exp, k * (score - exp)))
        out[pid] = RatingChange(pid, rating, k, source, tuple(changes))
    return out


def format_change(value: Fraction, plus: bool = True) -> str:
    """A change to one decimal, rounded half away from zero: "+11.2", "-4.0", "0.0" (without the plus sign
    when not `plus`: "11.2", as the JSON writes it)."""
    tenths = abs(value) * 10
    n = (tenths.numerator * 2 + tenths.denominator) // (2 * tenths.denominator)
    if n == 0:
        return "0.0"
    return f"{'-' if value < 0 else '+' if plus else ''}{n // 10}.{n % 10}"


def _score(outcome: int | None) -> Fraction:
    return Fraction(1) if outcome == WON else Fraction(1, 2) if outcome == DREW else Fraction(0)


def _year(date: str | None) -> int | None:
    if date and len(date) >= 4 and date[:4].isdigit():
        return int(date[:4])
    return None


def result_changes(event: Event, system: RatingSystem | None = None) -> dict[str, dict[str, Fraction]]:
    """Before the round's results are in: for each rated player at an open table of the event's last round,
    against a rated opponent, the change of that game for each result it can still have ("win", "draw",
    "loss"), K as the event's rated games give it with this game counted. Empty when no round is open."""
    try:
        state = round_state(event)
    except OutlookRefused:
        return {}
    # Any result will do: the game counts for K and the expected score whatever its result.
    played = state.with_games({t.number: t.scores[t.outcomes()[0]][0] for t in state.tables})
    changes = rating_changes(played, state.number, system)
    scores = {WIN: Fraction(1), DRAW: Fraction(1, 2), LOSS: Fraction(0)}
    out: dict[str, dict[str, Fraction]] = {}
    for t in state.tables:
        for pid in (t.a, t.b):
            change = changes.get(pid)
            game = next((g for g in change.games if g.round == state.number), None) if change else None
            if change is None or game is None:
                continue
            sides = (t.side_of(pid, o) for o in t.outcomes())
            out[pid] = {o: change.k * (scores[o] - game.expected) for o in sides}
    return out
