"""No English left on any page: every organiser, print, public and player page of an event that has
everything (a bye, a finished Swiss, a top cut under way, corrected results, every kind of logged action, players
reporting), rendered in Japanese and Danish. A word on the page must be a word of that language's catalog, a
player's or person's name, or one of the few words every language writes as they are (MW%, BYE, Swiss)."""

import datetime as dt
import html
import re
from fractions import Fraction
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from swiss.prizemodel import Category, Prize, PrizeRules
from swiss.tiebreakers import FIDE_CODES
from tests.web.public.test_public import pair
from tournament.files.csv_columns import READ_COLUMNS
from tournament.models import Event, EventLog, Match, Player, ResultChange, Round
from tournament.services.locks import changed
from tournament.services.prizes import save_prize_list
from tournament.services.rounds import publish_round
from tournament.services.staff import invite_staff
from tournament.services.top_cut import start_top_cut

LOCALE = Path(__file__).resolve().parents[3] / "locale"
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+")

NAMES = {
    "ja": ["山田 太郎", "青木 花子", "加藤 愛", "渡辺 健", "佐藤 蓮", "鈴木 陽菜", "高橋 湊", "田中 結衣", "斎藤 翔"],
    "da": [
        "Søren Kirk",
        "Mette Holm",
        "Jens Bæk",
        "Ida Lund",
        "Freja Dahl",
        "Mads Krogh",
        "Karen Skov",
        "Ole Winther",
        "Åse Nørgård",
    ],
}
NAMES["en"] = NAMES["da"]
EVENT_NAME = {"ja": "京都オープン", "da": "Vinterturnering", "en": "Winter Open"}
# Written as they are in every language: the app's name, the language switcher, the staff's usernames.
EVERYWHERE = {"Swiss", "English", "Dansk", "olga", "jules", "otto", "QR"}
# FIDE's tie-break codes (BH, SB-C1, ARO…) are what chess organisers read in every language; each is shown
# with its description in the page's language.
EVERYWHERE |= {w for code in FIDE_CODES for w in WORD.findall(code)}
# The CSV help names the columns in the page's language and, for files headed in English, by their English
# names (`name`, `rating`…), which an import reads in every language.
EVERYWHERE |= {w for column in READ_COLUMNS for w in WORD.findall(column)}


def vocabulary(language: str) -> set[str]:
    """The words of the language's catalog (Django's own for dates and forms, and ours)."""
    words = set()
    for path in [LOCALE / language / "LC_MESSAGES" / "django.po"]:
        for e in polib.pofile(str(path)):
            for text in [e.msgstr, *e.msgstr_plural.values()]:
                words |= set(WORD.findall(re.sub(r"%\(\w+\)[sd]", "", text)))
    with translation.override(language):
        # Every month and every weekday: one day in each month, its weekday moving on by one each month
        # (2026: January 1st is a Thursday), and the seven days of one week.
        days = [dt.date(2026, month, 1 + month) for month in range(1, 13)]
        days += [dt.date(2026, 11, 23) + dt.timedelta(days=i) for i in range(7)]
        for d in days:
            words |= set(WORD.findall(formats.date_format(d, "DATE_FORMAT")))
            words |= set(WORD.findall(formats.date_format(d, "SHORT_DATE_FORMAT")))
            words |= set(WORD.findall(formats.date_format(d, "l D")))
    return words | {w[:1].upper() + w[1:] for w in words}  # a sentence starting with it


def visible_text(body: str) -> str:
    """What a person reads: the text, the title and the attributes a screen reader speaks or a pointer shows."""
    body = re.sub(r"(?s)<(script|style|kbd)\b.*?</\1>", " ", body)
    body = re.sub(r'(?s)<select name="time_zone".*?</select>', " ", body)  # IANA names, as the world writes them
    body = re.sub(r'<p class="card-code[^"]*">[^<]*</p>', " ", body)  # a player's secret code: letters, no words
    body = re.sub(r"https?://\S+?(?=[\s<\"])", " ", body)  # an address to type, shown as it is
    attributes = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', body)
    return html.unescape(" ".join([re.sub(r"<[^>]+>", " ", body), *attributes]))


def foreign_words(body: str, allowed: set[str]) -> list[str]:
    return sorted({w for w in WORD.findall(visible_text(body)) if w not in allowed})


@pytest.fixture
def whole_event(event, organiser, judge):
    """An event with everything a page can show, its players named in `language`."""

    def make(language: str) -> tuple[Event, list[Player]]:
        Event.objects.filter(pk=event.pk).update(
            name=EVENT_NAME[language], language=language, top_cut=4, planned_rounds=2, reporting="confirm"
        )
        event.refresh_from_db()
        players = list(event.players.order_by("id"))
        players.append(Player.objects.create(event=event, name="x", number=9))
        for p, name in zip(players, NAMES[language], strict=True):
            p.name = name
            p.reading = {"山田 太郎": "やまだ たろう", "斎藤 翔": "さいとう しょう"}.get(name, "")
            p.save()
        n = [p.name for p in players]
        first = [(n[0], n[1]), (n[2], n[3]), (n[4], n[5]), (n[6], n[7]), (n[8], None)]
        pair(
            event,
            1,
            first,
            state=Round.State.COMPLETE,
            results={1: (2, 0, 0), 2: (2, 1, 0), 3: (1, 1, 1), 4: (0, 2, 0)},
        )
        second = [(n[0], n[2]), (n[4], n[8]), (n[1], n[3]), (n[5], n[7]), (n[6], None)]
        pair(
            event,
            2,
            second,
            state=Round.State.COMPLETE,
            results={1: (2, 0, 0), 2: (2, 1, 0), 3: (2, 0, 0), 4: (0, 2, 0)},
        )
        match = Match.objects.get(round__event=event, round__number=2, table=1)
        ResultChange.objects.create(match=match, before={"games": [2, 1, 0]}, after={"games": [2, 0, 0]}, by=organiser)
        ResultChange.objects.create(match=match, before=None, after={"games": [2, 1, 0]}, by=organiser)
        event.refresh_from_db()
        start_top_cut(event, organiser)
        semis = event.rounds.get(kind=Round.Kind.ELIMINATION)
        publish_round(semis, organiser)
        semis.clock_started = dt.datetime.now(dt.UTC)
        semis.save()
        invite_staff(event, "otto", "judge", organiser)
        prizes = (
            Prize("1", amount=Fraction(100)),
            Prize("2", amount=Fraction(51)),
            Prize("3", items=3, category=Category(rating_below=1480)),
            Prize("4", amount=Fraction(10), category=Category(record="2-0")),
        )
        save_prize_list(event, prizes, PrizeRules(ties="hort"))
        key = players[0].key
        for action, detail in LOGGED.items():
            EventLog.objects.create(event=event, action=action, by=organiser, detail={**detail, "player": key})
        changed(event)
        event.refresh_from_db()
        return event, players

    return make


# One entry of every action the app logs, with the details it logs (tests/web/i18n/test_i18n_sources.py finds them all).
LOGGED = {
    "pair": {"round": 1, "seed": 4},
    "repair": {"round": 1, "seed": 5, "was_published": False},
    "publish": {"round": 1},
    "swap": {"round": 1, "rematches": ["x"], "colour_breaks": ["x"]},
    "flip_colours": {"round": 1, "table": 1, "colour_breaks": ["x"]},
    "correct_result": {"round": 2, "table": 1, "before": "2-1", "after": "2-0"},
    "delete_player": {"name": "Z", "number": 10},
    "drop": {"after_round": 1},
    "undrop": {},
    "top_cut": {"size": 4, "seeds": []},
    "undo_top_cut": {"size": 4, "was_published": False},
    "bracket": {"round": 3},
    "settings_after_pairing": {"fields": ["win_points", "tiebreakers", "best_of"]},
    "staff_add": {"user": "jules", "role": "judge"},
    "staff_invite": {"user": "otto", "role": "judge"},
    "staff_join": {"user": "otto", "role": "judge"},
    "staff_remove": {"user": "otto"},
    "staff_invite_withdrawn": {"user": "otto"},
    "reissue_link": {},
    "reporting": {"mode": "confirm", "was": "organisers"},
    "open_reporting": {"round": 2},
    "close_reporting": {"round": 2},
    "dispute": {"round": 2, "table": 1},
}


def pages(event: Event, players: list[Player]) -> dict[str, tuple[str, str]]:
    """(who, url) of every page: "org" for the organiser's, "public" for anybody's, "me" for a player's phone."""
    e, first = event.slug, players[0].pk
    semis = event.rounds.get(kind=Round.Kind.ELIMINATION).number
    match = Match.objects.get(round__event=event, round__number=2, table=1)
    semi = Match.objects.filter(round__number=semis, round__event=event).first()
    return {
        "events": ("org", reverse("event_list")),
        "new event": ("org", reverse("org_event_new")),
        "event home": ("org", reverse("org_event", args=[e])),
        "settings": ("org", reverse("org_settings", args=[e])),
        "players": ("org", reverse("org_players", args=[e])),
        "player edit": ("org", reverse("org_player_edit", args=[e, first])),
        "player card": ("org", reverse("org_player_card", args=[e, first])),
        "cards": ("org", reverse("org_print_cards", args=[e])),
        "round 1": ("org", reverse("org_round", args=[e, 1])),
        "round 2": ("org", reverse("org_round", args=[e, 2])),
        "semifinals": ("org", reverse("org_round", args=[e, semis])),
        "match": ("org", reverse("org_match", args=[e, 2, match.pk])),
        "top cut": ("org", reverse("org_top_cut", args=[e])),
        "standings": ("org", reverse("org_standings", args=[e])),
        "by name": ("org", reverse("org_print_by_name", args=[e, 1])),
        "by table": ("org", reverse("org_print_by_table", args=[e, 1])),
        "slips": ("org", reverse("org_print_slips", args=[e, semis])),
        "print standings": ("org", reverse("org_print_standings", args=[e])),
        "print crosstable": ("org", reverse("org_print_crosstable", args=[e])),
        "public home": ("public", reverse("public:home", args=[e])),
        "public pairings": ("public", reverse("public:pairings", args=[e])),
        "public standings": ("public", reverse("public:standings", args=[e])),
        "public player": ("public", reverse("public:player", args=[e, first])),
        "public screen": ("public", reverse("public:screen", args=[e])),
        "public bracket": ("public", reverse("public:bracket", args=[e])),
        "public crosstable": ("public", reverse("public:crosstable", args=[e])),
        "table QR": ("public", reverse("player:table", args=[e, semis, semi.table])),
        "code": ("public", reverse("player:code", args=[e])),
        "my page": ("me", reverse("player:link", args=[e, first, players[0].token])),
        "outlook": ("org", reverse("org_outlook", args=[e])),
        "prizes": ("org", reverse("org_prizes", args=[e])),
        "print prizes": ("org", reverse("org_print_prizes", args=[e])),
        "why not": ("org", reverse("org_round_why_not", args=[e, 2]) + f"?a={first}&b={players[1].pk}"),
        "my why not": ("me", reverse("player:why_not", args=[e]) + f"?with={players[1].pk}"),
        "my why not, a name": ("me", reverse("player:why_not", args=[e]) + "?name=zzz"),
    }


def fetch(language: str, who: str, url: str, organiser) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if who == "org":
        client.force_login(organiser)
    elif who == "me" and "/me/why-not/" in url:  # the phone of the event's first player, by their link
        first = Player.objects.filter(event__slug=url.split("/")[2]).order_by("id").first()
        client.get(reverse("player:link", args=[first.event.slug, first.pk, first.token]))
    response = client.get(url, follow=True)
    assert response.status_code == 200, url
    assert f'lang="{language}"' in response.content.decode()[:500]
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ja", "da"])
def test_no_page_of_an_event_shows_a_word_foreign_to_its_language(any_day, whole_event, organiser, language):
    event, players = whole_event(language)
    names = {w for p in players for w in WORD.findall(p.name)}
    # A Danish genitive: "Søren Kirks resultater".
    allowed = vocabulary(language) | EVERYWHERE | names | {w + "s" for w in names}
    allowed |= set(WORD.findall(event.name))
    found = {}
    for name, (who, url) in pages(event, players).items():
        foreign = foreign_words(fetch(language, who, url, organiser), allowed)
        if foreign:
            found[name] = foreign
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())


@pytest.mark.django_db
def test_every_page_of_an_event_renders_in_english(any_day, whole_event, organiser):
    event, players = whole_event("en")
    for who, url in pages(event, players).values():
        assert fetch("en", who, url, organiser)


# Japanese writes no space after its full stop, colon or comma, and joins phrases with ・, not a Latin ·; no
# ASCII space beside a full-width bracket; a range with 〜, never a Latin dash; 卓 after its number (5卓), and a
# counter straight after its number (3秒).
LATIN_SPACING = re.compile(
    r".{0,12}(?:[。：、](?: |\u00a0)(?=\S)| · |; |[^\s] [（「]|[（「] |[^\s] [）」]|\d\s*[–—]\s*\d|[卓盤]\d|\d [秒人件卓枚]).{0,12}"
)


@pytest.mark.django_db
def test_japanese_pages_space_and_join_as_japanese_is_written(whole_event, organiser):
    event, players = whole_event("ja")
    found = {}
    for name, (who, url) in pages(event, players).items():
        body = re.sub(r"(?s)<(script|style)\b.*?</\1>", "", fetch("ja", who, url, organiser))
        text = html.unescape(re.sub(r"<[^>]+>", "", body))  # as one line reads: tags leave no space
        hits = sorted(set(LATIN_SPACING.findall(text)))
        if hits:
            found[name] = hits
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
