"""FIDE title norms (Handbook B.01 as applied from 1 January 2024, section 1.4) for every player of a chess event:
GM, IM, WGM and WIM.

Pure and exact. For each player and each title the player does not hold yet: whether a norm is achieved,
still possible or not possible, the points still needed from the player's remaining rounds, and every
condition with whether it is met now and whether it can still be met (docs/ratings.md, "Norms").

What counts:

* Only games played over the board count (forfeits, byes and absences do not), each for 1, 1/2 or 0.
* The opponents are those of the games played, those of games paired but without a result yet, and, for
  each round of the event not paired yet (the player has not withdrawn), one opponent not known yet.
* An opponent not known yet is taken at the best a norm could come from: holding the title of the norm, from
  a federation of its own, and rated exactly the minimum average rating of the norm, for the points needed;
  as their rating may be higher, the average and the performance never rule a norm out while one is to come.
* "FID" and an empty federation are no federation: they count for no federation condition.
* An unrated opponent counts as rated 1400 (1.4.6d), before the lowest rating is raised to the floor.
* A norm is achieved as soon as the games played so far, 9 or more, make one: the games after a title result may
  be left out (1.4.1e), so losing a later round does not take it away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from standings.fide import dp, round_half_up
from swiss.model import DREW, PLAYED, SWISS, WON, Event, Player

# The norm titles, strongest first: (performance needed, minimum average rating, rating floor, the titles
# that count as "the title of the norm" among the opponents).
NORMS: dict[str, tuple[int, int, int, frozenset[str]]] = {
    "GM": (2600, 2380, 2200, frozenset({"GM"})),
    "IM": (2450, 2230, 2050, frozenset({"GM", "IM"})),
    "WGM": (2400, 2180, 2000, frozenset({"GM", "IM", "WGM"})),
    "WIM": (2250, 2030, 1850, frozenset({"GM", "IM", "WGM", "WIM"})),
}
WOMEN_ONLY = frozenset({"WGM", "WIM"})
# Title holders for the 50 % condition: every FIDE title but CM and WCM.
TITLE_HOLDERS = frozenset({"GM", "IM", "FM", "WGM", "WIM", "WFM"})
# The titles a player's own title already covers (no norm is worked out for these).
HELD = {
    "GM": {"GM", "IM", "WGM", "WIM"},
    "IM": {"IM", "WIM"},
    "WGM": {"WGM", "WIM"},
    "WIM": {"WIM"},
}
# TRF-16 one- and two-letter titles.
_SHORT = {"G": "GM", "M": "IM", "F": "FM", "C": "CM", "WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM"}
NO_FEDERATION = frozenset({"", "FID"})

MIN_GAMES = 9  # 1.4.1a
TITLED_SHARE = Fraction(1, 2)  # 1.4.5a
NORM_TITLE_SHARE = Fraction(1, 3)  # 1.4.5b-e: a third of the opponents, and at least 3
MIN_NORM_TITLED = 3
UNRATED_RATING = 1400  # 1.4.6d
MIN_SCORE = Fraction(35, 100)  # 1.4.8b
OWN_FEDERATION_SHARE = Fraction(3, 5)
ONE_FEDERATION_SHARE = Fraction(2, 3)
OTHER_FEDERATIONS = 2

ACHIEVED = "achieved"
POSSIBLE = "possible"
NOT_POSSIBLE = "not possible"


def title_of(player: Player) -> str:
    t = player.title.strip().upper()
    return _SHORT.get(t, t)


def is_woman(player: Player) -> bool:
    return player.sex.strip().lower() in ("w", "f")


@dataclass(frozen=True)
class Opponent:
    """An opponent of the norm: known (a game played or paired) or not known yet (None fields)."""

    title: str | None
    federation: str | None
    rating: int | None
    known: bool = True


@dataclass
class Condition:
    code: str
    met: bool  # now, with the games that have a result and the games paired
    can_be_met: bool  # with the rounds still to come, in the best case
    value: str
    required: str
    amount: Fraction = Fraction(0)  # the value as a number (the lowest rating for the floor)
    bound: Fraction = Fraction(0)  # the least (or, `at_most`, the most) it may be; the floor's rating
    at_most: bool = False

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "met": self.met,
            "can_be_met": self.can_be_met,
            "value": self.value,
            "required": self.required,
        }


@dataclass
class NormChance:
    title: str
    status: str
    needed: Fraction | None  # points still needed from the remaining rounds; None: achieved or not possible
    remaining: int  # the player's games still to come (paired or not paired yet)
    conditions: list[Condition] = field(default_factory=list)
    counted: int = 0  # an achieved norm: the games it counts (the first ones, 1.4.1e)

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "status": self.status,
            "needed": None if self.needed is None else str(self.needed),
            "remaining": self.remaining,
            "counted": self.counted,
            "conditions": [c.as_dict() for c in self.conditions],
        }


@dataclass
class PlayerNorms:
    player_id: str
    name: str
    points: Fraction  # from games played over the board
    games: int  # played over the board
    norms: list[NormChance]

    def as_dict(self) -> dict:
        return {
            "id": self.player_id,
            "name": self.name,
            "points": str(self.points),
            "games": self.games,
            "norms": [n.as_dict() for n in self.norms],
        }


def total_rounds(event: Event) -> int:
    swiss = [r.number for r in event.swiss_rounds()]
    return max([event.settings.planned_rounds or 0, *swiss])


def player_games(event: Event, player: Player) -> tuple[list[tuple[Player, Fraction]], list[Player], int]:
    """(opponents played over the board with the points scored, opponents paired without a result yet,
    rounds not paired yet that the player will play)."""
    by_id = {p.id: p for p in event.players}
    played: list[tuple[Player, Fraction]] = []
    paired: list[Player] = []
    seen_rounds: set[int] = set()
    for rnd in sorted(event.rounds, key=lambda r: r.number):  # in round order: 1.4.1e counts the first games
        if rnd.kind != SWISS:
            continue
        seen_rounds.add(rnd.number)
        for m in rnd.matches:
            if player.id not in (m.a, m.b) or m.b is None or m.result != PLAYED:
                continue
            other = by_id[m.b if m.a == player.id else m.a]
            if m.games is None:
                paired.append(other)
                continue
            oa, ob = m.outcome()
            mine = oa if m.a == player.id else ob
            played.append((other, Fraction(1) if mine == WON else Fraction(1, 2) if mine == DREW else Fraction(0)))
    last = total_rounds(event)
    if player.dropped_after is not None:
        last = min(last, player.dropped_after)
    unpaired = sum(1 for k in range(1, last + 1) if k not in seen_rounds)
    return played, paired, unpaired


def _opponent(p: Player) -> Opponent:
    fed = p.federation.strip().upper()
    return Opponent(title_of(p), fed, p.rating)


def check(player: Player, title: str, opponents: list[Opponent], points: Fraction, remaining: int) -> NormChance:
    """The norm `title` for `player` against `opponents` (known and not known yet), `points` scored so far over
    the board and `remaining` games to come (the unknown opponents among them)."""
    tpr, min_average, floor, norm_titles = NORMS[title]
    own = player.federation.strip().upper()
    unknown = [o for o in opponents if not o.known]
    known = [o for o in opponents if o.known]
    n = len(opponents)
    conditions: list[Condition] = []

    def add(
        code: str,
        met_now: bool,
        can: bool,
        value: str,
        required: str,
        amount: Fraction | int = 0,
        bound: Fraction | int = 0,
        most: bool = False,
    ) -> None:
        conditions.append(Condition(code, met_now, can, value, required, Fraction(amount), Fraction(bound), most))

    games_now = len(known)
    add("games", games_now >= MIN_GAMES, n >= MIN_GAMES, str(games_now), str(MIN_GAMES), games_now, MIN_GAMES)

    titled = sum(1 for o in known if o.title in TITLE_HOLDERS)
    need_titled = math.ceil(TITLED_SHARE * n) if n else 0
    add(
        "titled",
        bool(n) and titled >= need_titled and not unknown,
        bool(n) and titled + len(unknown) >= need_titled,
        str(titled),
        f"{need_titled} of {n}",
        titled,
        need_titled,
    )
    norm_titled = sum(1 for o in known if o.title in norm_titles)
    need_norm = max(MIN_NORM_TITLED, math.ceil(NORM_TITLE_SHARE * n)) if n else 0
    add(
        "norm_title",
        bool(n) and norm_titled >= need_norm and not unknown,
        bool(n) and norm_titled + len(unknown) >= need_norm,
        str(norm_titled),
        f"{need_norm} of {n} ({'/'.join(sorted(norm_titles))})",
        norm_titled,
        need_norm,
    )
    counts: dict[str, int] = {}
    for o in known:
        if o.federation not in NO_FEDERATION:
            counts[o.federation or ""] = counts.get(o.federation or "", 0) + 1
    others = [f for f in counts if f != own]
    own_count = counts.get(own, 0) if own not in NO_FEDERATION else 0
    add(
        "other_federations",
        len(others) >= OTHER_FEDERATIONS,
        len(others) + len(unknown) >= OTHER_FEDERATIONS,
        str(len(others)),
        f"{OTHER_FEDERATIONS}",
        len(others),
        OTHER_FEDERATIONS,
    )
    max_own = math.floor(OWN_FEDERATION_SHARE * n)
    add(
        "own_federation",
        own_count <= max_own,
        own_count <= max_own,
        str(own_count),
        f"at most {max_own} of {n}",
        own_count,
        max_own,
        True,
    )
    biggest = max((c for f, c in counts.items() if f != own), default=0)
    max_one = math.floor(ONE_FEDERATION_SHARE * n)
    add(
        "one_federation",
        biggest <= max_one,
        biggest <= max_one,
        str(biggest),
        f"at most {max_one} of {n}",
        biggest,
        max_one,
        True,
    )

    # The average: the unrated at 1400 (1.4.6d), those not known yet at the minimum average, the lowest raised to
    # the floor (1.4.6c: one opponent at most).
    ratings = sorted([o.rating or UNRATED_RATING for o in known] + [min_average] * len(unknown))
    lowest = ratings[0] if ratings else None
    raised = lowest is not None and lowest < floor
    if raised:
        ratings[0] = floor
    average = round_half_up(Fraction(sum(ratings), len(ratings))) if ratings else 0
    add(
        "floor",
        True,
        True,
        "-" if lowest is None else str(lowest),
        f"{floor} (raised)" if raised else str(floor),
        lowest or 0,
        floor,
    )
    met_average = bool(ratings) and average >= min_average
    # An opponent not known yet may be rated higher than the minimum: the average decides nothing against the
    # norm before the last opponent is known (it is counted at the minimum for the points needed).
    add(
        "average",
        met_average and not unknown,
        met_average or bool(unknown),
        str(average),
        str(min_average),
        average,
        min_average,
    )

    # The performance: the least total score over the n games that reaches it; what of it is still to come.
    open_games = remaining
    performance = average + dp(points / n) if n and ratings else 0
    least: Fraction | None = None
    if n and ratings:
        for halves in range(0, 2 * n + 1):
            if average + dp(Fraction(halves, 2 * n)) >= tpr:
                least = Fraction(halves, 2)
                break
    # Stronger opponents to come would ask fewer points: with one not known yet, only a known shortfall rules it out.
    reachable = (least is not None and least <= points + open_games and least >= 0) or bool(unknown)
    add(
        "performance",
        open_games == 0 and least is not None and points >= least,
        reachable,
        str(performance),
        f"{tpr}" + ("" if least is None else f" ({least} of {n})"),
        performance,
        tpr,
    )

    # 1.4.8b: at least 35 % of the points, in half points.
    least_score = Fraction(math.ceil(MIN_SCORE * n * 2), 2)
    add(
        "min_score",
        open_games == 0 and points >= least_score,
        points + open_games >= least_score,
        str(points),
        f"{least_score} of {n}",
        points,
        least_score,
    )

    if all(c.met for c in conditions) and open_games == 0:
        return NormChance(title, ACHIEVED, None, 0, conditions, counted=n)
    if not all(c.can_be_met for c in conditions):
        return NormChance(title, NOT_POSSIBLE, None, open_games, conditions)
    if least is None or least > points + open_games:
        return NormChance(title, POSSIBLE, None, open_games, conditions)
    return NormChance(title, POSSIBLE, max(Fraction(0), least - points, least_score - points), open_games, conditions)


def achieved_early(player: Player, title: str, played: list[tuple[Player, Fraction]]) -> NormChance | None:
    """The norm made by the first k games played (k from 9), the later ones left out (1.4.1e); None if none."""
    for k in range(MIN_GAMES, len(played) + 1):
        first = played[:k]
        chance = check(player, title, [_opponent(p) for p, _ in first], sum((s for _, s in first), Fraction(0)), 0)
        if chance.status == ACHIEVED:
            return chance
    return None


def titles_for(player: Player) -> list[str]:
    held = HELD.get(title_of(player), set())
    return [t for t in NORMS if t not in held and (t not in WOMEN_ONLY or is_woman(player))]


def norms(event: Event) -> list[PlayerNorms]:
    """Every player's norm chances, in the order of the event's players."""
    out = []
    for player in event.players:
        played, paired, unpaired = player_games(event, player)
        opponents = [_opponent(p) for p, _ in played]
        opponents += [_opponent(p) for p in paired]
        points = sum((s for _, s in played), Fraction(0))
        remaining = len(paired) + unpaired
        chances = []
        for title in titles_for(player):
            _, min_average, _, norm_titles = NORMS[title]
            future = [Opponent(min(norm_titles), None, min_average, known=False) for _ in range(unpaired)]
            chance = check(player, title, [*opponents, *future], points, remaining)
            if chance.status != ACHIEVED:
                early = achieved_early(player, title, played)
                if early is not None:
                    chance = NormChance(title, ACHIEVED, None, remaining, early.conditions, early.counted)
            chances.append(chance)
        out.append(PlayerNorms(player.id, player.name, points, len(played), chances))
    return out


def as_json(result: list[PlayerNorms]) -> dict:
    return {"players": [p.as_dict() for p in result]}


CONDITION_WORDS = {
    "games": "games",
    "titled": "titled opponents",
    "norm_title": "opponents with the title",
    "other_federations": "other federations",
    "own_federation": "own federation",
    "one_federation": "one other federation",
    "floor": "rating floor",
    "average": "average rating",
    "performance": "performance",
    "min_score": "score",
}


def to_text(result: list[PlayerNorms]) -> str:
    lines = []
    for p in result:
        if not p.norms:
            continue
        lines.append(f"{p.name} ({p.player_id}): {p.points} from {p.games} game{'s' if p.games != 1 else ''}")
        for n in p.norms:
            head = f"  {n.title}: {n.status}"
            if n.status == ACHIEVED and n.remaining:
                head += f" in the first {n.counted} games"
            if n.needed is not None:
                head += f", needs {n.needed} from {n.remaining} game{'s' if n.remaining != 1 else ''} left"
            lines.append(head)
            for c in n.conditions:
                state = "met" if c.met else "can be met" if c.can_be_met else "not met"
                lines.append(f"    {CONDITION_WORDS[c.code]}: {c.value} (needs {c.required}): {state}")
    return "\n".join(lines) + "\n" if lines else "No player can make a norm.\n"
