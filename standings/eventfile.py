"""The `swiss-event` interchange file (SPEC §5): frozen dataclasses, a strict parser and a dumper.

Pure Python: the `standings` and `pair` commands read files with it, and the web app's
import/export and adapters build the same dataclasses from the database.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import re
import sys
import zoneinfo
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from standings.messages import Message
from standings.presets import PRESETS, TIEBREAKER_CODES

FORMAT = "swiss-event"
VERSION = 1

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
# The results in a refusal ("a forfeit has no game counts"), with codes so the web app translates them.
_RESULT_NAMES = {
    r: Message(f"result_{r}", r.replace("_", " "))
    for r in (BYE, LOSS, DOUBLE_LOSS, HALF_BYE, ZERO_BYE, FULL_BYE, FORFEIT)
}
LATE_ENTRY_POLICIES = ("none", "losses")
# Match formats games use: one game, or best of 3, 5 or 7.
BEST_OF = (1, 3, 5, 7)
ROUND_ONE_METHODS = ("random", "rating")
PAIRING_SYSTEMS = ("optimal", "dutch")  # SPEC §4's optimal engine; FIDE C.04.3 (the chess preset's default)
ACCELERATIONS = ("none", "baku")  # for the Dutch system: none, or FIDE C.04.5.1 (Baku)
_PRESET_PAIRING = {"chess": "dutch"}
ROUND_STATES = ("draft", "paired", "in_progress", "complete")
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
MAX_ROUND_MINUTES = 24 * 60  # a round (and its clock, with extensions) lasts at most a day
_FRACTION_TEXT = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)(\s*/\s*\d+)?\s*")


class EventFileError(ValueError):
    """A malformed event file; the message names the JSON path of the first error.

    `message` is the problem without the path (a Message: code and parameters for translation).
    """

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


def _one_of(choices) -> Message:
    return Message("file_one_of", "one of {choices}", choices=", ".join(choices))


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
    # The pairing system: "optimal" (SPEC §4) or "dutch" (FIDE C.04.3); "" is the preset's own (dutch for
    # chess, optimal otherwise). For the Dutch system, its acceleration: "none" or "baku" (FIDE C.04.5.1).
    pairing: str = ""
    acceleration: str = "none"
    language: str = "en"  # the public pages' language when a visitor names none (optional key)
    # Chess: the colour of the top board in round 1 ("white", "black" or None: chosen at random).
    initial_colour: str | None = None
    # Players still tied after every tie-breaker are ranked by rating, highest first (as Vega does).
    rating_breaks_ties: bool = False
    # The venue's IANA time zone ("Asia/Tokyo"), in which the pages show times; "" for the server's (optional key).
    time_zone: str = ""
    # TRF header lines (FIDE TRF-16, e.g. "022 Frankfurt"), kept verbatim so that a TRF comes back as it went in.
    trf_header: tuple[str, ...] = ()

    @property
    def pairing_system(self) -> str:
        return self.pairing or _PRESET_PAIRING.get(self.preset, "optimal")

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


@dataclass(frozen=True)
class Round:
    number: int
    matches: tuple[Match, ...] = ()
    kind: str = SWISS
    seed: int | None = None
    state: str | None = None


@dataclass(frozen=True)
class Event:
    settings: Settings
    players: tuple[Player, ...] = ()
    rounds: tuple[Round, ...] = field(default_factory=tuple)

    def swiss_rounds(self) -> tuple[Round, ...]:
        return tuple(r for r in self.rounds if r.kind == SWISS)


def settings_for_preset(preset: str, **overrides: Any) -> Settings:
    p = PRESETS[preset]
    base = {
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

    SPEC §2: nobody wins more than ⌈N/2⌉ games and not both reach it; a best-of-N match has at most N drawn
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
    """Why a game count is impossible for the match format, in English, or None (SPEC §2)."""
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


# ---------------------------------------------------------------- parsing


def _fraction(value: Any, path: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise EventFileError(path, Message("file_not_a_number", 'expected a number such as 3, 0.33, "0.33" or "1/2"'))
    try:
        if isinstance(value, str):
            return parse_fraction(value)
        result = Fraction(value)
        if len(str(result)) > MAX_FRACTION_TEXT:
            raise ValueError(value)
        return result
    except (ValueError, OverflowError):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else f"{shown[:37]}…"
        raise EventFileError(
            path,
            Message(
                "file_bad_number",
                "{value} is not a number such as 3, 0.33 or 1/2 of at most {limit} characters",
                value=shown,
                limit=MAX_FRACTION_TEXT,
            ),
        ) from None


def _int(
    value: Any, path: str, minimum: int | None = None, allow_none: bool = False, maximum: int = SMALL_MAX
) -> int | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        shown = json.dumps(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "…"
        raise EventFileError(path, Message("file_not_whole", "expected a whole number, got {value}", value=shown))
    if minimum is not None and value < minimum:
        raise EventFileError(path, Message("file_too_small", "must be at least {minimum}", minimum=minimum))
    if value > maximum:
        raise EventFileError(path, Message("file_too_large", "must be at most {maximum}", maximum=maximum))
    return value


def _str(value: Any, path: str, allow_empty: bool = False, max_length: int = MAX_NAME) -> str:
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        raise EventFileError(path, Message("file_not_text", "expected a non-empty string"))
    if len(value) > max_length:
        raise EventFileError(
            path,
            Message(
                "file_string_too_long",
                "at most {limit} characters (this one has {length})",
                limit=max_length,
                length=len(value),
            ),
        )
    if "\x00" in value:
        raise EventFileError(path, Message("file_nul", "contains a NUL character"))
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise EventFileError(path, Message("file_not_bool", "expected true or false"))
    return value


def _language(value: Any) -> str:
    if value not in LANGUAGES:
        raise EventFileError("language", _one_of(LANGUAGES))
    return value


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (the system's zoneinfo, or the tzdata package)."""
    return frozenset(zoneinfo.available_timezones())


def _time_zone(value: Any) -> str:
    if value != "" and value not in time_zones():
        raise EventFileError(
            "time_zone",
            Message(
                "file_unknown_time_zone",
                "unknown time zone {zone}; a name such as Asia/Tokyo or Europe/Copenhagen",
                zone=json.dumps(value, ensure_ascii=False),
            ),
        )
    return value


def _object(value: Any, path: str, known: set[str]) -> dict:
    if not isinstance(value, dict):
        raise EventFileError(path, Message("file_not_object", "expected an object"))
    if value.keys() <= known:
        return value
    unknown = sorted(set(value) - known)
    if unknown:
        raise EventFileError(f"{path}.{unknown[0]}" if path else unknown[0], Message("file_unknown_key", "unknown key"))
    return value


_EVENT_KEYS = {
    "format",
    "version",
    "name",
    "slug",
    "preset",
    "scoring",
    "best_of",
    "floor",
    "tiebreakers",
    "bye_rating",
    "players",
    "rounds",
    "date",
    "planned_rounds",
    "top_cut",
    "round_minutes",
    "public",
    "late_entry",
    "round_one",
    "colours",
    "pairing",
    "acceleration",
    "language",
    "time_zone",
    "trf_header",
    "initial_colour",
    "rating_breaks_ties",
}
_PLAYER_KEYS = {
    "id",
    "name",
    "reading",
    "rating",
    "byes",
    "joined_round",
    "dropped_after",
    "external_id",
    "fixed_table",
    "number",
    "federation",
    "title",
    "sex",
    "birth_date",
    "fide_id",
    "requested_byes",
}
_CHESS_DETAILS = ("fide_id", "federation", "title", "sex", "birth_date")
LANGUAGES = ("en", "ja", "da")
_ROUND_KEYS = {"number", "matches", "kind", "seed", "state"}
_MATCH_KEYS = {"table", "a", "b", "games", "result", "white"}


def loads(text: str | bytes) -> Event:
    """Parse the text of a swiss-event file."""
    try:
        data = json.loads(text)
    except UnicodeDecodeError:
        raise EventFileError("", Message("file_not_utf8", "the file is not UTF-8 text")) from None
    except json.JSONDecodeError as e:
        problem = _json_problem(e.msg)
        raise EventFileError(
            "",
            Message(
                "file_not_json",
                "not valid JSON (line {line}, column {column}: {problem})",
                line=e.lineno,
                column=e.colno,
                problem=problem,
            ),
        ) from None
    except RecursionError:
        line, column = _too_deep(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        raise EventFileError(
            "",
            Message(
                "file_not_json",
                "not valid JSON (line {line}, column {column}: {problem})",
                line=line,
                column=column,
                problem=Message("json_too_deep", "lists and objects nested too deeply"),
            ),
        ) from None
    except ValueError:  # an integer of more than 4,300 digits
        raise EventFileError(
            "",
            Message(
                "file_json_too_many_digits",
                "not valid JSON (a number has more than {limit} digits)",
                limit=sys.get_int_max_str_digits(),
            ),
        ) from None
    return parse(data)


# What json.JSONDecodeError says (Python's own English), as codes the web app translates.
_JSON_PROBLEMS = {
    "Expecting value": "json_expecting_value",
    "Extra data": "json_extra_data",
    "Expecting property name enclosed in double quotes": "json_property_name",
    "Expecting ':' delimiter": "json_colon",
    "Expecting ',' delimiter": "json_comma",
    "Unterminated string starting at": "json_unterminated_string",
    "Invalid control character at": "json_control_character",
    "Invalid \\escape": "json_bad_escape",
    "Invalid \\uXXXX escape": "json_bad_escape",
    "Illegal trailing comma before end of object": "json_trailing_comma",
    "Illegal trailing comma before end of array": "json_trailing_comma",
}


def _json_problem(problem: str) -> Message | str:
    """The decoder's problem as a Message when it is one of the known ones (its English words either way)."""
    for start, code in _JSON_PROBLEMS.items():
        if problem.startswith(start):
            return Message(code, "{problem}", problem=problem)
    return problem


def _too_deep(text: str, limit: int = 500) -> tuple[int, int]:
    """Line and column of the first list or object opened `limit` levels deep (outside strings)."""
    depth, in_string, escaped, line, start = 0, False, False, 1, 0
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth >= limit:
                return line, i - start + 1
        elif ch in "]}":
            depth -= 1
        if ch == "\n":
            line, start = line + 1, i + 1
    return line, len(text) - start + 1


def parse(data: Any) -> Event:
    """Validate a decoded swiss-event document and build the Event; raise EventFileError naming the place."""
    data = _object(data, "", _EVENT_KEYS)
    if data.get("format") != FORMAT:
        raise EventFileError("format", Message("file_format", 'expected "{format}"', format=FORMAT))
    if data.get("version") != VERSION:
        raise EventFileError("version", Message("file_version", "expected {version}", version=VERSION))
    preset = data.get("preset", "mtg")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise EventFileError(
            "preset",
            Message(
                "file_unknown_preset",
                "unknown preset {preset}; one of {choices}",
                preset=repr(preset),
                choices=", ".join(PRESETS),
            ),
        )
    defaults = settings_for_preset(preset)

    scoring = defaults.scoring
    if "scoring" in data:
        s = _object(data["scoring"], "scoring", {"win", "draw", "loss"})
        scoring = Scoring(
            *(
                _fraction(s[k], f"scoring.{k}") if k in s else getattr(defaults.scoring, k)
                for k in ("win", "draw", "loss")
            )
        )
        if not scoring.win > scoring.loss or not scoring.loss <= scoring.draw <= scoring.win:
            raise EventFileError(
                "scoring",
                Message("file_scoring_order", "a win must score more than a loss, and a draw between the two"),
            )

    best_of = _int(data.get("best_of", defaults.best_of), "best_of", 1)
    if best_of not in BEST_OF:
        raise EventFileError(
            "best_of",
            Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(map(str, BEST_OF))),
        )
    floor = _fraction(data["floor"], "floor") if "floor" in data else defaults.floor
    if not 0 <= floor < 1:
        raise EventFileError("floor", Message("file_floor_range", "must be at least 0 and below 1"))

    tiebreakers = defaults.tiebreakers
    if "tiebreakers" in data:
        tb = data["tiebreakers"]
        if not isinstance(tb, list):
            raise EventFileError(
                "tiebreakers", Message("file_tiebreakers_list", "expected a list of tie-breaker codes")
            )
        for i, code in enumerate(tb):
            if code not in TIEBREAKER_CODES:
                raise EventFileError(
                    f"tiebreakers[{i}]",
                    Message("file_unknown_tiebreaker", "unknown tie-breaker {code}", code=repr(code)),
                )
        if len(set(tb)) != len(tb):
            raise EventFileError("tiebreakers", Message("file_tiebreaker_twice", "a tie-breaker is listed twice"))
        tiebreakers = tuple(tb)

    late_entry = data.get("late_entry", "none")
    if late_entry not in LATE_ENTRY_POLICIES:
        raise EventFileError("late_entry", _one_of(LATE_ENTRY_POLICIES))
    round_one = data.get("round_one", "random")
    if round_one not in ROUND_ONE_METHODS:
        raise EventFileError("round_one", _one_of(ROUND_ONE_METHODS))
    pairing_system = data.get("pairing", "")
    if pairing_system not in ("", *PAIRING_SYSTEMS):
        raise EventFileError("pairing", _one_of(PAIRING_SYSTEMS))
    if pairing_system == _PRESET_PAIRING.get(preset, "optimal"):
        pairing_system = ""  # the preset's own: kept as such, so it follows the preset
    acceleration = data.get("acceleration", "none")
    if acceleration not in ACCELERATIONS:
        raise EventFileError("acceleration", _one_of(ACCELERATIONS))
    date = data.get("date")
    if date is not None:
        date = _str(date, "date")
        try:
            dt.date.fromisoformat(date)
        except ValueError:
            raise EventFileError(
                "date", Message("file_bad_date", "{date} is not a date like 2026-11-21", date=repr(date))
            ) from None
    slug = data.get("slug")
    if slug is not None and (not isinstance(slug, str) or not re.fullmatch(r"[-a-zA-Z0-9_]{1,80}", slug)):
        raise EventFileError("slug", Message("file_bad_slug", "letters, digits, - and _ only, at most 80"))

    top_cut = _int(data.get("top_cut", 0), "top_cut", 0)
    if not is_top_cut(top_cut):
        raise EventFileError("top_cut", Message("file_top_cut", "0 (none) or a power of two: 2, 4, 8, 16…"))
    trf_header = data.get("trf_header", [])
    if not isinstance(trf_header, list) or not all(isinstance(x, str) and "\n" not in x for x in trf_header):
        raise EventFileError("trf_header", Message("file_trf_header", "expected a list of TRF header lines (strings)"))

    settings = Settings(
        trf_header=tuple(trf_header),
        name=_str(data.get("name", "Event"), "name"),
        slug=slug,
        preset=preset,
        scoring=scoring,
        best_of=best_of,
        floor=floor,
        tiebreakers=tiebreakers,
        bye_rating=_int(data.get("bye_rating", 0), "bye_rating", 0, maximum=INT_MAX),
        date=date,
        planned_rounds=_int(data.get("planned_rounds"), "planned_rounds", 1, allow_none=True),
        top_cut=top_cut,
        round_minutes=_int(data.get("round_minutes", 50), "round_minutes", 1, maximum=MAX_ROUND_MINUTES),
        public=_bool(data.get("public", True), "public"),
        late_entry=late_entry,
        round_one=round_one,
        colours=_bool(data.get("colours", defaults.colours), "colours"),
        pairing=pairing_system,
        acceleration=acceleration,
        language=_language(data.get("language", "en")),
        initial_colour=_initial_colour(data.get("initial_colour")),
        rating_breaks_ties=_bool(data.get("rating_breaks_ties", False), "rating_breaks_ties"),
        time_zone=_time_zone(data.get("time_zone", "")),
    )

    raw_players = data.get("players", [])
    if not isinstance(raw_players, list):
        raise EventFileError("players", Message("file_not_list", "expected a list"))
    players = []
    seen: set[str] = set()
    numbers: set[int] = set()
    for i, rp in enumerate(raw_players):
        path = f"players[{i}]"
        rp = _object(rp, path, _PLAYER_KEYS)
        if "id" not in rp:
            raise EventFileError(f"{path}.id", Message("file_missing", "missing"))
        pid = rp["id"]
        if isinstance(pid, int) and not isinstance(pid, bool):
            pid = str(pid)
        pid = _str(pid, f"{path}.id", max_length=MAX_ID)
        if pid in seen:
            raise EventFileError(
                f"{path}.id", Message("file_duplicate_player", "duplicate player id {player}", player=repr(pid))
            )
        seen.add(pid)
        if "name" not in rp:
            raise EventFileError(f"{path}.name", Message("file_missing", "missing"))
        joined = _int(rp.get("joined_round", 1), f"{path}.joined_round", 1)
        dropped = _int(rp.get("dropped_after"), f"{path}.dropped_after", 0, allow_none=True)
        if dropped is not None and dropped < joined - 1:
            raise EventFileError(
                f"{path}.dropped_after", Message("file_drop_before_join", "a player cannot drop before joining")
            )
        byes = _int(rp.get("byes", 0), f"{path}.byes", 0)
        if byes > 3:
            raise EventFileError(f"{path}.byes", Message("file_too_many_byes", "at most 3 pre-awarded byes"))
        number = _int(rp.get("number"), f"{path}.number", 1, allow_none=True, maximum=MAX_PLAYER_NUMBER)
        if number is not None:
            if number in numbers:
                raise EventFileError(
                    f"{path}.number",
                    Message("file_player_number_twice", "player number {number} is given twice", number=number),
                )
            numbers.add(number)
        players.append(
            Player(
                id=pid,
                name=_str(rp["name"], f"{path}.name"),
                rating=_int(rp.get("rating"), f"{path}.rating", 0, allow_none=True, maximum=INT_MAX),
                byes=byes,
                joined_round=joined,
                dropped_after=dropped,
                external_id=_str(rp.get("external_id", ""), f"{path}.external_id", allow_empty=True, max_length=MAX_ID),
                fixed_table=_int(rp.get("fixed_table"), f"{path}.fixed_table", 1, allow_none=True, maximum=INT_MAX),
                reading=_str(rp.get("reading", ""), f"{path}.reading", allow_empty=True),
                number=number,
                **{key: _detail(rp.get(key, ""), f"{path}.{key}", key) for key in _CHESS_DETAILS},
                requested_byes=_requested_byes(rp.get("requested_byes", []), f"{path}.requested_byes"),
            )
        )

    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise EventFileError("rounds", Message("file_not_list", "expected a list"))
    rounds = []
    numbers: set[int] = set()
    for i, rr in enumerate(raw_rounds):
        path = f"rounds[{i}]"
        rr = _object(rr, path, _ROUND_KEYS)
        if "number" not in rr:
            raise EventFileError(f"{path}.number", Message("file_missing", "missing"))
        number = _int(rr["number"], f"{path}.number", 1)
        if number in numbers:
            raise EventFileError(
                f"{path}.number", Message("file_round_twice", "round {round} appears twice", round=number)
            )
        numbers.add(number)
        kind = rr.get("kind", SWISS)
        if kind not in (SWISS, ELIMINATION):
            raise EventFileError(f"{path}.kind", Message("file_round_kind", 'expected "swiss" or "elimination"'))
        state = rr.get("state")
        if state is not None and state not in ROUND_STATES:
            raise EventFileError(f"{path}.state", _one_of(ROUND_STATES))
        matches = rr.get("matches", [])
        if not isinstance(matches, list):
            raise EventFileError(f"{path}.matches", Message("file_not_list", "expected a list"))
        parsed = []
        in_round: set[str] = set()
        tables: set[int] = set()
        for j, rm in enumerate(matches):
            mpath = f"{path}.matches[{j}]"
            match = _parse_match(rm, mpath, seen, best_of, kind == ELIMINATION)
            if state == "draft" and (match.games is not None or match.result == DOUBLE_LOSS):
                # The web app refuses results in a draft: players have not seen these pairings.
                raise EventFileError(
                    mpath, Message("file_draft_results", "a draft round has no results: publish it first")
                )
            for key, pid in (("a", match.a), ("b", match.b)):
                if pid is None:
                    continue
                if pid in in_round:
                    raise EventFileError(
                        f"{mpath}.{key}",
                        Message(
                            "file_plays_twice",
                            "player {player} plays twice in round {round}",
                            player=repr(pid),
                            round=number,
                        ),
                    )
                in_round.add(pid)
            if match.table is not None:
                if match.table in tables:
                    raise EventFileError(
                        f"{mpath}.table",
                        Message(
                            "file_table_twice",
                            "table {table} is used twice in round {round}",
                            table=match.table,
                            round=number,
                        ),
                    )
                tables.add(match.table)
            parsed.append(match)
        rounds.append(
            Round(
                number=number,
                matches=tuple(parsed),
                kind=kind,
                seed=_int(rr.get("seed"), f"{path}.seed", -BIG_MAX - 1, allow_none=True, maximum=BIG_MAX),
                state=state,
            )
        )
    rounds.sort(key=lambda r: r.number)
    return Event(settings=settings, players=tuple(players), rounds=tuple(rounds))


def _detail(value: Any, path: str, key: str) -> str:
    value = _str(value, path, allow_empty=True, max_length=MAX_ID)
    if detail_problem(key, value):
        raise EventFileError(path, detail_problem(key, value))
    return value


_FIDE_ID = re.compile(r"[0-9]{1,11}")
_FEDERATION = re.compile(r"[A-Za-z]{3}")
_TITLE = re.compile("|".join(TITLES), re.IGNORECASE)
_SEX = re.compile(r"[mwfMWF]")
# A TRF's birth date: YYYY/MM/DD (also with - or .), or the year alone; 00 for an unknown month or day.
_BIRTH_DATE = re.compile(r"[0-9]{4}([/.-][0-9]{2}[/.-][0-9]{2})?")


def detail_problem(key: str, value: str) -> Message | None:
    """Why a chess detail (fide_id, federation, title, sex, birth_date) is not one a FIDE report takes, or None.

    Empty is allowed: every detail is optional.
    """
    if not value:
        return None
    if key == "fide_id" and not _FIDE_ID.fullmatch(value):
        return Message("file_fide_id", "a FIDE ID is up to 11 digits")
    if key == "federation" and not _FEDERATION.fullmatch(value):
        return Message("file_federation", "a federation is a three-letter FIDE code such as GER")
    if key == "title" and not _TITLE.fullmatch(value):
        return Message("file_title", "a title is one of {choices}", choices=", ".join(TITLES[:8]))
    if key == "sex" and not _SEX.fullmatch(value):
        return Message("file_sex", "sex is m or w (f is read as w)")
    if key == "birth_date" and not _BIRTH_DATE.fullmatch(value):
        return Message("file_birth_date", "a birth date is written 1969/12/06 or 1969")
    return None


def _initial_colour(value: Any) -> str | None:
    if value is not None and value not in INITIAL_COLOURS:
        raise EventFileError("initial_colour", _one_of(INITIAL_COLOURS))
    return value


def _requested_byes(value: Any, path: str) -> tuple[tuple[int, str], ...]:
    """[{"round": 5, "result": "half_bye"}, ...]: at most one a round, in round order."""
    if not isinstance(value, list):
        raise EventFileError(path, Message("file_not_list", "expected a list"))
    byes: dict[int, str] = {}
    for k, entry in enumerate(value):
        place = f"{path}[{k}]"
        entry = _object(entry, place, {"round", "result"})
        if "round" not in entry:
            raise EventFileError(f"{place}.round", Message("file_missing", "missing"))
        number = _int(entry["round"], f"{place}.round", 1)
        if number in byes:
            raise EventFileError(
                f"{place}.round", Message("file_round_twice", "round {round} appears twice", round=number)
            )
        result = entry.get("result")
        if result not in REQUESTED_BYES:
            raise EventFileError(f"{place}.result", _one_of(REQUESTED_BYES))
        byes[number] = result
    return tuple(sorted(byes.items()))


def _parse_match(rm: Any, path: str, ids: set[str], best_of: int, elimination: bool) -> Match:
    # Fast path for the shape nearly every match has (two known players, three game counts, maybe a table);
    # anything else, valid or not, goes through the checks below that name the place of an error.
    if type(rm) is dict and "result" not in rm and "white" not in rm and rm.keys() <= _MATCH_KEYS:
        a, b, g, table = rm.get("a"), rm.get("b"), rm.get("games"), rm.get("table")
        if (
            type(a) is str
            and type(b) is str
            and a != b
            and a in ids
            and b in ids
            and type(g) is list
            and len(g) == 3
            and (table is None or (type(table) is int and 1 <= table <= INT_MAX))
        ):
            ga, gb, gd = g
            if (
                type(ga) is int
                and type(gb) is int
                and type(gd) is int
                and max(ga, gb, gd) <= SMALL_MAX
                and validate_games((ga, gb, gd), best_of, elimination) is None
            ):
                return Match(a=a, b=b, games=(ga, gb, gd), result=PLAYED, table=table)
    rm = _object(rm, path, _MATCH_KEYS)
    if "a" not in rm:
        raise EventFileError(f"{path}.a", Message("file_missing", "missing"))

    def player(key: str) -> str | None:
        pid = rm.get(key)
        if type(pid) is str and pid in ids:
            return pid
        if pid is None and key == "b":
            return None
        if isinstance(pid, int) and not isinstance(pid, bool):
            pid = str(pid)
        if not isinstance(pid, str) or pid not in ids:
            raise EventFileError(
                f"{path}.{key}", Message("file_unknown_player", "unknown player {player}", player=json.dumps(pid))
            )
        return pid

    a, b = player("a"), player("b")
    if a == b:
        raise EventFileError(f"{path}.b", Message("file_plays_self", "a player cannot play themselves"))
    result = rm.get("result")
    if result is None:
        result = PLAYED if b is not None else BYE
    elif result == LOSS:
        if b is not None:
            raise EventFileError(
                f"{path}.result", Message("file_loss_has_b", '"loss" is an unpaired loss: it has no player b')
            )
    elif result == DOUBLE_LOSS:
        if b is None:
            raise EventFileError(
                f"{path}.result", Message("file_double_loss_needs_b", '"double_loss" needs two players')
            )
    elif result in UNPAIRED:
        if b is not None:
            raise EventFileError(
                f"{path}.result", Message("file_unpaired_has_b", 'a "{result}" has no player b', result=result)
            )
    elif result != FORFEIT:
        raise EventFileError(
            f"{path}.result",
            Message(
                "file_expected_one_of",
                "expected one of {choices}",
                choices=", ".join(r for r in RESULTS if r != PLAYED),
            ),
        )
    if elimination and result in UNPAIRED and result != BYE:
        raise EventFileError(
            f"{path}.result", Message("file_elimination_needs_b", "an elimination match needs two players")
        )

    games = None
    if "games" in rm and rm["games"] is not None:
        if result != PLAYED:
            raise EventFileError(
                f"{path}.games",
                Message("file_no_games", "a {result} has no game counts", result=_RESULT_NAMES[result]),
            )
        g = rm["games"]
        if not isinstance(g, list) or len(g) != 3:
            raise EventFileError(
                f"{path}.games",
                Message("file_games_shape", "expected [games won by a, games won by b, games drawn]"),
            )
        ga, gb, gd = g
        if type(ga) is int and type(gb) is int and type(gd) is int and min(g) >= 0 and max(g) <= SMALL_MAX:
            games = (ga, gb, gd)  # the common case, without building an error path per number
        else:
            games = tuple(_int(g[k], f"{path}.games[{k}]", 0) for k in range(3))
        problem = games_problem(games, best_of, elimination)
        if problem:
            code, params = problem
            raise EventFileError(f"{path}.games", Message(f"games_{code}", GAMES_PROBLEMS[code], **params))
    table = rm.get("table")
    if table is not None:
        table = _int(table, f"{path}.table", 1, maximum=INT_MAX)
    white = rm.get("white")
    if white is not None:
        if result not in (FORFEIT, DOUBLE_LOSS) or b is None:
            raise EventFileError(
                f"{path}.white",
                Message("file_white_unplayed", "only a forfeit or a double loss between two players names white"),
            )
        if white not in (a, b):
            raise EventFileError(f"{path}.white", Message("file_white_player", "white is player a or player b"))
    return Match(a=a, b=b, games=games, result=result, table=table, white=white)


# ---------------------------------------------------------------- dumping


def _num(f: Fraction) -> int | str:
    return int(f) if f.denominator == 1 else str(f)


def dump(event: Event) -> dict:
    """The swiss-event document of an Event; parse(dump(e)) == e."""
    s = event.settings
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "name": s.name,
        "slug": s.slug,
        "preset": s.preset,
        "scoring": {"win": _num(s.scoring.win), "draw": _num(s.scoring.draw), "loss": _num(s.scoring.loss)},
        "best_of": s.best_of,
        "floor": str(s.floor),
        "tiebreakers": list(s.tiebreakers),
        "bye_rating": s.bye_rating,
        "date": s.date,
        "planned_rounds": s.planned_rounds,
        "top_cut": s.top_cut,
        "round_minutes": s.round_minutes,
        "public": s.public,
        "late_entry": s.late_entry,
        "round_one": s.round_one,
        "colours": s.colours,
    }
    # Written only when not the preset's own, so files from before the choice existed come back unchanged.
    if s.pairing:
        doc["pairing"] = s.pairing
    if s.acceleration != "none":
        doc["acceleration"] = s.acceleration
    if s.language != "en":
        doc["language"] = s.language
    if s.time_zone:
        doc["time_zone"] = s.time_zone
    if s.trf_header:
        doc["trf_header"] = list(s.trf_header)
    if s.initial_colour is not None:
        doc["initial_colour"] = s.initial_colour
    if s.rating_breaks_ties:
        doc["rating_breaks_ties"] = True
    for key in ("date", "slug"):
        if doc[key] is None:
            del doc[key]
    doc["players"] = [_dump_player(p) for p in event.players]
    doc["rounds"] = []
    for r in event.rounds:
        rd: dict[str, Any] = {"number": r.number, "kind": r.kind}
        if r.seed is not None:
            rd["seed"] = r.seed
        if r.state is not None:
            rd["state"] = r.state
        rd["matches"] = []
        for m in r.matches:
            md: dict[str, Any] = {}
            if m.table is not None:
                md["table"] = m.table
            md["a"] = m.a
            md["b"] = m.b
            if m.games is not None:
                md["games"] = list(m.games)
            if m.result not in (PLAYED, BYE):
                md["result"] = m.result
            if m.white is not None:
                md["white"] = m.white
            rd["matches"].append(md)
        doc["rounds"].append(rd)
    return doc


def _dump_player(p: Player) -> dict[str, Any]:
    pd = {
        "id": p.id,
        "name": p.name,
        "rating": p.rating,
        "byes": p.byes,
        "joined_round": p.joined_round,
        "dropped_after": p.dropped_after,
        "external_id": p.external_id,
        "fixed_table": p.fixed_table,
    }
    if p.number is not None:
        pd["number"] = p.number
    if p.reading:
        pd["reading"] = p.reading
    # The chess details only where given, so files without them read and write as before.
    for key in _CHESS_DETAILS:
        if getattr(p, key):
            pd[key] = getattr(p, key)
    if p.requested_byes:
        pd["requested_byes"] = [{"round": r, "result": kind} for r, kind in p.requested_byes]
    return pd


def dumps(event: Event) -> str:
    return json.dumps(dump(event), indent=1, ensure_ascii=False) + "\n"
