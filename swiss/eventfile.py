"""The `swiss-event` interchange file (docs/file-formats.md): a strict parser and a dumper of the model's dataclasses.

Pure Python: the `standings` and `pair` commands read files with it, and the web app's
import/export and adapters build the same dataclasses (`swiss.model`) from the database. The JSON itself
is read by `swiss.strictjson`, whose EventFileError names the place of the first error; the rounds and
matches by `swiss.eventrounds`.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from swiss.chessfacts import accelerations, detail_problem, forbidden_pairs, forbidden_rounds, rating_report
from swiss.eventrounds import parse_rounds
from swiss.eventrules import dump_event_rules, event_rules
from swiss.eventtrail import dump_changes
from swiss.messages import Message
from swiss.model import (
    ACCELERATIONS,
    BEST_OF,
    BYE,
    INITIAL_COLOURS,
    INT_MAX,
    LANGUAGES,
    LATE_ENTRY_POLICIES,
    MAX_ID,
    MAX_K,
    MAX_PLAYER_NUMBER,
    MAX_ROUND_MINUTES,
    PAIRING_SYSTEMS,
    PLAYED,
    REQUESTED_BYES,
    ROUND_ONE_METHODS,
    Event,
    Match,
    Player,
    Round,
    Scoring,
    Settings,
    default_pairing,
    is_top_cut,
    settings_for_preset,
    time_zones,
)
from swiss.presets import PRESETS, TIEBREAKER_CODES
from swiss.prizelist import dump_prize_settings, prize_settings
from swiss.rules import dump_tiebreak_rules, tiebreak_rules_at
from swiss.sectionfacts import dump_section_settings, section_settings
from swiss.strictjson import (
    EventFileError,
    bool_at,
    date_at,
    decode,
    fraction_at,
    int_at,
    list_at,
    object_at,
    one_of,
    required,
    str_at,
)

FORMAT = "swiss-event"
VERSION = 1
# A key for every field of the dataclasses, and nothing else (parse(dump(e)) == e); the document adds its own.
_EVENT_KEYS = {f.name for f in fields(Settings)} | {"format", "version", "players", "rounds"}
# A section of a version-2 file (swiss.venuefile) is an event's body: everything but the document's own keys.
SECTION_KEYS = _EVENT_KEYS - {"format", "version"}
# What a section takes from its venue when it leaves the key out (and a writer leaves out when equal).
INHERITED = ("date", "language", "time_zone", "public")
_PLAYER_KEYS = {f.name for f in fields(Player)}
_CHESS_DETAILS = ("fide_id", "federation", "title", "sex", "birth_date")


def loads(text: str | bytes) -> Event:
    """Parse the text of a swiss-event file."""
    return parse(decode(text))


def parse(data: Any) -> Event:
    """Validate a decoded swiss-event document and build the Event; raise EventFileError naming the place."""
    data = object_at(data, "", _EVENT_KEYS)
    if data.get("format") != FORMAT:
        raise EventFileError("format", Message("file_format", 'expected "{format}"', format=FORMAT))
    if data.get("version") != VERSION:
        raise EventFileError("version", Message("file_version", "expected {version}", version=VERSION))
    event = _body(data)
    if event.settings.pair_with:
        raise EventFileError(
            "pair_with",
            Message("file_pair_with_alone", "names another section: only a file with sections (version 2) has one"),
        )
    return event


def parse_section(data: Any, venue: dict[str, Any]) -> Event:
    """One section of a version-2 document: an event's body, which takes the venue's `INHERITED` values
    (`venue`, as the document gives them) for the keys it leaves out. Paths are the section's own."""
    data = object_at(data, "", SECTION_KEYS)
    if "name" not in data:
        raise EventFileError("name", Message("file_missing", "missing"))
    return _body({**{k: v for k, v in venue.items() if k in INHERITED}, **data})


def parse_players(value: Any, path: str = "players") -> tuple[Player, ...]:
    """A list of players, on its own (a venue's players not yet placed in a section)."""
    return _players(value, path)


def _body(data: dict) -> Event:
    settings = _settings(data)
    players = _players(data.get("players", []))
    ids = {p.id for p in players}
    if "forbidden_pairs" in data:
        settings = replace(settings, forbidden_pairs=forbidden_pairs(data["forbidden_pairs"], ids))
    if "forbidden_rounds" in data:
        settings = replace(settings, forbidden_rounds=forbidden_rounds(data["forbidden_rounds"], ids))
    rounds = parse_rounds(data.get("rounds", []), ids, settings.best_of)
    return Event(settings=settings, players=players, rounds=rounds)


# ---------------------------------------------------------------- the settings


def _settings(data: dict) -> Settings:
    """The event's settings: what the file says, the preset's own for what it leaves out."""
    preset = _preset(data.get("preset", "mtg"))
    defaults = settings_for_preset(preset)
    scoring = _scoring(data["scoring"], defaults.scoring) if "scoring" in data else defaults.scoring
    best_of = int_at(data.get("best_of", defaults.best_of), "best_of", 1)
    if best_of not in BEST_OF:
        raise EventFileError(
            "best_of",
            Message("file_expected_one_of", "expected one of {choices}", choices=", ".join(map(str, BEST_OF))),
        )
    floor = fraction_at(data["floor"], "floor") if "floor" in data else defaults.floor
    if not 0 <= floor < 1:
        raise EventFileError("floor", Message("file_floor_range", "must be at least 0 and below 1"))
    tiebreakers = _tiebreakers(data["tiebreakers"]) if "tiebreakers" in data else defaults.tiebreakers
    late_entry = _choice(data.get("late_entry", "none"), "late_entry", LATE_ENTRY_POLICIES)
    round_one = _choice(data.get("round_one", "random"), "round_one", ROUND_ONE_METHODS)
    pairing_system = _pairing(data.get("pairing", ""), preset)
    acceleration = _choice(data.get("acceleration", "none"), "acceleration", ACCELERATIONS)
    date = date_at(data.get("date"), "date")
    slug = data.get("slug")
    if slug is not None and (not isinstance(slug, str) or not re.fullmatch(r"[-\w]{1,80}", slug)):
        raise EventFileError("slug", Message("file_bad_slug", "letters, digits, - and _ only, at most 80"))
    top_cut = int_at(data.get("top_cut", 0), "top_cut", 0)
    if not is_top_cut(top_cut):
        raise EventFileError("top_cut", Message("file_top_cut", "0 (none) or a power of two: 2, 4, 8, 16…"))
    trf_header = data.get("trf_header", [])
    if not isinstance(trf_header, list) or not all(isinstance(x, str) and "\n" not in x for x in trf_header):
        raise EventFileError("trf_header", Message("file_trf_header", "expected a list of TRF header lines (strings)"))
    return Settings(
        trf_header=tuple(trf_header),
        name=str_at(data.get("name", "Event"), "name"),
        slug=slug,
        preset=preset,
        scoring=scoring,
        best_of=best_of,
        floor=floor,
        tiebreakers=tiebreakers,
        bye_rating=int_at(data.get("bye_rating", 0), "bye_rating", 0, maximum=INT_MAX),
        date=date,
        planned_rounds=int_at(data.get("planned_rounds"), "planned_rounds", 1, allow_none=True),
        top_cut=top_cut,
        round_minutes=int_at(data.get("round_minutes", 50), "round_minutes", 1, maximum=MAX_ROUND_MINUTES),
        public=bool_at(data.get("public", True), "public"),
        late_entry=late_entry,
        round_one=round_one,
        colours=bool_at(data.get("colours", defaults.colours), "colours"),
        pairing=pairing_system,
        acceleration=acceleration,
        language=_choice(data.get("language", "en"), "language", LANGUAGES),
        initial_colour=_initial_colour(data.get("initial_colour")),
        rating_breaks_ties=bool_at(data.get("rating_breaks_ties", False), "rating_breaks_ties"),
        time_zone=_time_zone(data.get("time_zone", "")),
        **rating_report(data),
        **tiebreak_rules_at(data),
        **section_settings(data),
        **prize_settings(data),
        **event_rules(data),
    )


def _preset(value: Any) -> str:
    if not isinstance(value, str) or value not in PRESETS:
        raise EventFileError(
            "preset",
            Message(
                "file_unknown_preset",
                "unknown preset {preset}; one of {choices}",
                preset=repr(value),
                choices=", ".join(PRESETS),
            ),
        )
    return value


def _scoring(value: Any, defaults: Scoring) -> Scoring:
    """The points of a win, a draw and a loss; a key left out keeps the preset's."""
    s = object_at(value, "scoring", {"win", "draw", "loss"})
    scoring = Scoring(
        *(fraction_at(s[k], f"scoring.{k}") if k in s else getattr(defaults, k) for k in ("win", "draw", "loss"))
    )
    if not scoring.win > scoring.loss or not scoring.loss <= scoring.draw <= scoring.win:
        raise EventFileError(
            "scoring",
            Message("file_scoring_order", "a win must score more than a loss, and a draw between the two"),
        )
    return scoring


def _tiebreakers(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise EventFileError("tiebreakers", Message("file_tiebreakers_list", "expected a list of tie-breaker codes"))
    for i, code in enumerate(value):
        if code not in TIEBREAKER_CODES:
            raise EventFileError(
                f"tiebreakers[{i}]", Message("file_unknown_tiebreaker", "unknown tie-breaker {code}", code=repr(code))
            )
    if len(set(value)) != len(value):
        raise EventFileError("tiebreakers", Message("file_tiebreaker_twice", "a tie-breaker is listed twice"))
    return tuple(value)


def _choice(value: Any, key: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise EventFileError(key, one_of(choices))
    return value


def _pairing(value: Any, preset: str) -> str:
    """The pairing system the event chose; "" for the preset's own, so that it follows the preset."""
    if value not in ("", *PAIRING_SYSTEMS):
        raise EventFileError("pairing", one_of(PAIRING_SYSTEMS))
    return "" if value == default_pairing(preset) else value


def _initial_colour(value: Any) -> str | None:
    if value is not None and value not in INITIAL_COLOURS:
        raise EventFileError("initial_colour", one_of(INITIAL_COLOURS))
    return value


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


# ---------------------------------------------------------------- the players


def _players(value: Any, path: str = "players") -> tuple[Player, ...]:
    ids: set[str] = set()
    numbers: set[int] = set()
    return tuple(_player(rp, f"{path}[{i}]", ids, numbers) for i, rp in enumerate(list_at(value, path)))


def _player(rp: Any, path: str, ids: set[str], numbers: set[int]) -> Player:
    """One player; `ids` and `numbers` are those of the players before, to refuse one given twice."""
    rp = object_at(rp, path, _PLAYER_KEYS)
    pid = required(rp, "id", path)
    if isinstance(pid, int) and not isinstance(pid, bool):
        pid = str(pid)
    pid = str_at(pid, f"{path}.id", max_length=MAX_ID)
    if pid in ids:
        raise EventFileError(
            f"{path}.id", Message("file_duplicate_player", "duplicate player id {player}", player=repr(pid))
        )
    ids.add(pid)
    name = required(rp, "name", path)
    joined = int_at(rp.get("joined_round", 1), f"{path}.joined_round", 1)
    dropped = int_at(rp.get("dropped_after"), f"{path}.dropped_after", 0, allow_none=True)
    if dropped is not None and dropped < joined - 1:
        raise EventFileError(
            f"{path}.dropped_after", Message("file_drop_before_join", "a player cannot drop before joining")
        )
    byes = int_at(rp.get("byes", 0), f"{path}.byes", 0)
    if byes > 3:
        raise EventFileError(f"{path}.byes", Message("file_too_many_byes", "at most 3 pre-awarded byes"))
    number = int_at(rp.get("number"), f"{path}.number", 1, allow_none=True, maximum=MAX_PLAYER_NUMBER)
    if number is not None:
        if number in numbers:
            raise EventFileError(
                f"{path}.number",
                Message("file_player_number_twice", "player number {number} is given twice", number=number),
            )
        numbers.add(number)
    return Player(
        id=pid,
        name=str_at(name, f"{path}.name"),
        rating=int_at(rp.get("rating"), f"{path}.rating", 0, allow_none=True, maximum=INT_MAX),
        byes=byes,
        joined_round=joined,
        dropped_after=dropped,
        external_id=str_at(rp.get("external_id", ""), f"{path}.external_id", allow_empty=True, max_length=MAX_ID),
        fixed_table=int_at(rp.get("fixed_table"), f"{path}.fixed_table", 1, allow_none=True, maximum=INT_MAX),
        reading=str_at(rp.get("reading", ""), f"{path}.reading", allow_empty=True),
        number=number,
        **{key: _detail(rp.get(key, ""), f"{path}.{key}", key) for key in _CHESS_DETAILS},
        requested_byes=_requested_byes(rp.get("requested_byes", []), f"{path}.requested_byes"),
        **_name_parts(rp, path),
        accelerations=accelerations(rp.get("accelerations", []), f"{path}.accelerations"),
        pairing_number=int_at(rp.get("pairing_number"), f"{path}.pairing_number", 1, allow_none=True, maximum=INT_MAX),
        division=str_at(rp.get("division", ""), f"{path}.division", allow_empty=True),
        cut_after=int_at(rp.get("cut_after"), f"{path}.cut_after", 1, allow_none=True),
        k=int_at(rp.get("k"), f"{path}.k", 1, allow_none=True, maximum=MAX_K),
        half_bye_ok=bool_at(rp.get("half_bye_ok", True), f"{path}.half_bye_ok"),
    )


def _name_parts(rp: dict, path: str) -> dict[str, str]:
    """The optional `family_name` and `given_name` (swiss.names): both, or neither."""
    parts = {key: str_at(rp.get(key, ""), f"{path}.{key}", allow_empty=True) for key in ("family_name", "given_name")}
    if bool(parts["family_name"].strip()) != bool(parts["given_name"].strip()):
        missing = "given_name" if parts["family_name"].strip() else "family_name"
        raise EventFileError(
            f"{path}.{missing}",
            Message("file_name_parts", "family_name and given_name are given together, or neither"),
        )
    return parts


def _detail(value: Any, path: str, key: str) -> str:
    value = str_at(value, path, allow_empty=True, max_length=MAX_ID)
    if problem := detail_problem(key, value):
        raise EventFileError(path, problem)
    return value


def _requested_byes(value: Any, path: str) -> tuple[tuple[int, str], ...]:
    """[{"round": 5, "result": "half_bye"}, ...]: at most one a round, in round order."""
    byes: dict[int, str] = {}
    for k, entry in enumerate(list_at(value, path)):
        place = f"{path}[{k}]"
        entry = object_at(entry, place, {"round", "result"})
        number = int_at(required(entry, "round", place), f"{place}.round", 1)
        if number in byes:
            raise EventFileError(
                f"{place}.round", Message("file_round_twice", "round {round} appears twice", round=number)
            )
        result = entry.get("result")
        if result not in REQUESTED_BYES:
            raise EventFileError(f"{place}.result", one_of(REQUESTED_BYES))
        byes[number] = result
    return tuple(sorted(byes.items()))


# ---------------------------------------------------------------- dumping


def _num(f: Fraction) -> int | str:
    return int(f) if f.denominator == 1 else str(f)


def dump(event: Event) -> dict:
    """The swiss-event document of an Event; parse(dump(e)) == e."""
    doc = _dump_settings(event.settings)
    doc["players"] = [_dump_player(p) for p in event.players]
    doc["rounds"] = [_dump_round(r) for r in event.rounds]
    return doc


def _dump_settings(s: Settings) -> dict[str, Any]:
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
    # The rating report's facts only where given.
    for key in ("city", "federation", "end_date", "chief_arbiter", "time_control"):
        if getattr(s, key):
            doc[key] = getattr(s, key)
    if s.deputy_arbiters:
        doc["deputy_arbiters"] = list(s.deputy_arbiters)
    if s.round_dates:
        doc["round_dates"] = list(s.round_dates)
    if s.forbidden_pairs:
        doc["forbidden_pairs"] = [list(pair) for pair in s.forbidden_pairs]
    if s.forbidden_rounds:
        doc["forbidden_rounds"] = [list(entry) for entry in s.forbidden_rounds]
    doc.update(dump_tiebreak_rules(s))
    doc.update(dump_section_settings(s))
    doc.update(dump_prize_settings(s.prizes, s.prize_rules))
    doc.update(dump_event_rules(s))
    for key in ("date", "slug"):
        if doc[key] is None:
            del doc[key]
    return doc


def dump_section(event: Event, venue: dict[str, Any]) -> dict[str, Any]:
    """A section of a version-2 document: the event's body without the document's keys, and without the
    `INHERITED` values it shares with `venue` (a value it does not share is written, even the default)."""
    doc = _dump_settings(event.settings)
    del doc["format"], doc["version"]
    for key in INHERITED:
        value = getattr(event.settings, key)
        if value == venue[key]:
            doc.pop(key, None)
        else:
            doc[key] = value
    doc["players"] = [_dump_player(p) for p in event.players]
    doc["rounds"] = [_dump_round(r) for r in event.rounds]
    return doc


def dump_players(players: tuple[Player, ...]) -> list[dict[str, Any]]:
    return [_dump_player(p) for p in players]


def _dump_round(r: Round) -> dict[str, Any]:
    rd: dict[str, Any] = {"number": r.number, "kind": r.kind}
    if r.seed is not None:
        rd["seed"] = r.seed
    if r.state is not None:
        rd["state"] = r.state
    rd["matches"] = [_dump_match(m) for m in r.matches]
    if r.changes:
        rd["changes"] = dump_changes(r.changes)
    return rd


def _dump_match(m: Match) -> dict[str, Any]:
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
    if m.adjourned:
        md["adjourned"] = True
    return md


def _dump_player(p: Player) -> dict[str, Any]:
    pd: dict[str, Any] = {
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
    if p.family_name or p.given_name:
        pd["family_name"], pd["given_name"] = p.family_name, p.given_name
    # The chess details only where given, so files without them read and write as before.
    for key in _CHESS_DETAILS:
        if getattr(p, key):
            pd[key] = getattr(p, key)
    if p.requested_byes:
        pd["requested_byes"] = [{"round": r, "result": kind} for r, kind in p.requested_byes]
    if p.accelerations:
        pd["accelerations"] = [_num(a) for a in p.accelerations]
    if p.pairing_number is not None:
        pd["pairing_number"] = p.pairing_number
    if p.division:
        pd["division"] = p.division
    if p.cut_after is not None:
        pd["cut_after"] = p.cut_after
    if p.k is not None:
        pd["k"] = p.k
    if not p.half_bye_ok:
        pd["half_bye_ok"] = False
    return pd


def dumps(event: Event) -> str:
    return json.dumps(dump(event), indent=1, ensure_ascii=False) + "\n"
