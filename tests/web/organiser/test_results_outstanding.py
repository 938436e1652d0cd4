"""Which results are still outstanding is one rule (`services.locks.awaiting_result`): the desk's counts, the
check before pairing the next round, the standings a page shows mid-round and "no result to correct yet"
all ask it, and agree."""

import re
from pathlib import Path

import pytest

from tests.web.public.test_public import ROUND_1, pair
from tournament.models import Round
from tournament.pages import results_board
from tournament.services import results
from tournament.services.locks import ServiceError, awaiting_result, outstanding
from tournament.services.rounds import check_ready_to_pair
from tournament.services.standings import standings_shown

ROOT = Path(__file__).resolve().parents[3]
HOME = ROOT / "tournament" / "services" / "locks.py"
# The condition written out: a played match with no game counts yet.
WRITTEN_OUT = re.compile(r"games_a__isnull=True|games_a IS NULL")
# The hand-written fast path asked after every stored result (tournament/infra/fast/: its SQL is checked below).
ALLOWED = {ROOT / "tournament" / "services" / "results.py"}


def test_the_rule_is_written_out_in_one_place():
    found = []
    for path in sorted((ROOT / "tournament").rglob("*.py")):
        rel = path.relative_to(ROOT / "tournament")
        # records/rounds.py: the row's own rules (`Match.has_result`, and the constraint that game counts come together).
        if path in (HOME, ROOT / "tournament" / "records" / "rounds.py") or "migrations" in rel.parts:
            continue
        hits = WRITTEN_OUT.findall(path.read_text(encoding="utf-8"))
        if path in ALLOWED:
            hits = [h for h in hits if h != "games_a IS NULL"]
        found += [f"{rel}: {h}" for h in hits]
    assert found == []


@pytest.mark.django_db
def test_every_question_about_outstanding_results_gets_one_answer(event, organiser):
    rnd = pair(event, 1, ROUND_1, results={1: (2, 0, 0), 3: (2, 1, 0)})
    shown = standings_shown(event)
    assert outstanding(rnd) == 2
    # The same matches as the model's own rule (`Match.has_result`) picks in Python.
    waiting_ids = set(rnd.matches.filter(awaiting_result()).values_list("pk", flat=True))
    assert waiting_ids == {m.pk for m in rnd.matches.all() if not m.has_result} and len(waiting_ids) == 2
    assert results_board.counts(rnd).outstanding == 2
    assert (shown.playing, shown.entered, shown.total) == (1, 2, 4)
    assert results._missing(rnd.pk) is True
    with pytest.raises(ServiceError, match=r"2 results missing \(table 2, 4\)"):
        check_ready_to_pair(event, 2, rnd)
    waiting = rnd.matches.get(table=2)
    with pytest.raises(ServiceError, match="no result to correct yet"):
        results.correct_result(waiting, results.Outcome("played", (2, 0, 0)), organiser, waiting.version)

    rnd.matches.filter(table__in=(2, 4)).update(games_a=2, games_b=0, games_drawn=0)
    Round.objects.filter(pk=rnd.pk).update(state=Round.State.COMPLETE)
    rnd.refresh_from_db()
    assert outstanding(rnd) == 0 and results_board.counts(rnd).outstanding == 0
    assert standings_shown(event).playing is None and results._missing(rnd.pk) is False
    check_ready_to_pair(event, 2, rnd)
