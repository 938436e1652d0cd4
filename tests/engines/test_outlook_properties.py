"""Random small events (hypothesis): every outlook claim holds for every combination of the other tables'
results, and at this size no "depends" stands where every combination agrees."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engines.outlook_events import random_event
from tests.engines.test_outlook import check_against_brute_force


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["chess", "mtg", "pokemon", "backgammon"]),
    players=st.integers(min_value=2, max_value=7),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10_000),
    settled=st.sampled_from([0.0, 0.3]),
    places=st.integers(min_value=1, max_value=5),
)
def test_random_small_events(preset, players, rounds, seed, settled, places):
    options = {} if preset in ("chess", "backgammon") else {"best_of": 1}
    event = random_event(players, rounds, preset, seed=seed, settled=settled, **options)
    if all(m.games is not None or m.b is None for m in event.rounds[-1].matches):
        return  # every table settled by chance: nothing is open (the refusal has its own test)
    check_against_brute_force(event, places)
