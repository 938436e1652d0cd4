"""A chess event's pages in the words arbiters and chess players read (not a card game's): ½-½ and 1½, not
0-0-1 and 3/2; W-D-L; one game, not "best of 1"; White and Black, not A and B; in Danish remis, oversidder,
V-R-T, parti/partier and "hvid mod Kåre Ødegaard"."""

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import new_chess_event
from tests.web.public.test_public import pair
from tournament.models import Event, Match, Player, Round
from tournament.services.locks import changed

pytestmark = pytest.mark.django_db

NAMES = ["Aase Lund", "Kåre Ødegaard", "Mette Holm", "Jens Bæk", "Ida Dahl", "Ole Winther", "Karen Skov"]


@pytest.fixture
def chess_event(organiser):
    """Seven players: round 1 finished with a win, a draw, a double loss and a half-point bye; round 2
    finished with a win, a draw and a full bye; round 3 a draft."""
    ratings = {name: 2000 - 50 * i for i, name in enumerate(NAMES)}
    e = new_chess_event(organiser, ratings, "skak", name="Vinterskak", planned_rounds=4, reporting="confirm")
    Player.objects.filter(event=e, name=NAMES[1]).update(title="FM")
    a, k, m, j, i, o, s = NAMES
    pair(e, 1, [(a, k), (m, j), (i, o), (s, None)], state=Round.State.COMPLETE, results={1: (1, 0, 0), 2: (0, 0, 1)})
    Match.objects.filter(round__event=e, round__number=1, table=3).update(
        result=Match.Result.DOUBLE_LOSS, games_a=None, games_b=None, games_drawn=None
    )
    Match.objects.filter(round__event=e, round__number=1, player_b__isnull=True).update(result=Match.Result.HALF_BYE)
    pair(e, 2, [(m, a), (k, i), (o, s), (j, None)], state=Round.State.COMPLETE, results={1: (0, 0, 1), 2: (1, 0, 0)})
    Match.objects.filter(round__event=e, round__number=2, table=3).update(games_a=0, games_b=0, games_drawn=1)
    pair(e, 3, [(a, i), (k, m), (j, o), (s, None)], state=Round.State.DRAFT)
    changed(e)
    e.refresh_from_db()
    return e


def pages(event: Event) -> dict[str, tuple[str, str]]:
    e = event.slug
    aase = event.players.get(name=NAMES[0])
    match = Match.objects.get(round__event=event, round__number=2, table=1)
    return {
        "event home": ("org", reverse("org_event", args=[e])),
        "players": ("org", reverse("org_players", args=[e])),
        "player edit": ("org", reverse("org_player_edit", args=[e, aase.pk])),
        "settings": ("org", reverse("org_settings", args=[e])),
        "round 1": ("org", reverse("org_round", args=[e, 1])),
        "round 2": ("org", reverse("org_round", args=[e, 2])),
        "draft": ("org", reverse("org_round", args=[e, 3])),
        "match": ("org", reverse("org_match", args=[e, 2, match.pk])),
        "standings": ("org", reverse("org_standings", args=[e])),
        "by name": ("org", reverse("org_print_by_name", args=[e, 2])),
        "by table": ("org", reverse("org_print_by_table", args=[e, 2])),
        "slips": ("org", reverse("org_print_slips", args=[e, 2])),
        "print standings": ("org", reverse("org_print_standings", args=[e])),
        "print crosstable": ("org", reverse("org_print_crosstable", args=[e])),
        "public home": ("public", reverse("public:home", args=[e])),
        "public pairings": ("public", reverse("public:pairings", args=[e])),
        "public standings": ("public", reverse("public:standings", args=[e])),
        "public player": ("public", reverse("public:player", args=[e, aase.pk])),
        "public screen": ("public", reverse("public:screen", args=[e])),
        "public crosstable": ("public", reverse("public:crosstable", args=[e])),
        "my page": ("me", reverse("player:link", args=[e, aase.pk, aase.token])),
    }


def fetch(language: str, who: str, url: str, organiser) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if who == "org":
        client.force_login(organiser)
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    return response.content.decode()


def text_of(body: str) -> str:
    body = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", body)
    attributes = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', body)
    return " ".join(html.unescape(" ".join([re.sub(r"<[^>]+>", " ", body), *attributes])).split())


# What a card game says that a chess event's pages must not (every language, then each one's own).
CARD_WORDS = [r"\b0-0-1\b", r"\b3/2\b", r"\b1/2\b", r"Games won by", r"\bbest of\b", r"\bW-L-D\b"]
NOT_CHESS = {
    "en": CARD_WORDS,
    "da": [
        *CARD_WORDS,
        r"\bBYE",
        r"[Uu]afgjort",
        r"\b[Kk]amp(e|en|ene)?\b",
        r"[Bb]edst af",
        r"V-T-[UR]",
        r"Spil vundet",
    ],
    "ja": [*CARD_WORDS, r"マッチ", r"ゲーム数"],
}


@pytest.mark.parametrize("language", ["en", "da", "ja"])
def test_no_page_of_a_chess_event_speaks_of_a_card_game(chess_event, organiser, language):
    """An arbiter read draws as 0-0-1, points as 3/2, "games won by A/B", "best of 1" and W-L-D on a chess
    event's pages; in Danish also uafgjort, BYE, kampe, V-T-U and "bedst af 1"."""
    found = {}
    for name, (who, url) in pages(chess_event).items():
        if name == "settings":  # every format and tie-breaker there is, to choose from
            continue
        text = text_of(fetch(language, who, url, organiser))
        hits = sorted({m.group(0) for pattern in NOT_CHESS[language] for m in re.finditer(pattern, text)})
        if hits:
            found[name] = hits
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_a_danish_chess_event_reads_as_a_danish_arbiter_writes(chess_event, organiser):
    page = {name: text_of(fetch("da", who, url, organiser)) for name, (who, url) in pages(chess_event).items()}
    # The score between the two players, the row's player first, the winner named: Black lost 0-1.
    assert "½-½ · Remis" in page["public pairings"] and re.search(r"Sort 0-1 · [^·]+ vandt", page["public pairings"])
    assert "Oversidder" in page["public pairings"] and "Oversidder bliver" in page["draft"]
    assert "hvid mod Kåre Ødegaard vandt 1-0" in page["public player"]
    assert "sort mod Mette Holm remis ½-½" in page["public player"]
    assert "V-R-T" in page["standings"] and "Skak (schweizer) · 1 parti" in page["event home"]
    assert "vundet alle sine partier" in page["event home"] and "Dette parti har et resultat" in page["match"]
    # Aase: a win and a draw, written wins-draws-losses; 1½ points, as the draft writes them too.
    assert "Point 1½ Resultater V-R-T 1-1-0" in page["public player"]
    assert "Aase Lund 2000 1½" in page["draft"] and "Point 1½" in page["my page"]
    assert "Resultat Hvid vandt 1-0 Remis ½-½ Sort vandt 0-1" in page["match"]


def test_the_chess_correction_form_stores_the_result_chosen_white_first(chess_event, organiser):
    match = Match.objects.get(round__event=chess_event, round__number=2, table=2)
    client = Client()
    client.force_login(organiser)
    url = reverse("org_match", args=[chess_event.slug, 2, match.pk])
    body = client.get(url).content.decode()
    assert 'name="chess_result" value="1-0"' in body and 'name="games_a"' not in body
    assert "Games won by" not in body and "White wins by forfeit (+/−)" in body
    answer = client.post(url, {"chess_result": "0-1", "forfeit": "", "version": match.version, "confirm": "1"})
    assert answer.status_code == 302
    match.refresh_from_db()
    assert match.games == (0, 1, 0)


def test_the_venue_screen_lists_boards_white_and_black(organiser):
    """The screen showed a chess round as a card game's: each player's name and table, the opponent a
    secondary line dropped on a crowded screen. Arbiters and players look for their board, White, Black."""
    e = new_chess_event(organiser, {name: 2000 - 10 * i for i, name in enumerate(NAMES)}, slug="screen")
    a, k, m, j, i, o, s = NAMES
    pair(e, 1, [(a, k), (m, j), (i, o), (s, None)], results={2: (0, 0, 1)})
    body = Client().get(reverse("public:screen", args=[e.slug])).content.decode()
    text = text_of(body)
    assert "Round 1 · pairings by board" in text and "Board White Black" in text
    assert "1 Aase Lund Kåre Ødegaard 2 Mette Holm Jens Bæk 3 Ida Dahl Ole Winther — Karen Skov Bye" in text
    assert "Still playing: 2 boards — 1, 3" in text
    da = text_of(Client().get(reverse("public:screen", args=[e.slug]), HTTP_ACCEPT_LANGUAGE="da").content.decode())
    assert "Bord Hvid Sort" in da and "parringer efter bord" in da


def test_chess_pairing_lists_show_start_number_title_and_rating(chess_event, organiser):
    """Arbiters and players read a chess pairing list by start number, title and rating beside each name."""
    kaare = chess_event.players.get(name="Kåre Ødegaard")  # FM, 1950: second by rating
    ident = '<span class="start-no">2</span> <abbr class="fide-title">FM</abbr> Kåre Ødegaard <span class="rating">1950</span>'
    org = Client()
    org.force_login(organiser)
    pages = {
        "public pairings": Client().get(reverse("public:pairings", args=[chess_event.slug])),
        "by table": org.get(reverse("org_print_by_table", args=[chess_event.slug, 2])),
        "by name": org.get(reverse("org_print_by_name", args=[chess_event.slug, 2])),
        "round": org.get(reverse("org_round", args=[chess_event.slug, 2])),
        "draft": org.get(reverse("org_round", args=[chess_event.slug, 3])),
    }
    for name, response in pages.items():
        body = response.content.decode()
        assert body.count(ident) >= 1, name
        assert '<span class="start-no">1</span> Aase Lund <span class="rating">2000</span>' in body, name
    assert kaare.title == "FM"


def test_a_card_game_pairing_list_shows_names_only(event, organiser):
    from tests.web.public.test_public import ROUND_1

    pair(event, 1, ROUND_1)
    body = Client().get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert "start-no" not in body and "rating" not in body
