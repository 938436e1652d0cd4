"""The FIDE rules an event is worked out by follow its start date (swiss/rules.py): the C.07 edition of August
2024 or of March 2026 for the tie-breaks, the 2650 rule of B.02 from 1 October 2025 for rating changes; an event
that names its C.07 edition keeps it whatever its date, and an event without a date has today's rules. The
2026 figures themselves are tested in test_fide.py, test_fide_c07.py and test_rating_published.py. No database."""

import json
from dataclasses import replace
from fractions import Fraction as F
from io import StringIO
from pathlib import Path

import pytest

from pairing.tools.main import main
from standings.fide import expected
from standings.rating import FIDE, FIDE_BEFORE_OCTOBER_2025, fide_for, rating_changes, result_changes
from swiss import eventfile
from swiss.model import FORFEIT, settings_for_preset
from swiss.rules import C07_2024, C07_2026, c07_edition, top_uncapped
from swiss.strictjson import EventFileError
from tests.engines.test_fide import HELD, IN_2026, PUBLISHED, held
from tests.engines.test_fide_c07 import DRAW, WIN, figures, small
from tests.engines.test_rating_published import load


def dated(event, date, rules=""):
    return replace(event, settings=replace(event.settings, date=date, tiebreak_rules=rules))


@pytest.mark.parametrize(
    ("date", "rules", "edition"),
    [
        ("2024-03-22", "", C07_2024),  # before the 2024 edition too: the oldest this app knows
        ("2024-08-01", "", C07_2024),
        ("2026-02-28", "", C07_2024),  # the 2024 edition's last day
        ("2026-03-01", "", C07_2026),  # the 2026 edition's first
        ("2026-12-07", "", C07_2026),
        (None, "", C07_2026),  # no date: today's rules
        ("not a date", "", C07_2026),
        ("2026-05-01", C07_2024, C07_2024),  # named: whatever the date
        ("2025-05-01", C07_2026, C07_2026),
        (None, C07_2024, C07_2024),
    ],
)
def test_the_c07_edition_is_the_one_named_else_the_one_in_force_on_the_start_date(date, rules, edition):
    assert c07_edition(settings_for_preset("chess", date=date, tiebreak_rules=rules)) == edition


@pytest.mark.parametrize(
    ("date", "uncapped"), [("2025-09-30", False), ("2025-10-01", True), ("2017-05-02", False), (None, True)]
)
def test_the_2650_rule_applies_to_events_from_1_october_2025(date, uncapped):
    settings = settings_for_preset("chess", date=date)
    assert top_uncapped(settings) is uncapped
    assert fide_for(small([[("A", "B", WIN)]])) is FIDE  # no date
    assert fide_for(replace(small([[("A", "B", WIN)]]), settings=settings)) is (
        FIDE if uncapped else FIDE_BEFORE_OCTOBER_2025
    )


def test_before_october_2025_a_player_rated_2650_or_more_is_capped_at_400_points_too():
    # 1st Annual Washington Dulles Open (November 2025): the 2813 player's wins over 1787 and 2025 changed
    # nothing (1.00 expected). Had it begun on 30 September 2025, each was capped: 0.92, +0.80 at K 10.
    event, _ = load("washington-dulles-open-2025")
    assert event.settings.date == "2025-11-07"
    now = rating_changes(event)["2016192"]
    assert [(g.expected, g.change) for g in now.games[:2]] == [(1, 0), (1, 0)]
    before = rating_changes(dated(event, "2025-09-30"))["2016192"]
    assert [(g.expected, g.change) for g in before.games[:2]] == [(F(92, 100), F(8, 10))] * 2
    # Every game of his by the 400-point rule, the one against the 2400 (413 points) too: 0.92, not 0.93.
    for game in before.games:
        assert game.expected == expected(max(-400, min(400, 2813 - game.opponent_rating)))
    assert before.games[3].expected == F(92, 100) and now.games[3].expected == F(93, 100)
    # The lower-rated side was capped either way.
    assert rating_changes(dated(event, "2025-09-30"))["9953698"].games[3].change == F(-8, 10)
    # Without a date: today's rules, as the event's own date gives.
    assert rating_changes(dated(event, None))["2016192"].total == now.total


def test_before_october_2025_a_games_open_result_is_capped_too():
    # A 2700 against a 2100, the game not yet played: a win gives 10 x (1 - 0.92) before, 10 x (1 - 0.98) after.
    ev = small([[("A", "B", None)]], {"A": 2700, "B": 2100})
    ev = replace(ev, players=tuple(replace(p, k=10) for p in ev.players))
    assert result_changes(dated(ev, "2025-10-01"))["A"]["win"] == F(2, 10)
    assert result_changes(dated(ev, "2025-09-30"))["A"]["win"] == F(8, 10)


def test_the_2024_edition_of_the_changed_rules_on_small_events():
    # PTP of a perfect score (10.3): 800 above the highest-rated opponent in 2024, 736 above since March 2026.
    ptp = small(
        [[("A", "B", WIN), ("C", "D", DRAW)], [("A", "C", WIN), ("B", "D", DRAW)]],
        {"B": 2000, "C": 1800, "D": 1500},
        tiebreakers=("PTP",),
    )
    assert figures(dated(ptp, "2025-05-01"))["A"]["PTP"] == 2800
    assert figures(dated(ptp, IN_2026))["A"]["PTP"] == 2736
    # Fore Buchholz (8.3): a last-round forfeit stays a forfeit in 2024 (C's dummy on its own 1: 1 + ½), and is
    # drawn since March 2026 (C meets A on 1.5 and D on ½).
    fb = small([[("A", "B", WIN), ("C", "D", WIN)], [("A", "C", FORFEIT), ("B", "D", WIN)]], tiebreakers=("FB",))
    assert (figures(dated(fb, "2025-05-01"))["C"]["FB"], figures(dated(fb, IN_2026))["C"]["FB"]) == (F(3, 2), 2)
    # 16.4: A's forfeit win over E, who lost every round, counts A's own 3 in 2024; E's 0 since March 2026.
    bh = small(
        [
            [("A", "B", WIN), ("C", "E", WIN), ("D", "F", DRAW)],
            [("A", "C", WIN), ("B", "E", WIN), ("D", "F", DRAW)],
            [("A", "E", FORFEIT), ("C", "B", WIN), ("D", "F", DRAW)],
        ]
    )
    assert (figures(dated(bh, "2025-05-01"))["A"]["BH"], figures(dated(bh, IN_2026))["A"]["BH"]) == (6, 3)
    # Named, the edition holds whatever the date.
    assert figures(dated(bh, IN_2026, C07_2024))["A"]["BH"] == 6


def test_the_sonneborn_berger_cut_tie_goes_to_the_least_significant_value_in_2024():
    # Held's #9: 0 (loss to #10), 0 (forfeit loss, a VUR), ¾ (half-point bye), 1½ (pairing-allocated bye), 0
    # (loss to #1). 2024: Cut-1 takes the loss to #10, Cut-2 the forfeit loss: ¾ + 1½. 2026: the forfeit loss,
    # then the half-point bye (test_fide_c07.py).
    assert held(["SB-C2"])[9].tiebreakers["SB-C2"] == F(9, 4)
    assert held(["SB-C2"], IN_2026)[9].tiebreakers["SB-C2"] == F(3, 2)


def test_the_tiebreak_rules_key_of_a_swiss_event_file_is_read_and_written_only_when_named():
    event = small([[("A", "B", WIN)]])
    assert "tiebreak_rules" not in json.loads(eventfile.dumps(event))  # a file without it reads as before
    named = dated(event, "2026-05-01", C07_2024)
    text = eventfile.dumps(named)
    assert json.loads(text)["tiebreak_rules"] == "2024"
    assert eventfile.loads(text).settings.tiebreak_rules == C07_2024
    doc = json.loads(text) | {"tiebreak_rules": "2023"}
    with pytest.raises(EventFileError) as refused:
        eventfile.loads(json.dumps(doc))
    assert refused.value.path == "tiebreak_rules" and "2024, 2026" in str(refused.value)


def run(*argv):
    out, err = StringIO(), StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


def trf_dated(tmp_path: Path, start: str | None, ranks: dict[str, int] | None = None) -> Path:
    """Held's crosstable with its 042 start date replaced (None: without one), ranked by BH, SB and FB, with the
    ranks given (columns 86-89) when given."""
    lines = [line for line in HELD.read_text(encoding="latin-1").splitlines() if not line.startswith("042")]
    if ranks:
        lines = [f"{x[:85]}{ranks[str(int(x[4:8]))]:>4}{x[89:]}" if x.startswith("001") else x for x in lines]
    head = [f"042 {start}"] if start else []
    path = tmp_path / (start or "undated").replace("/", "-")
    path.write_text("\n".join([lines[0], *head, "202 BH, SB, FB", *lines[1:]]) + "\n", encoding="latin-1")
    return path


def standings_of(path: Path) -> list[dict]:
    status, out, err = run("standings", str(path), "--format", "json")
    assert status == 0, err
    return json.loads(out)["standings"]


@pytest.mark.parametrize(("start", "bh_of_4"), [("2024/03/22", 15), ("2026/02/28", 15), ("2026/03/01", 14), (None, 14)])
def test_swiss_standings_follows_the_trf_start_date(tmp_path, start, bh_of_4):
    rows = {r["id"]: r["tiebreakers"] for r in standings_of(trf_dated(tmp_path, start))}
    assert F(rows["4"]["BH"]) == bh_of_4
    if bh_of_4 == 15:  # the paper's own figures, every player's
        assert {int(k): F(v["SB"]) for k, v in rows.items()} == {k: F(v) for k, v in PUBLISHED["SB"].items()}


def test_swiss_check_ranks_a_trf_by_the_rules_of_its_start_date(tmp_path):
    # The ranks the 2024 edition gives (BH, SB, FB): #11 above #8 on 2.5 points (BH 13.5 each, SB 5.75 to 5.25).
    ranks = {r["id"]: r["rank"] for r in standings_of(trf_dated(tmp_path, "2024/03/22"))}
    assert ranks["11"] < ranks["8"]
    for start, agrees in (("2024/03/22", True), ("2026/03/01", False)):
        status, out, _ = run("check", str(trf_dated(tmp_path, start, ranks)), "--format", "json")
        doc = json.loads(out)["standings"]
        assert doc["ok"] is agrees, start
        # Since March 2026 #11's forfeit win counts #9's 1.5, not his own 2.5: BH 12.5, below #8.
        moved = {d["player"]: (d["file"], d["rules"]) for d in doc["differences"]}
        assert moved == ({} if agrees else {"11": (7, [8, 8]), "8": (8, [7, 7])}), start
