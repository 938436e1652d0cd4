"""The initial colour of a FIDE Dutch event (C.04.3 E.5): the colour of pairing number 1 in round 1, which
later rounds give to players without a preference. Chosen in the settings or by a TRF; otherwise read from
round 1's games as bbpPairings reads them, or, for round 1, drawn by lot. The web app keeps what it drew:
a re-pairing, every later round and the TRF export agree with it."""

import importlib
import random
from dataclasses import replace
from pathlib import Path

import pytest
from django.apps import apps
from django.urls import reverse

from pairing import from_event, pair
from pairing.dutch import BLACK, WHITE
from pairing.event import dutch_from_event
from standings import points_by_player
from swiss import model, trf
from tests.conftest import new_chess_event
from tournament.models import Event
from tournament.services.rounds import pair_next_round, publish_round, repair_round
from tournament.snapshot import event_to_file, event_to_trf

pytestmark = pytest.mark.django_db
CORPUS = Path(__file__).parents[2] / "data" / "dutch"

TRF = """012 Colour test
XXR 5
001    1      Player A                          2300                             0.0    1
001    2      Player B                          2200                             0.0    2
001    3      Player C                          2100                             0.0    3
001    4      Player D                          2000                             0.0    4
"""


def top_board_white(event_file: model.Event, seed: int = 0) -> bool:
    """Pairing number 1 has White in round 1."""
    result = pair(from_event(event_file, 1, seed=seed), seed=seed)
    top = next(p for p in result.pairs if "1" in (p.a, p.b))
    return top.a == "1"


@pytest.mark.parametrize(
    ("line", "white"), [("XXC white1", True), ("XXC black1", False), ("152 W", True), ("152 B", False)]
)
def test_a_trf_gives_the_initial_colour_by_xxc_or_152(line, white):
    event = trf.loads(TRF + line + "\n", points_by_player)
    for seed in range(6):  # the file decides, not the lot
        assert top_board_white(event, seed) is white


def test_an_event_file_gives_it_too():
    event = trf.loads(TRF, points_by_player)
    for colour, white in (("white", True), ("black", False)):
        chosen = model.Event(replace(event.settings, initial_colour=colour), event.players)
        assert all(top_board_white(chosen, seed) is white for seed in range(6))


def test_by_lot_for_round_one_and_as_round_one_gave_it_after():
    event = trf.loads(TRF, points_by_player)
    assert {top_board_white(event, seed) for seed in range(12)} == {True, False}  # the seed decides
    for white, lot in (("1", WHITE), ("3", BLACK)):
        first = model.Round(
            1,
            (
                model.Match(white, "4" if white == "3" else "3", (1, 0, 0)),
                model.Match("2", "4" if white == "1" else "1", (0, 0, 1)),
            ),
        )
        played = model.Event(event.settings, event.players, (first,))
        # Every later round reads it from round 1's games, whatever its own seed.
        assert {dutch_from_event(played, 2, seed).initial_colour for seed in range(12)} == {lot}


@pytest.mark.parametrize(
    "path", sorted(p for p in CORPUS.glob("*.trf") if "\nXXC " in p.read_text()), ids=lambda p: p.stem
)
def test_a_trf_without_it_is_read_as_bbppairings_reads_it(path):
    """Without XXC, the colour is read from the games, as bbpPairings reads it: on every corpus file made
    with XXC, the games of any rounds give back the colour XXC named. (The files bbpPairings' generator
    made, rtg*, name none: the corpus test pairs their rounds from 2 on by the colour read.)"""
    text = path.read_text()
    named = WHITE if "XXC white1" in text else BLACK
    event = trf.loads(
        "\n".join(line for line in text.splitlines() if not line.startswith("XXC")) + "\n", points_by_player
    )
    assert event.settings.initial_colour is None
    for number in range(2, len(event.rounds) + 2, 3):
        assert dutch_from_event(event, number, seed=number).initial_colour == named, number


def test_the_settings_choose_it_until_round_one_is_paired(client, organiser):
    from tests.web.organiser.test_organiser import settings_data

    chess = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCD")}, slug="c")
    client.force_login(organiser)
    page = client.get(reverse("org_settings", args=[chess.slug])).content.decode()
    assert 'name="initial_colour"' in page and "Drawn by lot when round 1 is paired" in page
    data = settings_data(chess, win_points="1", draw_points="1/2", best_of=1, colours="on", initial_colour="white")
    assert client.post(reverse("org_settings", args=[chess.slug]), data).status_code == 302
    chess.refresh_from_db()
    assert chess.initial_colour == "white"
    rnd = pair_next_round(chess, organiser)
    top = rnd.matches.get(table=1)
    assert top.player_a_id == chess.players.get(name="Player A").pk
    # Round 1 is paired: the colour is fixed, shown but not taken from the form.
    page = client.get(reverse("org_settings", args=[chess.slug])).content.decode()
    field = page[page.index('name="initial_colour"') - 200 : page.index('name="initial_colour"') + 50]
    assert "disabled" in field
    data["initial_colour"] = "black"
    client.post(reverse("org_settings", args=[chess.slug]), data)
    chess.refresh_from_db()
    assert chess.initial_colour == "white"


def test_in_danish_and_japanese(client, organiser):
    chess = new_chess_event(organiser, {"Player A": 2000, "Player B": 1900}, slug="c")
    client.force_login(organiser)
    for language, words in (("da", "Afgøres ved lodtrækning"), ("ja", "抽選")):
        page = client.get(reverse("org_settings", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE=language)
        assert words in page.content.decode()


def test_a_lot_drawn_with_round_one_is_kept_by_a_re_pairing_later_rounds_and_the_trf(organiser):
    chess = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCDEF")}, slug="c")
    rnd = pair_next_round(chess, organiser)
    chess.refresh_from_db()
    drawn = chess.initial_colour
    assert drawn == {"W": "white", "B": "black"}[random.Random(rnd.seed).choice((WHITE, BLACK))]
    a = chess.players.get(name="Player A").pk
    assert (rnd.matches.get(table=1).player_a_id == a) is (drawn == "white")
    for _ in range(4):  # a new seed each time, the same colour
        rnd = repair_round(rnd, organiser)
        chess.refresh_from_db()
        assert chess.initial_colour == drawn
        assert (rnd.matches.get(table=1).player_a_id == a) is (drawn == "white")
    publish_round(rnd, organiser)
    assert (
        dutch_from_event(event_to_file(chess), 2, seed=12345).initial_colour == {"white": WHITE, "black": BLACK}[drawn]
    )
    assert f"XXC {drawn}1" in event_to_trf(chess)


def test_an_optimal_event_draws_none(organiser):
    chess = new_chess_event(organiser, {f"Player {c}": 2000 - i * 50 for i, c in enumerate("ABCD")}, slug="c")
    Event.objects.filter(pk=chess.pk).update(pairing="optimal")
    chess.refresh_from_db()
    pair_next_round(chess, organiser)
    chess.refresh_from_db()
    assert chess.initial_colour == ""


def test_events_paired_before_the_colour_was_kept_keep_the_one_they_used(organiser):
    """Before, every round drew it from seed 0, which gives Black: the migration keeps that."""
    assert random.Random(0).choice((WHITE, BLACK)) == BLACK
    migration = importlib.import_module("tournament.migrations.0018_event_initial_colour_kept")
    paired = new_chess_event(organiser, {"Player A": 2000, "Player B": 1900}, slug="paired")
    pair_next_round(paired, organiser)
    Event.objects.filter(pk=paired.pk).update(initial_colour="")
    new_chess_event(organiser, {"Player A": 2000, "Player B": 1900}, slug="fresh")
    chosen = new_chess_event(organiser, {"Player A": 2000, "Player B": 1900}, slug="chosen")
    pair_next_round(chosen, organiser)
    Event.objects.filter(pk=chosen.pk).update(initial_colour="white")
    migration.keep_the_colour_already_used(apps, None)
    colours = dict(Event.objects.values_list("slug", "initial_colour"))
    assert colours == {"paired": "black", "fresh": "", "chosen": "white"}
