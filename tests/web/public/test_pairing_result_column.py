"""The public pairings give each player's result where it cannot be read as the opponent's: the score in its own
column between the two players, the row's player first ("3 Mads · Hvid · 0-1 · Søren": Søren won), with the winner
named for a screen reader, in every language. Before, "Søren 2105 vandt 1-0" stood in the opponent's cell and read
"Søren won" on the row of the player who had won."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.public.test_public import pair
from tournament.models import Event, Match
from tournament.services.locks import changed

pytestmark = pytest.mark.django_db

PLAYERS = {"Mads Krogh": 2150, "Søren Kirk": 2105, "Ida Lund": 2000, "Jens Bæk": 1950, "Ole Winther": 1900}
PLAYERS |= {"Åse Nørgård": 1850, "Karen Skov": 1800, "Freja Dahl": 1750}


def cells(body: str) -> dict[str, list[str]]:
    """Each row of the pairings by name, by its player: the text of each of its cells, in order."""
    rows = re.findall(r'<tr data-name="([^"]+)"[^>]*>(.*?)</tr>', body, re.S)
    return {
        name: [
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split())
            for c in re.findall(r"<t[hd]\b[^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for name, row in rows
    }


def page(event, language: str) -> dict[str, list[str]]:
    client = Client()
    client.cookies["swiss_language"] = language
    body = client.get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert f'lang="{language}"' in body[:500]
    return cells(body)


@pytest.fixture
def played(organiser):
    """A chess round: Black won on table 1, White on 2, a draw on 3, a forfeit White won on 4."""
    event = new_chess_event(organiser, PLAYERS, slug="byen", language="da")
    names = list(PLAYERS)
    pairs = [(names[i], names[i + 1]) for i in range(0, 8, 2)]
    rnd = pair(event, 1, pairs, results={1: (0, 1, 0), 2: (1, 0, 0), 3: (0, 0, 1)})
    Match.objects.filter(round=rnd, table=4).update(result=Match.Result.FORFEIT, games_a=None, games_b=None)
    changed(event)
    return event


@pytest.mark.parametrize("language", ["da", "ja", "en"])
def test_the_score_stands_between_the_players_and_the_row_player_comes_first(played, language):
    rows = page(played, language)
    won = {"da": "Søren Kirk vandt", "ja": "Søren Kirkさんの勝ち", "en": "Søren Kirk won"}[language]
    # Mads (White) lost to Søren (Black): his row reads 0-1, Søren's 1-0, and both name Søren the winner.
    mads, soren = rows["Mads Krogh"], rows["Søren Kirk"]
    assert mads[2].startswith("0-1") and won in mads[2] and "Søren Kirk" in mads[3]
    assert soren[2].startswith("1-0") and won in soren[2] and "Mads Krogh" in soren[3]
    assert rows["Ida Lund"][2].startswith("1-0") and rows["Jens Bæk"][2].startswith("0-1")
    assert rows["Ole Winther"][2].startswith("½-½") and rows["Åse Nørgård"][2].startswith("½-½")
    assert rows["Karen Skov"][2].startswith("+/−") and rows["Freja Dahl"][2].startswith("−/+")
    # Nothing of the result is left in the opponent's cell, where it read as the opponent's.
    for row in rows.values():
        assert not re.search(r"vandt|tabte|remis|勝ち(?!点)|負け|引き分け|won|lost|draw", row[3], re.I), row


def test_a_match_of_games_is_scored_from_the_rows_player(event):
    """A best-of-three: 2-1 on the winner's row, 1-2 on the loser's; a draw 1-1-1 on both."""
    Event.objects.filter(pk=event.pk).update(language="da")
    pair(event, 1, [("Player A", "Player B"), ("Player C", "Player D")], results={1: (1, 2, 0), 2: (1, 1, 1)})
    rows = page(event, "da")
    assert rows["Player A"][2] == "1-2 · Player B vandt" and rows["Player B"][2] == "2-1 · Player B vandt"
    assert rows["Player C"][2].startswith("1-1-1") and rows["Player D"][2].startswith("1-1-1")


def test_the_heading_names_the_score_column(played):
    body = Client().get(reverse("public:pairings", args=[played.slug]), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', body)]
    assert heads == ["Spiller", "Bord og farve", "Resultat", "Modstander"]  # the score's for a screen reader
