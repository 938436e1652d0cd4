"""Swaps and flips by hand in a chess round warn of every FIDE absolute colour criterion they break (C.04.1 f,
C.04.3 C3): a third same colour in a row, a colour difference past 2. They passed silently: only rematches
were checked, and a board's colours could not be flipped by hand at all."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import pair
from tournament.models import EventRole, Round
from tournament.services.locks import ServiceError
from tournament.services.rounds import flip_colours, swap_players
from tournament.text import engine_text
from tournament.text.engine_text import round_warnings

pytestmark = pytest.mark.django_db


@pytest.fixture
def chess_rounds(organiser):
    """Six players, two rounds played: Anna and Bo had White twice, Cleo and Dan Black twice, Eva and Finn
    one of each; round 3 a draft: Eva - Anna, Finn - Bo, Cleo - Dan (White first)."""
    from tests.conftest import new_chess_event

    e = new_chess_event(
        organiser, {n: 2000 - 10 * i for i, n in enumerate(["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn"])}
    )
    done = Round.State.COMPLETE
    pair(
        e,
        1,
        [("Anna", "Cleo"), ("Bo", "Dan"), ("Eva", "Finn")],
        state=done,
        results={1: (1, 0, 0), 2: (0, 0, 1), 3: (0, 1, 0)},
    )
    pair(
        e,
        2,
        [("Anna", "Dan"), ("Bo", "Cleo"), ("Finn", "Eva")],
        state=done,
        results={1: (0, 0, 1), 2: (1, 0, 0), 3: (1, 0, 0)},
    )
    pair(e, 3, [("Eva", "Anna"), ("Finn", "Bo"), ("Cleo", "Dan")], state=Round.State.DRAFT)
    e.refresh_from_db()
    return e


def texts(messages) -> list[str]:
    return [engine_text.translate(m) for m in messages]


def test_a_swap_that_gives_a_third_white_and_a_difference_of_three_warns(chess_rounds, organiser):
    rnd = chess_rounds.rounds.get(number=3)
    players = {p.name: p for p in chess_rounds.players.all()}
    # Eva (White on table 1) swaps with Bo: Bo takes White a third time, his difference becomes +3.
    warnings = texts(swap_players(rnd, players["Eva"], players["Bo"], organiser))
    assert "Bo has White a third time in a row (table 1)." in warnings
    assert "Bo's colour difference would be +3, past 2 (table 1)." in warnings
    rnd.refresh_from_db()
    assert "Bo has White a third time in a row (table 1)." in round_warnings(rnd.warnings)
    entry = chess_rounds.log.filter(action="swap").first()
    assert len(entry.detail["colour_breaks"]) == 2


def test_a_clean_swap_warns_of_nothing(chess_rounds, organiser):
    rnd = chess_rounds.rounds.get(number=3)
    players = {p.name: p for p in chess_rounds.players.all()}
    # Anna (Black, table 1) for Bo (Black, table 2): both had White twice, both keep Black.
    assert swap_players(rnd, players["Anna"], players["Bo"], organiser) == []


def test_a_board_is_flipped_by_hand_with_the_same_warnings(chess_rounds, organiser):
    rnd = chess_rounds.rounds.get(number=3)
    board = rnd.matches.get(table=3)  # Cleo - Dan: both had Black twice
    org = Client()
    org.force_login(organiser)
    page = org.get(reverse("org_round", args=[chess_rounds.slug, 3])).content.decode()
    assert "Flip colours" in page
    answer = org.post(
        reverse("org_round_flip", args=[chess_rounds.slug, 3]), {"match": board.pk, "once": "flip-1"}, follow=True
    ).content.decode()
    board.refresh_from_db()
    assert board.player_a.name == "Dan" and board.player_b.name == "Cleo"
    assert "Cleo has Black a third time in a row (table 3)." in answer
    assert "Cleo&#x27;s colour difference would be -3, past 2 (table 3)." in answer
    assert "Flipped the colours of table 3 by hand: Dan has White." in answer
    # The same form sent twice flips once.
    org.post(reverse("org_round_flip", args=[chess_rounds.slug, 3]), {"match": board.pk, "once": "flip-1"})
    board.refresh_from_db()
    assert board.player_a.name == "Dan"
    home = org.get(reverse("org_event", args=[chess_rounds.slug])).content.decode()
    assert "Flipped the colours of table 3 in round 3. It broke a FIDE colour rule." in home


def test_a_judge_cannot_flip_and_a_magic_event_has_no_colours(chess_rounds, judge, event, organiser):
    EventRole.objects.create(event=chess_rounds, user=judge, role=EventRole.Role.JUDGE)
    board = chess_rounds.rounds.get(number=3).matches.get(table=3)
    client = Client()
    client.force_login(judge)
    client.post(reverse("org_round_flip", args=[chess_rounds.slug, 3]), {"match": board.pk})
    board.refresh_from_db()
    assert board.player_a.name == "Cleo"
    from tests.web.public.test_public import ROUND_1

    magic = pair(event, 1, ROUND_1, state=Round.State.DRAFT)
    with pytest.raises(ServiceError):
        flip_colours(magic, magic.matches.first().pk, organiser)
