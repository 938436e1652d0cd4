"""The rounds and matches of a `swiss-event` file (docs/file-formats.md), each checked as it is read: a player
plays once a round, a table is used once, a draft holds no result, and a match's result and games are possible
in its format. `swiss.eventfile` reads the rest of the document and calls `parse_rounds`.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, cast

from swiss.eventtrail import parse_changes
from swiss.messages import Message
from swiss.model import (
    BIG_MAX,
    BYE,
    DOUBLE_LOSS,
    ELIMINATION,
    FORFEIT,
    FULL_BYE,
    GAMES_PROBLEMS,
    HALF_BYE,
    INT_MAX,
    LOSS,
    PLAYED,
    RESULTS,
    ROUND_STATES,
    SMALL_MAX,
    SWISS,
    UNPAIRED,
    ZERO_BYE,
    Match,
    Round,
    games_problem,
    validate_games,
)
from swiss.strictjson import EventFileError, bool_at, int_at, list_at, object_at, one_of, required

# The results in a refusal ("a forfeit has no game counts"), with codes so the web app translates them.
RESULT_NAMES = {
    r: Message(f"result_{r}", r.replace("_", " "))
    for r in (BYE, LOSS, DOUBLE_LOSS, HALF_BYE, ZERO_BYE, FULL_BYE, FORFEIT)
}
_ROUND_KEYS = {f.name for f in fields(Round)}
_MATCH_KEYS = {f.name for f in fields(Match)}


def parse_rounds(value: Any, ids: set[str], best_of: int) -> tuple[Round, ...]:
    numbers: set[int] = set()
    rounds = [_round(rr, f"rounds[{i}]", numbers, ids, best_of) for i, rr in enumerate(list_at(value, "rounds"))]
    rounds.sort(key=lambda r: r.number)
    return tuple(rounds)


def _round(rr: Any, path: str, numbers: set[int], ids: set[str], best_of: int) -> Round:
    """One round; `numbers` are those of the rounds before, to refuse one given twice."""
    rr = object_at(rr, path, _ROUND_KEYS)
    number = int_at(required(rr, "number", path), f"{path}.number", 1)
    if number in numbers:
        raise EventFileError(f"{path}.number", Message("file_round_twice", "round {round} appears twice", round=number))
    numbers.add(number)
    kind = rr.get("kind", SWISS)
    if kind not in (SWISS, ELIMINATION):
        raise EventFileError(f"{path}.kind", Message("file_round_kind", 'expected "swiss" or "elimination"'))
    state = rr.get("state")
    if state is not None and state not in ROUND_STATES:
        raise EventFileError(f"{path}.state", one_of(ROUND_STATES))
    matches = list_at(rr.get("matches", []), f"{path}.matches")
    return Round(
        number=number,
        matches=_round_matches(matches, path, number, state, ids, best_of, kind == ELIMINATION),
        kind=kind,
        seed=int_at(rr.get("seed"), f"{path}.seed", -BIG_MAX - 1, allow_none=True, maximum=BIG_MAX),
        state=state,
        changes=parse_changes(rr.get("changes", []), f"{path}.changes"),
    )


def _round_matches(
    matches: list, path: str, number: int, state: str | None, ids: set[str], best_of: int, elimination: bool
) -> tuple[Match, ...]:
    """A round's matches: a player in one at most, a table used once at most, no result in a draft."""
    parsed = []
    in_round: set[str] = set()
    tables: set[int] = set()
    for j, rm in enumerate(matches):
        mpath = f"{path}.matches[{j}]"
        match = _parse_match(rm, mpath, ids, best_of, elimination)
        if state == "draft" and (match.games is not None or match.result == DOUBLE_LOSS):
            # The web app refuses results in a draft: players have not seen these pairings.
            raise EventFileError(mpath, Message("file_draft_results", "a draft round has no results: publish it first"))
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
    return tuple(parsed)


# ---------------------------------------------------------------- the matches


def _parse_match(rm: Any, path: str, ids: set[str], best_of: int, elimination: bool) -> Match:
    # Fast path for the shape nearly every match has (two known players, three game counts, maybe a table);
    # anything else, valid or not, goes through the checks that name the place of an error.
    if (
        type(rm) is dict
        and "result" not in rm
        and "white" not in rm
        and "adjourned" not in rm
        and rm.keys() <= _MATCH_KEYS
    ):
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
    return _checked_match(rm, path, ids, best_of, elimination)


def _checked_match(rm: Any, path: str, ids: set[str], best_of: int, elimination: bool) -> Match:
    rm = object_at(rm, path, _MATCH_KEYS)
    if "a" not in rm:
        raise EventFileError(f"{path}.a", Message("file_missing", "missing"))
    a, b = cast(str, _match_player(rm, "a", path, ids)), _match_player(rm, "b", path, ids)  # a is never None
    if a == b:
        raise EventFileError(f"{path}.b", Message("file_plays_self", "a player cannot play themselves"))
    result = _match_result(rm.get("result"), path, b, elimination)
    games = _match_games(rm["games"], path, result, best_of, elimination) if rm.get("games") is not None else None
    table = rm.get("table")
    if table is not None:
        table = int_at(table, f"{path}.table", 1, maximum=INT_MAX)
    white = rm.get("white")
    if white is not None:
        if result not in (FORFEIT, DOUBLE_LOSS) or b is None:
            raise EventFileError(
                f"{path}.white",
                Message("file_white_unplayed", "only a forfeit or a double loss between two players names white"),
            )
        if white not in (a, b):
            raise EventFileError(f"{path}.white", Message("file_white_player", "white is player a or player b"))
    adjourned = bool_at(rm.get("adjourned", False), f"{path}.adjourned")
    if adjourned and b is None:
        raise EventFileError(
            f"{path}.adjourned", Message("file_adjourned_unplayed", "only a game between two players is adjourned")
        )
    return Match(a=a, b=b, games=games, result=result, table=table, white=white, adjourned=adjourned)


def _match_player(rm: dict, key: str, path: str, ids: set[str]) -> str | None:
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


def _match_result(result: Any, path: str, b: str | None, elimination: bool) -> str:
    """The result kind the match gives or implies (played with a player b, else a bye), checked against b."""
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
    return result


def _match_games(g: Any, path: str, result: str, best_of: int, elimination: bool) -> tuple[int, int, int]:
    """[games won by a, games won by b, games drawn], possible in the match format."""
    if result != PLAYED:
        raise EventFileError(
            f"{path}.games",
            Message("file_no_games", "a {result} has no game counts", result=RESULT_NAMES[result]),
        )
    if not isinstance(g, list) or len(g) != 3:
        raise EventFileError(
            f"{path}.games",
            Message("file_games_shape", "expected [games won by a, games won by b, games drawn]"),
        )
    ga, gb, gd = g
    if type(ga) is int and type(gb) is int and type(gd) is int and min(g) >= 0 and max(g) <= SMALL_MAX:
        games = (ga, gb, gd)  # the common case, without building an error path per number
    else:
        ga, gb, gd = (int_at(g[k], f"{path}.games[{k}]", 0) for k in range(3))
        games = (ga, gb, gd)
    problem = games_problem(games, best_of, elimination)
    if problem:
        code, params = problem
        raise EventFileError(f"{path}.games", Message(f"games_{code}", GAMES_PROBLEMS[code], **params))
    return games
