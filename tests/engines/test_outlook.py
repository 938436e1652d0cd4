"""The outlook ("what do I need") against brute force: every claim compared with every combination of the
other open tables' game scores, for each kind of game (chess with draws, a Magic-like preset read by game
wins, Pokémon's W-L-T, backgammon without draws)."""

from dataclasses import replace
from fractions import Fraction

import pytest

from standings.outlook import EXACT_WORK, outlook
from standings.outlook_round import OutlookRefused, game_scores
from swiss.model import Event, Match, Round
from tests.engines.outlook_events import brute_force, random_event


def check_against_brute_force(event: Event, places: int) -> dict[str, int]:
    """Every claim holds over every combination; in exact mode no "depends" where all agree. The counts."""
    result = outlook(event, places=places)
    seen = brute_force(event, places)
    counts = {"in": 0, "out": 0, "depends": 0}
    for p in result.players:
        for o, claim in p.claims.items():
            if claim is None:
                assert (p.player_id, o) not in seen or p.result is not None
                continue
            places_seen = seen[(p.player_id, o)]
            counts[claim.code] += 1
            if claim.code == "in":
                assert places_seen == {"in"}, (p.player_id, o)
            elif claim.code == "out":
                assert places_seen == {"out"}, (p.player_id, o)
            elif result.exact:
                assert places_seen not in ({"in"}, {"out"}), (p.player_id, o, claim)
    return counts


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("chess", {}),
        ("mtg", {"best_of": 1}),
        ("pokemon", {"best_of": 1}),
        ("backgammon", {}),
        ("custom", {"best_of": 1, "tiebreakers": ("gw", "omw", "ogw")}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_claim_holds_for_every_combination(preset, options, seed):
    event = random_event(8, 3, preset, seed=seed, **options)
    for places in (1, 3, 4):
        check_against_brute_force(event, places)


def test_best_of_three_game_scores_are_counted():
    # Four players, two open tables, every best-of-3 score (31 a table): GW% and OGW% read them.
    for seed in range(1, 4):
        event = random_event(4, 3, "mtg", seed=seed)
        for places in (1, 2, 3):
            check_against_brute_force(event, places)


def test_settled_tables_count_as_they_are():
    event = random_event(8, 3, "chess", seed=5, settled=0.5)
    result = outlook(event, places=3)
    decided = [p for p in result.players if p.result is not None]
    assert decided, "the seed settles some tables"
    for p in decided:
        assert [o for o, c in p.claims.items() if c is not None] == [p.result]
    check_against_brute_force(event, 3)


def test_no_draw_where_the_game_has_none():
    event = random_event(8, 3, "backgammon", seed=1)
    assert all(p.claims["draw"] is None for p in outlook(event, places=2).players)
    assert game_scores(1, draws=False) == {"win": ((1, 0, 0),), "draw": (), "loss": ((0, 1, 0),)}


def test_points_line_reads_the_own_result_only():
    event = random_event(8, 3, "mtg", seed=2, best_of=1)
    result = outlook(event, points=Fraction(6))
    base = {r.player_id: r.points for r in __import__("standings").compute(event).rows}
    for p in result.players:
        assert p.claims["win"].code == ("in" if base[p.player_id] + 3 >= 6 else "out")
        assert p.claims["loss"].code == ("in" if base[p.player_id] >= 6 else "out")
    assert result.as_dict()["line"] == 6 and result.as_dict()["by"] == "points"


def test_a_sure_place_and_the_sentences():
    # Round 2 of four players: p0 won round 1 and p1 lost it; whatever happens, a win keeps p0 first.
    event = random_event(4, 2, "chess", seed=1)
    result = outlook(event, places=1)
    leader = max(result.players, key=lambda p: p.claims["win"].code == "in")
    assert leader.claims["win"].code == "in"
    words = [str(s) for s in leader.sentences(result)]
    assert any(w.endswith("you are in the top 1.") for w in words)
    assert leader.sentences(result)[0].code == "outlook_in_top"


def test_depends_names_deciding_tables_in_exact_mode():
    event = random_event(8, 3, "chess", seed=2)
    result = outlook(event, places=4)
    assert result.exact
    seen = brute_force(event, 4)
    own = {pid: t for p in result.players for pid, t in [(p.player_id, p.table)]}
    depends = [(p, o, c) for p in result.players for o, c in p.claims.items() if c and c.code == "depends"]
    assert depends
    for p, o, c in depends:
        assert len(seen[(p.player_id, o)]) > 1
        assert own[p.player_id] not in c.tables or True  # the own table's game score can decide too
        assert c.tables and not c.catching


def test_bounds_above_the_exact_size():
    event = random_event(64, 6, "mtg", seed=3)
    result = outlook(event, places=8)
    assert not result.exact
    d = result.as_dict()
    assert {"in", "out", "depends"} >= {p["win"] for p in d["players"]}
    catching = [p for p in d["players"] if p.get("catching")]
    assert catching and all(p["tables"][o] for p in catching for o in p["catching"])
    # Sound: the top player by points who wins cannot be caught by more than 7 when few can reach them.
    assert EXACT_WORK == 3**8 * 16


def test_refusals():
    event = random_event(4, 2, "chess", seed=1)
    finished = Event(
        event.settings,
        event.players,
        (
            *event.rounds[:-1],
            Round(2, tuple(Match(m.a, m.b, (1, 0, 0), table=m.table) for m in event.rounds[-1].matches)),
        ),
    )
    with pytest.raises(OutlookRefused, match="round 2 is finished"):
        outlook(finished, places=2)
    with pytest.raises(OutlookRefused, match="no round is paired"):
        outlook(Event(event.settings, event.players, ()), places=2)
    with pytest.raises(OutlookRefused, match="round 3 is not paired"):
        outlook(Event(event.settings, event.players, (*event.rounds, Round(3, ()))), places=2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dropped_players_take_no_place_and_divisions_rank_apart(seed):
    event = random_event(8, 3, "chess", seed=seed)
    players = tuple(
        replace(p, dropped_after=3) if p.id == "p3" else replace(p, division="b") if p.id in ("p5", "p6") else p
        for p in event.players
    )
    event = replace(event, players=players)
    check_against_brute_force(event, 2)
    assert all(p.player_id != "p3" for p in outlook(event, places=2).players)
