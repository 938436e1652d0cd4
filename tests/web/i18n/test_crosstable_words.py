"""A crosstable writes a round without an opponent as its game says it: a Pokémon or card game's bye is a bye
(不戦勝, BYE), a round missed is absent (欠席, fravær), where chess writes the points (-1, -0). A column nobody has a
value in is left out: an event without ratings shows no empty Rating column on a 360-px phone."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.public.test_public import pair
from tournament.models import Match, Round
from tournament.services.locks import changed

pytestmark = pytest.mark.django_db


def crosstable(event, language: str) -> str:
    client = Client()
    client.cookies["swiss_language"] = language
    return client.get(reverse("public:crosstable", args=[event.slug])).content.decode()


def cells_of(body: str, name: str) -> list[str]:
    row = re.search(r"<tr>(?:(?!</tr>).)*?" + re.escape(name) + r".*?</tr>", body, re.S).group(0)
    return re.findall(r'<td class="num cross">([^<]*)</td>', row)


@pytest.fixture
def played(event):
    """A Pokémon-style round 1 with a bye (Player G) and a player who missed it (Player H, an unpaired loss)."""
    event.players.update(rating=None)
    pairs = [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", None)]
    rnd = pair(event, 1, pairs, state=Round.State.COMPLETE, results={1: (2, 0, 0), 2: (2, 1, 0), 3: (0, 2, 0)})
    h = event.players.get(name="Player H")
    Match.objects.create(round=rnd, table=5, player_a=h, result=Match.Result.LOSS)
    changed(event)
    return event


@pytest.mark.parametrize(
    ("language", "bye", "absent"), [("en", "bye", "absent"), ("ja", "不戦勝", "欠席"), ("da", "BYE", "fravær")]
)
def test_a_bye_and_a_round_missed_are_written_as_the_game_says_them(played, language, bye, absent):
    body = crosstable(played, language)
    assert cells_of(body, "Player G") == [bye]
    assert cells_of(body, "Player H") == [absent]
    assert "-1" not in re.sub(r"<[^>]+>", " ", body).split()


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_an_event_without_ratings_has_no_rating_column(played, language):
    body = crosstable(played, language)
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', body)
    assert len(heads) == 3 + 1 + 1 + len(played.tiebreakers)  # #, No., Player, R1, Points, tie-breakers
    assert "Rating" not in body and "レーティング" not in body


def test_a_chess_crosstable_keeps_its_points_and_its_ratings(organiser):
    chess = new_chess_event(organiser, {"Mads Krogh": 2150, "Søren Kirk": 2105, "Ida Lund": 2000})
    pair(
        chess, 1, [("Mads Krogh", "Søren Kirk"), ("Ida Lund", None)], state=Round.State.COMPLETE, results={1: (1, 0, 0)}
    )
    body = crosstable(chess, "da")
    assert cells_of(body, "Ida Lund") == ["-1"]
    assert ">Rating</th>" in body and ">2150</td>" in body
