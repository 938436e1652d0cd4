"""The rendering cache: one computation per key however many requests miss at once."""

import threading
import time

import pytest
from django.core.cache import cache

from tournament.public_cache import cached, single_flight


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_concurrent_misses_compute_once():
    calls = []

    def make():
        calls.append(1)
        time.sleep(0.2)
        return "page"

    results = []
    threads = [threading.Thread(target=lambda: results.append(cached("k", make))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["page"] * 8
    assert len(calls) == 1


def test_different_keys_do_not_wait_for_each_other():
    started = time.monotonic()
    threads = [threading.Thread(target=cached, args=(f"k{n}", lambda n=n: time.sleep(0.3) or n)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert time.monotonic() - started < 1.0
    assert [cache.get(f"k{n}") for n in range(4)] == [0, 1, 2, 3]


def test_the_shared_lock_is_released_even_when_the_computation_fails():
    with pytest.raises(RuntimeError), single_flight("boom"):
        raise RuntimeError("the standings engine failed")
    assert cache.get("lock:boom") is None
    assert cached("boom", lambda: "recovered") == "recovered"
