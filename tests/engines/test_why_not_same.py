"""The answers of why_not (docs/explanations.md#why-not) stay the same when it is made faster: the answers about
random pairs of random rounds of both engines, recorded in tests/data/why_not/answers.json by the code before its
answers were reordered and its facts cached, are given again, fact for fact (the round each builds included).

    .venv/bin/python -m tests.engines.test_why_not_same --record   # write the file again (only on purpose)
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

import pairing
from pairing.explain import why_not
from tests.engines.test_why_not_truth import card_event, generated

RECORDED = Path(__file__).parents[1] / "data" / "why_not" / "answers.json"
CARD = [(seed, n, rounds) for seed, (n, rounds) in enumerate([(9, 2), (16, 3), (23, 4), (40, 5), (65, 3), (120, 4)])]
DUTCH = [(seed, n, rounds) for seed, (n, rounds) in enumerate([(10, 4), (15, 5), (24, 6), (41, 7), (64, 5), (99, 7)])]
QUESTIONS = 24


def questions(inp, result, rng: random.Random) -> list[tuple[str, str]]:
    """Half of them players of neighbouring tables (the round is built again with them paired), half anyone."""
    ids = sorted(e.id for e in inp.entrants) if hasattr(inp, "entrants") else sorted(inp.present)
    asked = []
    for k in range(QUESTIONS):
        if k % 2 and len(result.pairs) > 1:
            t = rng.randrange(len(result.pairs) - 1)
            asked.append((result.pairs[t].a, result.pairs[t + 1].b))
        else:
            asked.append(tuple(rng.sample(ids, 2)))
    return asked


def digest(answer) -> str:
    return hashlib.blake2b(json.dumps(answer.as_dict(), sort_keys=True).encode(), digest_size=10).hexdigest()


def answers(engine: str, seed: int, n: int, rounds: int) -> list[list[str]]:
    """[a, b, code, digest of the whole answer] for each question about the round."""
    rng = random.Random(1000 + seed)
    inp = card_event(rng, n, rounds, colours=seed % 2 == 1) if engine == "card" else generated(seed, n, rounds)
    result = pairing.pair(inp)
    out = []
    for a, b in questions(inp, result, rng):
        answer = why_not(inp, result, a, b)
        out.append([a, b, answer.code, digest(answer)])
    return out


def key(engine: str, seed: int, n: int, rounds: int) -> str:
    return f"{engine}-{seed}-{n}p-{rounds}r"


@pytest.mark.parametrize(
    ("engine", "seed", "n", "rounds"),
    [("card", *c) for c in CARD] + [("dutch", *d) for d in DUTCH],
    ids=lambda v: str(v),
)
def test_the_answers_are_those_recorded(engine, seed, n, rounds):
    recorded = json.loads(RECORDED.read_text())[key(engine, seed, n, rounds)]
    got = answers(engine, seed, n, rounds)
    assert len({code for _, _, code, _ in recorded}) > 1  # the sample asks more than one kind of answer
    assert got == recorded


def record() -> None:
    data = {key("card", *c): answers("card", *c) for c in CARD}
    data |= {key("dutch", *d): answers("dutch", *d) for d in DUTCH}
    RECORDED.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__" and "--record" in sys.argv:
    record()
