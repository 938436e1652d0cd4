"""An event made in the app with the Baku acceleration (C.04.5.1) exports a TRF that pairs its next round as the
app pairs it: the file says "192 FIDE_DUTCH_2025_BAKU", which bbpPairings and this app's own reader both apply (the
export once said nothing of it, and both engines then paired 1-5 6-2 3-7 8-4 where the app paired 1-3 4-2 5-7
8-6). Ten app-made events, each round exported before the app pairs it, paired from the file by `manage.py
pair` and, where the bbpPairings binary is found ($BBPPAIRINGS, or bbpPairings.exe / bbpPairings on the
PATH), by bbpPairings too."""

import io
import json
import os
import random
import shutil
import subprocess

import pytest
from django.core.management import call_command

from standings import points_by_player
from swiss import trf
from tests.conftest import new_chess_event
from tournament.models import Event, Player
from tournament.services.results import parse_outcome, record_result
from tournament.services.rounds import pair_next_round, publish_round
from tournament.snapshot import event_to_trf

pytestmark = pytest.mark.django_db

BBP = os.environ.get("BBPPAIRINGS") or shutil.which("bbpPairings.exe") or shutil.which("bbpPairings")


def baku_event(organiser, k: int) -> Event:
    lot = random.Random(k)
    size = 8 + 3 * k
    ratings = {f"Player {i:02d}": lot.randrange(1200, 2600) for i in range(size)}
    return new_chess_event(
        organiser,
        ratings,
        slug=f"baku-{k}",
        planned_rounds=lot.choice([5, 7, 9]),
        pairing="dutch",
        acceleration="baku",
        initial_colour=lot.choice(["white", "black"]),
    )


def start_ranks(text: str) -> dict[str, int]:
    """The file's start rank of every player, by name."""
    return {line[14:47].strip(): int(line[4:8]) for line in text.splitlines() if line.startswith("001")}


def from_command(path) -> set[tuple[int, int]]:
    out = io.StringIO()
    call_command("pair", str(path), "--format", "json", "--seed", "1", stdout=out)
    rows = json.loads(out.getvalue())["pairings"]
    return {(int(r["a"]), int(r["b"])) for r in rows if r["b"] is not None}


def from_bbp(path, tmp_path) -> set[tuple[int, int]]:
    out = tmp_path / "bbp.out"
    subprocess.run([BBP, "--dutch", str(path), "-p", str(out)], check=True, capture_output=True, timeout=60)
    lines = out.read_text().split()[1:]
    pairs = zip(lines[::2], lines[1::2], strict=True)
    return {(int(a), int(b)) for a, b in pairs if int(b) != 0}


def app_pairs(rnd, ranks: dict[str, int]) -> set[tuple[int, int]]:
    return {
        (ranks[m.player_a.name], ranks[m.player_b.name])
        for m in rnd.matches.filter(player_b__isnull=False).select_related("player_a", "player_b")
    }


def test_the_export_says_baku_and_reads_back_as_baku(organiser):
    event = baku_event(organiser, 0)
    text = event_to_trf(event)
    assert "192 FIDE_DUTCH_2025_BAKU" in text.splitlines()
    assert trf.loads(text, points_by_player).settings.acceleration == "baku"
    # An event without the acceleration names the Dutch system alone (192 FIDE_DUTCH_2025).
    Event.objects.filter(pk=event.pk).update(acceleration="none")
    lines = event_to_trf(Event.objects.get(pk=event.pk)).splitlines()
    assert [line for line in lines if line[:3] == "192"] == ["192 FIDE_DUTCH_2025"]


def test_the_minimal_case_pairs_round_one_as_the_app_does(organiser, tmp_path):
    ratings = {f"P{i}": 2400 - 100 * i for i in range(1, 9)}
    event = new_chess_event(organiser, ratings, planned_rounds=5, acceleration="baku", initial_colour="white")
    path = tmp_path / "r1.trf"
    path.write_text(event_to_trf(event))
    ranks = start_ranks(path.read_text())
    rnd = pair_next_round(event, organiser)
    games = {
        (ranks[m.player_a.name], ranks[m.player_b.name]) for m in rnd.matches.select_related("player_a", "player_b")
    }
    assert games == {(1, 3), (4, 2), (5, 7), (8, 6)}
    assert from_command(path) == games
    if BBP:
        assert from_bbp(path, tmp_path) == games


@pytest.mark.parametrize("k", range(10))
def test_ten_app_made_baku_events_pair_from_their_export_as_the_app(organiser, tmp_path, k):
    event = baku_event(organiser, k)
    lot = random.Random(100 + k)
    for number in range(1, 4):
        path = tmp_path / f"round{number}.trf"
        path.write_text(event_to_trf(Event.objects.get(pk=event.pk)))
        ranks = start_ranks(path.read_text())
        rnd = pair_next_round(Event.objects.get(pk=event.pk), organiser)
        expected = app_pairs(rnd, ranks)
        assert from_command(path) == expected, (k, number)
        if BBP:
            assert from_bbp(path, tmp_path) == expected, (k, number)
        publish_round(rnd, organiser)
        for m in rnd.matches.filter(player_b__isnull=False).order_by("table"):
            record_result(m, parse_outcome(lot.choice(["1-0", "0-1", "1/2-1/2"]), 1, chess=True), organiser)
    assert Player.objects.filter(event=event).count() == 8 + 3 * k


@pytest.mark.skipif(not BBP, reason="bbpPairings not found ($BBPPAIRINGS or the PATH)")
@pytest.mark.parametrize("k", [1, 4])
def test_bbppairings_checker_accepts_every_round_of_an_app_made_baku_event(organiser, tmp_path, k):
    import re

    event = baku_event(organiser, k)
    lot = random.Random(200 + k)
    for _ in range(3):
        rnd = pair_next_round(Event.objects.get(pk=event.pk), organiser)
        publish_round(rnd, organiser)
        for m in rnd.matches.filter(player_b__isnull=False).order_by("table"):
            record_result(m, parse_outcome(lot.choice(["1-0", "0-1", "1/2-1/2"]), 1, chess=True), organiser)
    path = tmp_path / "baku.trf"
    path.write_text(event_to_trf(Event.objects.get(pk=event.pk)))
    run = subprocess.run([BBP, "--dutch", str(path), "-c"], capture_output=True, text=True, timeout=60)
    lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    # The checker names each round it pairs again and finds as the file has it; anything else is a difference.
    assert run.returncode == 0 and len(lines) == 3, lines
    assert all(re.fullmatch(r".*: Round #[1-3]", line) for line in lines), lines
