"""The event as every part of the app sees it: frozen dataclasses (settings, players, matches, rounds), the
result kinds, the limits a stored event keeps to, and the rules on single values (a game count, a top cut, a
score typed as text) that the file readers, the engines and the web app's forms all apply.

Pure Python; the swiss-event file (`swiss.eventfile`) and TRF (`swiss.trf`) read and write these classes.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
import zoneinfo
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from swiss.presets import PRESETS
from swiss.prizemodel import Prize, PrizeRules

# Match result kinds. "played" with games=None is a pairing whose result is still outstanding.
PLAYED, BYE, LOSS, DOUBLE_LOSS = "played", "bye", "loss", "double_loss"
# The unplayed results FIDE C.07 Article 16 tells apart (optional; old files never use them):
# a requested half-point or zero-point bye, a full-point bye (not allocated by the pairing), and a
# forfeit: player a wins without playing, player b (if any) loses without playing.
HALF_BYE, ZERO_BYE, FULL_BYE, FORFEIT = "half_bye", "zero_bye", "full_bye", "forfeit"
# Results that never have a player b.
UNPAIRED = (BYE, LOSS, HALF_BYE, ZERO_BYE, FULL_BYE)
RESULTS = (PLAYED, BYE, LOSS, DOUBLE_LOSS, HALF_BYE, ZERO_BYE, FULL_BYE, FORFEIT)
# How a result ended for one side: what the `outcome` of a match gives each player.
WON, DREW, LOST = 2, 1, 0
SWISS, ELIMINATION = "swiss", "elimination"
LATE_ENTRY_POLICIES = ("none", "losses")
# Match formats games use: one game, or best of 3, 5 or 7.
BEST_OF = (1, 3, 5, 7)
ROUND_ONE_METHODS = ("random", "rating")
PAIRING_SYSTEMS = ("optimal", "dutch")  # the min-cost optimal engine; FIDE C.04.3 (the chess preset's default)
ACCELERATIONS = ("none", "baku")  # for the Dutch system: none, or FIDE C.04.5.1 (Baku)
ROUND_STATES = ("draft", "paired", "in_progress", "complete")
# Who enters results: the organisers and judges only, players with the opponent confirming, players alone.
REPORTING = ("organisers", "confirm", "alone")
# What a player may ask for a round before it is paired (FIDE C.07 16: requested byes); a zero-point bye is a
# known absence. The pairing of that round leaves the player out.
REQUESTED_BYES = (HALF_BYE, ZERO_BYE, FULL_BYE)
# Chess: the colour the first player on the first board of round 1 gets (TRF XXC white1/black1, TRF-2026 152).
INITIAL_COLOURS = ("white", "black")
# FIDE titles as a TRF writes them (TRF-2026 column 11-13; TRF-16's one- and two-letter forms too).
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "G", "M", "F", "C", "WG", "WM", "WF", "WC")
# Player numbers are short numbers a venue calls out; the bound keeps them in a database integer column.
MAX_PLAYER_NUMBER = 999_999
# Counts (rounds, games, minutes, byes) fit a small integer column, ratings and tables an integer column:
# a larger number is refused by place instead of failing the database write.
SMALL_MAX, INT_MAX, BIG_MAX = 32_767, 2_147_483_647, 2**63 - 1

# What a stored event can hold; the web app's columns and forms use the same limits, so a file that
# parses can be imported and an event the web app holds can be exported and read back.
MAX_NAME = 200  # event and player names
MAX_ID = 100  # player ids and external ids
MAX_FRACTION_TEXT = 20  # a score or floor written as "33/100"
MAX_K = 100  # a player's rating development coefficient K (FIDE's are 10, 20 and 40)
MAX_ROUND_MINUTES = 24 * 60  # a round (and its clock, with extensions) lasts at most a day
LANGUAGES = ("en", "ja", "da")  # the public pages' languages
_FRACTION_TEXT = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)(\s*/\s*\d+)?\s*")


def default_pairing(preset: str) -> str:
    """The pairing system of an event that names none: the Dutch system for chess, the optimal engine otherwise."""
    return "dutch" if preset == "chess" else "optimal"


@dataclass(frozen=True)
class Scoring:
    win: Fraction = Fraction(3)
    draw: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)


@dataclass(frozen=True)
class Settings:
    name: str = "Event"
    slug: str | None = None
    preset: str = "mtg"
    scoring: Scoring = Scoring()
    best_of: int = 3
    floor: Fraction = Fraction(33, 100)
    tiebreakers: tuple[str, ...] = ("omw", "gw", "ogw")
    bye_rating: int = 0
    # Facts the web app keeps about an event; optional in the file.
    date: str | None = None
    planned_rounds: int | None = None
    top_cut: int = 0
    round_minutes: int = 50
    public: bool = True
    late_entry: str = "none"
    round_one: str = "random"
    colours: bool = False
    # The pairing system: "optimal" (min-cost, docs/engines.md) or "dutch" (FIDE C.04.3); "" is the preset's own (dutch for
    # chess, optimal otherwise). For the Dutch system, its acceleration: "none" or "baku" (FIDE C.04.5.1).
    pairing: str = ""
    acceleration: str = "none"
    language: str = "en"  # the public pages' language when a visitor names none (optional key)
    # Chess: the colour of the top board in round 1 ("white", "black" or None: chosen at random).
    initial_colour: str | None = None
    # Players still tied after every tie-breaker are ranked by rating, highest first (as Vega does).
    rating_breaks_ties: bool = False
    # The FIDE C.07 edition the tie-breaks follow ("2024" or "2026"); "": the one in force on `date`
    # (swiss.rules, docs/tiebreakers.md).
    tiebreak_rules: str = ""
    # The venue's IANA time zone ("Asia/Tokyo"), in which the pages show times; "" for the server's (optional key).
    time_zone: str = ""
    # TRF header lines (FIDE TRF-16, e.g. "022 Frankfurt"), kept verbatim so that a TRF comes back as it went in.
    trf_header: tuple[str, ...] = ()
    # What a FIDE rating report's header gives (TRF 022, 032, 052, 102, 112, 122, 132; the start date is `date`):
    # the city, the federation (a three-letter FIDE code), the last day, the chief arbiter and the deputies, the
    # time control as people write it, and each round's date (ISO; None for a round without one).
    city: str = ""
    federation: str = ""
    end_date: str | None = None
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""
    round_dates: tuple[str | None, ...] = ()
    # Chess (FIDE C.04.1): pairs of players who must not meet (team-mates, family), by player id; the pairing
    # engines treat each as a game already played (TRF-2026 260 records).
    forbidden_pairs: tuple[tuple[str, str], ...] = ()
    # Pairs kept apart in some rounds only (a TRF-2026 260 record's round range narrower than the event):
    # (id, id, first round, last round).
    forbidden_rounds: tuple[tuple[str, str, int, int], ...] = ()
    # Sections (docs/sections.md), all optional and empty for an event of its own: the first table number,
    # the placement rules (a rating band, birth years), the Day-2 cut (after round `cut_after`, at least
    # `cut_points` or the top `cut_top`, ties at the line as `cut_ties` says), and the section this one is
    # paired together with, by its name in the file, while either has fewer than `pair_with_below` players.
    first_table: int | None = None
    rating_min: int | None = None
    rating_max: int | None = None
    birth_year_min: int | None = None
    birth_year_max: int | None = None
    cut_after: int | None = None
    cut_points: Fraction | None = None
    cut_top: int | None = None
    cut_ties: str = ""
    pair_with: str = ""
    pair_with_below: int | None = None
    # The prize list, in the organiser's order, and how it is split (swiss.prizemodel, docs/prizes.md).
    prizes: tuple[Prize, ...] = ()
    prize_rules: PrizeRules = PrizeRules()
    # A section whose players were moved into the section it pairs with (`pair_with`), as a small one is joined
    # (docs/sections.md): it pairs nothing itself since.
    joined: bool = False
    # Chess: FIDE mode (docs/fide-mode.md): as the file says, or None when it says nothing (`in_fide_mode`);
    # left for good after round `fide_left` (0: before round 1). Whether the event asks for FIDE title norms.
    fide_mode: bool | None = None
    fide_left: int | None = None
    title_norms: bool = False
    # The desk's rules (docs/features.md): who enters results (REPORTING), whether players may ask for a bye
    # from their phone, how many at most (None: no limit), and in how many of the last planned rounds none.
    reporting: str = "organisers"
    players_request_byes: bool = False
    bye_requests_max: int | None = None
    bye_requests_closed_last: int = 0

    @property
    def in_fide_mode(self) -> bool:
        """FIDE mode as the event starts in it: as the file says; when it says nothing, on for a chess event
        (one game a round, with colours) that has not left it, as every new chess event starts."""
        if self.fide_mode is not None:
            return self.fide_mode
        return self.fide_left is None and self.colours and self.best_of == 1

    @property
    def pairing_system(self) -> str:
        return self.pairing or default_pairing(self.preset)

    def forbidden_in(self, round_number: int) -> tuple[tuple[str, str], ...]:
        """The pairs who must not meet in this round: every-round pairs, then those whose range holds it."""
        ranged = tuple((a, b) for a, b, first, last in self.forbidden_rounds if first <= round_number <= last)
        return self.forbidden_pairs + ranged

    @property
    def games_to_win(self) -> int:
        return math.ceil(self.best_of / 2)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    rating: int | None = None
    byes: int = 0
    joined_round: int = 1
    dropped_after: int | None = None
    external_id: str = ""
    fixed_table: int | None = None
    reading: str = ""  # furigana or a sort name (optional key)
    # The player number a venue calls the player by (unique in the event); optional.
    number: int | None = None
    # Chess registration details a TRF file carries (FIDE ID, federation, title, sex, birth date as written).
    federation: str = ""
    title: str = ""
    sex: str = ""
    birth_date: str = ""
    fide_id: str = ""
    # Byes asked for rounds not yet paired, as (round, REQUESTED_BYES kind), by round.
    requested_byes: tuple[tuple[int, str], ...] = ()
    # The name's two parts as entered (both, or neither: see swiss.names); `name` is the display name.
    family_name: str = ""
    given_name: str = ""
    # Chess: manual acceleration (TRF XXA, TRF-2026 250), the virtual points the FIDE Dutch system adds to the
    # player's score when it pairs round 1, 2, 3… (one value a round from round 1; none: no acceleration).
    accelerations: tuple[Fraction, ...] = ()
    # Chess: the pairing number as frozen when round 4 was paired (swiss/numbers.py); None before that.
    pairing_number: int | None = None
    # Sections: the division the player is ranked in when two sections are paired together, and the round
    # after which a Day-2 cut left them out (both optional).
    division: str = ""
    cut_after: int | None = None
    # Chess: the player's FIDE development coefficient K as the rating list gives it (standings/rating.py);
    # None: worked out from the rating and the birth date (docs/ratings.md).
    k: int | None = None
    # FIDE mode: False when the arbiter said the player takes no half-point bye.
    half_bye_ok: bool = True

    def requested_bye(self, round_number: int) -> str | None:
        """The bye this player asked for in the round (half_bye, zero_bye, full_bye), or None."""
        for number, kind in self.requested_byes:
            if number == round_number:
                return kind
        return None


@dataclass(frozen=True)
class Match:
    a: str
    b: str | None = None
    games: tuple[int, int, int] | None = None
    result: str = PLAYED
    table: int | None = None
    # Chess: who was paired with White in a game not played (a forfeit or a double forfeit), when known. In a
    # game played player a has White; in a forfeit player a is the winner, whatever the colours.
    white: str | None = None
    # FIDE mode: the game was adjourned (a draw for the pairing while its result is missing); kept once it has one.
    adjourned: bool = False

    @property
    def has_result(self) -> bool:
        return self.result != PLAYED or self.games is not None

    def outcome(self) -> tuple[int | None, int | None]:
        """(how it ended for a, for b): WON, DREW or LOST; None for an outstanding result or a missing b."""
        r = self.result
        if r == PLAYED:
            if self.games is None:
                return None, None
            ga, gb, _ = self.games
            return (WON, LOST) if ga > gb else (LOST, WON) if gb > ga else (DREW, DREW)
        if r in (BYE, FULL_BYE):
            return WON, None
        if r == HALF_BYE:
            return DREW, None
        if r in (LOSS, ZERO_BYE):
            return LOST, None
        if r == DOUBLE_LOSS:
            return LOST, LOST
        # FORFEIT
        return WON, (LOST if self.b is not None else None)


# What changed a published round (its trail): players swapped, the round paired again, a board's colours
# flipped, a result corrected, a line added by hand.
CHANGE_KINDS = ("swap", "repair", "flip", "result", "by_hand")


@dataclass(frozen=True)
class TrailLine:
    """A match as a change found it or left it: its table, its players by id and by name as they were then, its
    result and games, and who had White after a forfeit or a double loss (as `Match.white`)."""

    a: str
    a_name: str
    b: str | None = None
    b_name: str | None = None
    table: int | None = None
    result: str = PLAYED
    games: tuple[int, int, int] | None = None
    white: str | None = None


@dataclass(frozen=True)
class Change:
    """One change to a round after it was published: its kind (CHANGE_KINDS), when (ISO 8601 with its offset),
    the first table it touched, and the lines it touched as they were and as they became."""

    kind: str
    at: str
    table: int | None = None
    was: tuple[TrailLine, ...] = ()
    became: tuple[TrailLine, ...] = ()


@dataclass(frozen=True)
class Round:
    number: int
    matches: tuple[Match, ...] = ()
    kind: str = SWISS
    seed: int | None = None
    state: str | None = None
    # The round's trail: every change made after it was published, oldest first (swiss.eventtrail).
    changes: tuple[Change, ...] = ()


@dataclass(frozen=True)
class Event:
    settings: Settings
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = field(default_factory=tuple)

    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.kind == SWISS)


@dataclass(frozen=True)
class Venue:
    """An event with sections (a version-2 swiss-event file): the event the venue knows, with its name,
    address, day, language, time zone and visibility, its city, federation and last day, the players not yet placed
    in a section, and its
    sections, each an Event of its own (docs/sections.md)."""

    name: str = "Event"
    slug: str | None = None
    date: str | None = None
    language: str = "en"
    time_zone: str = ""
    public: bool = True
    players: tuple[Player, ...] = ()
    sections: tuple[Event, ...] = ()
    # The venue's rating-report facts (as a Settings' of the same names), which a section made on the web takes.
    city: str = ""
    federation: str = ""
    end_date: str | None = None


def settings_for_preset(preset: str, **overrides: Any) -> Settings:
    p = PRESETS[preset]
    base: dict[str, Any] = {
        "preset": preset,
        "scoring": Scoring(p.win, p.draw, p.loss),
        "best_of": p.best_of,
        "floor": p.floor,
        "tiebreakers": p.tiebreakers,
        "colours": p.colours,
    }
    base.update(overrides)
    return Settings(**base)


def games_problem(games: tuple[int, int, int], best_of: int, elimination: bool = False) -> tuple[str, dict] | None:
    """Why a game count is impossible for the match format, as a stable code and its parameters, or None.

    Nobody wins more than ⌈N/2⌉ games and not both reach it; a best-of-N match has at most N drawn
    games on top of the games won (MTR: an intentional draw is 0-0-3); an elimination match has a winner.
    """
    a, b, d = games
    need = math.ceil(best_of / 2)
    if min(games) < 0:
        return "negative", {}
    if a + b + d == 0:
        return "empty", {}
    if a > need or b > need:
        return "too_many_wins", {"best_of": best_of, "need": need}
    if a == need and b == need:
        return "both_win", {"best_of": best_of, "need": need}
    if d > best_of:
        return "too_many_draws", {"best_of": best_of}
    if elimination and a == b:
        return "elimination_draw", {}
    return None


GAMES_PROBLEMS = {
    "negative": "game counts cannot be negative",
    "empty": "a result needs at least one game",
    "too_many_wins": "in best of {best_of} nobody wins more than {need} games",
    "both_win": "in best of {best_of} only one side can win {need} games",
    "too_many_draws": "in best of {best_of} a match has at most {best_of} drawn games",
    "elimination_draw": "an elimination match cannot end in a draw",
}


def validate_games(games: tuple[int, int, int], best_of: int, elimination: bool = False) -> str | None:
    """Why a game count is impossible for the match format, in English, or None."""
    problem = games_problem(games, best_of, elimination)
    return None if problem is None else GAMES_PROBLEMS[problem[0]].format(**problem[1])


def is_top_cut(n: int) -> bool:
    """A top cut is 0 (none) or a power of two that fits the bracket: 2, 4, 8, 16…"""
    return n == 0 or (2 <= n <= SMALL_MAX and n & (n - 1) == 0)


def parse_fraction(text: str) -> Fraction:
    """A score or floor typed as 3, 0.5, .33 or 1/2 (no exponents: "1e999999999" would take minutes).

    ValueError when it is not such a number or needs more than MAX_FRACTION_TEXT characters to store.
    """
    if len(text) > 100 or not _FRACTION_TEXT.fullmatch(text):
        raise ValueError(text)
    try:
        result = Fraction(text.strip().replace(" ", ""))
    except ZeroDivisionError:
        raise ValueError(text) from None
    if len(str(result)) > MAX_FRACTION_TEXT:
        raise ValueError(text)
    return result


# A birth date as FIDE writes it (TRF columns 70-79): YYYY/MM/DD (also with - or .), or the year alone.
BIRTH_DATE = re.compile(r"[0-9]{4}([/.-][0-9]{2}[/.-][0-9]{2})?")


def possible_birth_date(text: str) -> bool:
    """A birth date written as FIDE writes it that a calendar has: the year alone, or a month 01-12 and a day
    the month has (00 for a month or day not known). 9999-99-99 and 1969-02-30 are not."""
    if not BIRTH_DATE.fullmatch(text):
        return False
    if len(text) == 4:
        return True
    year, month, day = int(text[:4]), int(text[5:7]), int(text[8:10])
    if month > 12 or day > 31:
        return False
    if month and day:
        try:
            dt.date(max(year, 1), month, day)
        except ValueError:
            return False
    return True


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (the system's zoneinfo, or the tzdata package)."""
    return frozenset(zoneinfo.available_timezones())
