"""What each result of a player's own match gives before the last results are in (standings/prize_outlook.py,
standings/rating.py's `result_changes`): exact examples, and random small events (hypothesis) where every
claim is checked against every completion of the round, each ranked by the standings engine."""

import itertools
from fractions import Fraction

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from standings.engine import compute
from standings.outlook_round import round_state
from standings.prize_outlook import (
    CERTAIN,
    DEPENDS,
    NONE,
    PrizeClaim,
    Share,
    _leavers,
    counted_outlook,
    prize_outlook,
    takes_of,
)
from standings.prizes import entrants_of, split
from standings.rating import format_change, rating_changes, result_changes
from swiss.model import Event, Match, Player, Round, settings_for_preset
from swiss.prizemodel import Category, Prize, PrizeRules
from tests.engines.outlook_events import random_event


def _round2(*matches: Match) -> Event:
    """Four players: A and B won round 1, C and D lost; round 2 pairs A-B and C-D, both open."""
    s = settings_for_preset("chess")
    players = tuple(Player(k, f"Player {k}", rating=r) for k, r in (("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)))
    r1 = Round(1, (Match("A", "C", (1, 0, 0), table=1), Match("B", "D", (1, 0, 0), table=2)))
    r2 = Round(2, matches or (Match("A", "B", None, table=1), Match("C", "D", None, table=2)))
    return Event(s, players, (r1, r2))


PRIZES = (Prize("1st", Fraction(300)), Prize("2nd", Fraction(200)), Prize("3rd", Fraction(100)))


def test_a_win_takes_first_alone_and_a_draw_shares_first_and_second():
    claims = prize_outlook(_round2(), PRIZES, PrizeRules())
    a = claims["A"]
    assert a["win"] == PrizeClaim(CERTAIN, (Share(("1st",), 1, 1, False, False, Fraction(300), None),))
    assert a["draw"] == PrizeClaim(CERTAIN, (Share(("1st", "2nd"), 1, 2, True, False, Fraction(250), None),))
    # A loss: 2nd alone when C-D is drawn, 2nd and 3rd shared with C-D's winner otherwise.
    assert a["loss"] == PrizeClaim(DEPENDS, money=(Fraction(150), Fraction(200)))


def test_the_other_table_decides_third_place():
    claims = prize_outlook(_round2(), PRIZES, PrizeRules())
    c = claims["C"]
    # C wins: level with A-B's loser (2nd and 3rd shared: 150), or 3rd alone when A-B is drawn (100).
    assert c["win"] == PrizeClaim(DEPENDS, money=(Fraction(100), Fraction(150)))
    # C draws: level with D on ½, below whoever of A and B: 3rd shared by two whatever A-B does.
    assert c["draw"] == PrizeClaim(CERTAIN, (Share(("3rd",), 3, 4, True, False, Fraction(50), None),))
    assert c["loss"] == PrizeClaim(NONE)


def test_a_decided_table_fixes_the_rest():
    event = _round2(Match("A", "B", None, table=1), Match("C", "D", (0, 1, 0), table=2))
    claims = prize_outlook(event, PRIZES, PrizeRules())
    assert set(claims) == {"A", "B"}  # only players at an open table
    assert claims["A"]["loss"] == PrizeClaim(CERTAIN, (Share(("2nd", "3rd"), 2, 3, True, False, Fraction(150), None),))


def test_no_prize_list_or_no_open_round_gives_nothing():
    assert prize_outlook(_round2(), (), PrizeRules()) is None
    done = _round2(Match("A", "B", (1, 0, 0), table=1), Match("C", "D", (1, 0, 0), table=2))
    assert prize_outlook(done, PRIZES, PrizeRules()) is None


def test_too_many_open_tables_says_nothing():
    event = random_event(40, 2, "chess", seed=1)
    assert prize_outlook(event, PRIZES, PrizeRules()) is None


def test_rating_change_of_each_result_is_fide_b02():
    event = _round2()
    changes = result_changes(event)
    # A (2000) against B (1900): difference 100, expected 0.64 (table 8.1(b)), K 20.
    assert {o: format_change(v) for o, v in changes["A"].items()} == {"win": "+7.2", "draw": "-2.8", "loss": "-12.8"}
    assert {o: format_change(v) for o, v in changes["B"].items()} == {"win": "+12.8", "draw": "+2.8", "loss": "-7.2"}
    # The same as the event's own change once that result is in.
    won = _round2(Match("A", "B", (1, 0, 0), table=1), Match("C", "D", None, table=2))
    assert rating_changes(won, 2)["A"].by_round()[2] == changes["A"]["win"]


def test_no_rating_change_against_an_unrated_opponent():
    event = _round2()
    players = tuple(p if p.id != "B" else Player("B", "Player B") for p in event.players)
    changes = result_changes(Event(event.settings, players, event.rounds))
    assert "A" not in changes and "B" not in changes and set(changes) == {"C", "D"}


def _brute(event: Event, prizes, rules) -> dict[tuple[str, str], list[tuple[Share, ...]]]:
    """Every (player, own result) -> what they take in each completion: every game score of every open table."""
    state = round_state(event)
    out: dict[tuple[str, str], list] = {}
    choices = [[(t, g) for o in t.outcomes() for g in t.scores[o]] for t in state.tables]
    for combo in itertools.product(*choices):
        games = {t.number: g for t, g in combo}
        doc = state.with_games(games)
        awards = split(
            entrants_of(doc, compute(doc, after_round=state.number).rows), prizes, rules, doc.settings.scoring
        )
        for t, g in combo:
            a = "win" if g[0] > g[1] else "loss" if g[1] > g[0] else "draw"
            for pid in (t.a, t.b):
                out.setdefault((pid, t.side_of(pid, a)), []).append(takes_of(awards, pid))
    return out


def _money(take) -> Fraction:
    return sum((s.money for s in take if s.money is not None), Fraction(0))


def _items(take) -> int:
    return sum(s.items for s in take if s.items is not None)


PRIZE_LISTS = [
    PRIZES,
    (
        Prize("1st", Fraction(100)),
        Prize("2nd", Fraction(50)),
        Prize("U1530", Fraction(30), category=Category(rating_below=1530)),
    ),
    (Prize("1st", items=8, unit="packs"), Prize("2-0", items=3, unit="packs", category=Category(record="2-0"))),
    (Prize("1st", Fraction(100)), Prize("2nd", Fraction(10, 3)), Prize("3rd", Fraction(1, 3))),
]


def _check(event: Event, prizes, rules) -> None:
    claims = prize_outlook(event, prizes, rules)
    assert claims is not None  # small enough to be exact
    seen = _brute(event, prizes, rules)
    assert {(pid, o) for pid, d in claims.items() for o in d} == set(seen)
    for (pid, o), takes in seen.items():
        claim = claims[pid][o]
        if claim.code == CERTAIN:
            assert all(t == claim.shares for t in takes)
        elif claim.code == NONE:
            assert all(t == () for t in takes)
        else:
            assert claim.code == DEPENDS and len(set(takes)) > 1
            if claim.money is not None:
                assert claim.money == (min(map(_money, takes)), max(map(_money, takes)))
            if claim.items is not None:
                assert claim.items == (min(map(_items, takes)), max(map(_items, takes)))


def _open(event: Event) -> bool:
    return any(m.games is None and m.b is not None for m in event.rounds[-1].matches)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["chess", "mtg", "backgammon"]),
    players=st.integers(min_value=2, max_value=7),
    rounds=st.integers(min_value=1, max_value=3),
    seed=st.integers(min_value=0, max_value=10_000),
    settled=st.sampled_from([0.0, 0.3]),
    prizes=st.sampled_from(PRIZE_LISTS),
    ties=st.sampled_from(["shared", "hort", "tiebreak"]),
    one_per_player=st.booleans(),
)
def test_every_claim_holds_for_every_completion(preset, players, rounds, seed, settled, prizes, ties, one_per_player):
    options = {"best_of": 1} if preset == "mtg" else {}
    event = random_event(players, rounds, preset, seed=seed, settled=settled, **options)
    if _open(event):
        _check(event, prizes, PrizeRules(ties=ties, one_per_player=one_per_player))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=3, max_value=5),
    rounds=st.integers(min_value=1, max_value=3),
    seed=st.integers(min_value=0, max_value=10_000),
    prizes=st.sampled_from(PRIZE_LISTS),
    ties=st.sampled_from(["shared", "hort", "tiebreak"]),
)
def test_game_scores_count_where_a_tie_breaker_reads_them(players, rounds, seed, prizes, ties):
    """Best of three with GW% and OGW%: under Hort and tie-break every game score of every open table is a
    combination of its own."""
    event = random_event(players, rounds, "mtg", seed=seed)
    if _open(event):
        _check(event, prizes, PrizeRules(ties=ties))


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=8),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
    settled=st.sampled_from([0.0, 0.5]),
)
def test_each_results_rating_change_is_the_events_once_it_is_in(players, rounds, seed, settled):
    event = random_event(players, rounds, "chess", seed=seed, settled=settled)
    if not _open(event):
        return
    state = round_state(event)
    changes = result_changes(event)
    for t in state.tables:
        for o in t.outcomes():
            done = rating_changes(
                state.with_games({u.number: u.scores[o if u is t else u.outcomes()[0]][0] for u in state.tables}),
                state.number,
            )
            for pid in (t.a, t.b):
                assert changes[pid][t.side_of(pid, o)] == done[pid].by_round()[state.number]


# The fast path (players out of reach of every prize left out, the engine run only where players in reach are
# level on points) against the plain enumeration, which ranks every combination.

FAST_LISTS = [
    *PRIZE_LISTS,
    (
        Prize("1st", Fraction(100)),
        Prize("U1540", Fraction(40), category=Category(rating_below=1540)),
        Prize("U1540 2nd", Fraction(20), category=Category(rating_below=1540)),
        Prize("1-1", Fraction(5), category=Category(record="1-1")),
    ),
    (Prize("1st", Fraction(90)), Prize("From 1550", items=2, unit="books", category=Category(rating_from=1550))),
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["chess", "mtg", "backgammon"]),
    players=st.integers(min_value=2, max_value=9),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
    settled=st.sampled_from([0.0, 0.3, 0.6]),
    prizes=st.sampled_from(FAST_LISTS),
    ties=st.sampled_from(["shared", "hort", "tiebreak"]),
    one_per_player=st.booleans(),
    priority=st.sampled_from(["value", "order"]),
)
def test_the_fast_path_claims_what_the_plain_enumeration_claims(
    preset, players, rounds, seed, settled, prizes, ties, one_per_player, priority
):
    options = {"best_of": 1} if preset == "mtg" and players > 5 else {}
    event = random_event(players, rounds, preset, seed=seed, settled=settled, **options)
    if not _open(event):
        return
    rules = PrizeRules(ties=ties, one_per_player=one_per_player, priority=priority)
    plain, plain_count = counted_outlook(event, prizes, rules, plain=True)
    fast, fast_count = counted_outlook(event, prizes, rules)
    assume(plain is not None)
    assert fast == plain
    assert fast_count <= plain_count


def test_only_tables_with_a_player_in_reach_are_split():
    """Ten players after four rounds: p0 and p2, at the bottom of the field and paired together, cannot reach
    1st-3rd whatever happens, so their table is left at one result; the claims are the plain enumeration's."""
    event = random_event(10, 4, "chess", seed=1)
    plain, plain_count = counted_outlook(event, PRIZES, PrizeRules(), plain=True)
    fast, fast_count = counted_outlook(event, PRIZES, PrizeRules())
    assert fast == plain and plain_count == 3**5 and fast_count == 3**4
    assert all(c == PrizeClaim(NONE) for pid in ("p0", "p2") for c in fast[pid].values())


def test_a_forty_player_open_with_twelve_tables_left_gets_its_claims():
    """Too many combinations for the plain enumeration (3^12 x 40 players); seven of the tables have a player
    who can still reach 1st-3rd, and under "shared" the points alone split the prizes."""
    event = random_event(40, 6, "chess", seed=40, settled=0.5)
    tables = round_state(event).tables
    assert len(tables) == 12
    assert counted_outlook(event, PRIZES, PrizeRules(), plain=True) == (None, 0)
    claims, examined = counted_outlook(event, PRIZES, PrizeRules())
    assert claims is not None and examined == 3**7
    assert set(claims) == {pid for t in tables for pid in (t.a, t.b)}


def test_a_forty_player_open_with_four_tables_left_under_tie_break():
    """The tie-breakers read every table: where players in reach finish level on points, every completion is
    ranked, the others split by points alone; the claims are the plain enumeration's."""
    event = random_event(40, 6, "chess", seed=40, settled=0.8)
    rules = PrizeRules(ties="tiebreak")
    plain, plain_count = counted_outlook(event, PRIZES, rules, plain=True)
    fast, fast_count = counted_outlook(event, PRIZES, rules)
    assert fast is not None and fast == plain and plain_count == 3**4 and fast_count <= plain_count


def test_leavers_counts_the_fullest_point_totals():
    # Three players who can each finish on 4-6 units and one on 8: two totals can hold all three, then one more.
    assert _leavers([(4, 6), (4, 6), (5, 7), (8, 8)], 1) == 3
    assert _leavers([(4, 6), (4, 6), (5, 7), (8, 8)], 2) == 4
    assert _leavers([(4, 6)], 0) == 0
