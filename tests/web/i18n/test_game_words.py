"""Each game's own words: a double loss worded in every language wherever a result is shown, and backgammon
without a draw (it has none)."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.web.public.test_public import ROUND_1, pair
from tournament.models import Event, Match, Round
from tournament.services.results import parse_outcome, record_result
from tournament.services.standings import crosstable

pytestmark = pytest.mark.django_db

DOUBLE_LOSS = {"en": "double loss", "da": "dobbelt nederlag", "ja": "両者敗北"}


def shown(body: str) -> str:
    """The page without what is typed as it is: the keyboard's shorthands (<kbd>double loss</kbd>)."""
    return re.sub(r"<kbd>[^<]*</kbd>", "", body)


def staff(organiser, language: str) -> Client:
    client = Client()
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize("language", ["da", "ja"])
def test_a_double_loss_is_worded_in_the_pages_language(event, organiser, language):
    """`text.results.result_label` returned the English "double loss" on the round page, the match page, the
    keyboard's confirmation and the printed pairings, whatever the page's language."""
    rnd = pair(event, 1, ROUND_1)
    match = rnd.matches.get(table=1)
    record_result(match, parse_outcome("dl", event.best_of), organiser)
    org = staff(organiser, language)
    word = DOUBLE_LOSS[language]
    pages = {
        "round": reverse("org_round", args=[event.slug, 1]),
        "match": reverse("org_match", args=[event.slug, 1, match.pk]),
        "by table": reverse("org_print_by_table", args=[event.slug, 1]),
    }
    for name, url in pages.items():
        body = shown(org.get(url).content.decode())
        assert word in body and "double loss" not in body, name
    # The keyboard: the same result again keeps it, in words; another asks to replace it, naming it.
    keep = org.post(
        reverse("org_table_result", args=[event.slug, 1]),
        {"table": 1, "result": "dl", "keep": "1"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert word in shown(keep) and "double loss" not in shown(keep)
    ask = org.post(
        reverse("org_table_result", args=[event.slug, 1]), {"table": 1, "result": "2-0"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert word in shown(ask) and "double loss" not in shown(ask)


@pytest.fixture
def backgammon(organiser):
    from tournament.models import EventRole, Player

    e = Event.objects.create(
        slug="bg",
        name="Backgammon Cup",
        preset="backgammon",
        win_points="1",
        draw_points="0",
        loss_points="0",
        best_of=1,
        tiebreakers=["buchholz_cuts"],
        planned_rounds=3,
        reporting=Event.Reporting.ALONE,
        language="da",
    )
    EventRole.objects.create(event=e, user=organiser, role=EventRole.Role.ORGANISER)
    for c in "ABCDEFGH":
        Player.objects.create(event=e, name=f"Player {c}")
    pair(e, 1, ROUND_1)
    return e


def test_backgammon_offers_no_draw_anywhere(backgammon, organiser):
    """A backgammon game has a winner (someone bears off first): the round page offered an "Uafgjort" button,
    the keyboard took `d`, the phone a Draw button and the slips a draw column and "Bedst af 1"."""
    org = staff(organiser, "da")
    page = org.get(reverse("org_round", args=[backgammon.slug, 1])).content.decode()
    assert 'value="1-0"' in page and 'value="0-1"' in page
    assert 'value="0-0-1"' not in page and "Uafgjort" not in page and "uafgjort 0-0-1" not in page
    slips = org.get(reverse("org_print_slips", args=[backgammon.slug, 1])).content.decode()
    assert "Uafgjort" not in shown(slips) and "Bedst af 1" not in slips and "1 spil." in slips
    assert "Ingen uafgjorte." in slips
    home = org.get(reverse("org_event", args=[backgammon.slug])).content.decode()
    assert "Backgammon · 1 spil" in re.sub(r"\s+", " ", home) and "bedst af 1" not in home
    # The keyboard: `d`, 0-0-1 and 1-1 are refused, saying why; the match keeps no result.
    match = Match.objects.get(round__event=backgammon, table=1)
    for typed in ("d", "0-0-1", "draw"):
        answer = org.post(
            reverse("org_table_result", args=[backgammon.slug, 1]),
            {"table": 1, "result": typed},
            HTTP_HX_REQUEST="true",
        ).content.decode()
        assert "Backgammon kan ikke ende uafgjort: indtast, hvem der vandt." in answer, typed
    match.refresh_from_db()
    assert not match.has_result
    # The phone: I won / I lost, nothing else; a draw sent anyway is refused.
    player = match.player_a
    phone = Client()
    phone.get(reverse("player:link", args=[backgammon.slug, player.pk, player.token]))
    me = phone.get(reverse("player:me", args=[backgammon.slug]), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert ">Jeg vandt</button>" in me and ">Jeg tabte</button>" in me
    assert "Uafgjort" not in me and 'name="other"' not in me
    answer = phone.post(
        reverse("player:report", args=[backgammon.slug]),
        {"match": match.pk, "result": "0-0-1"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="da",
    ).content.decode()
    assert "Backgammon kan ikke ende uafgjort" in answer
    match.refresh_from_db()
    assert not match.has_result
    # A winner is stored as before.
    org.post(reverse("org_table_result", args=[backgammon.slug, 1]), {"table": 1, "result": "1-0"})
    match.refresh_from_db()
    assert match.games == (1, 0, 0) and crosstable(backgammon) is not None


def test_a_magic_best_of_one_keeps_its_draw(event, organiser):
    Event.objects.filter(pk=event.pk).update(best_of=1)
    pair(event, 1, ROUND_1)
    page = staff(organiser, "en").get(reverse("org_round", args=[event.slug, 1])).content.decode()
    assert 'value="0-0-1"' in page and "draw 0-0-1" in page


def test_a_card_game_crosstable_names_opponents_by_number_and_marks_results_apart(event, organiser):
    """Outside chess the cells ran the opponent's rank and the result together ("151", "10") under a colour
    legend the event does not have, and tied ranks made two players "1". Now each opponent is named by their
    number, which is unique, shown in its own column, and the result stands apart as each language marks it:
    "15 W", Danish "15 V", a Japanese 星取表's "○15"."""
    from tests.web.public.test_public import ALL_WON_BY_A

    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results={**ALL_WON_BY_A, 4: (1, 1, 1)})
    players = {p.name: p.number for p in event.players.all()}
    a, b, g, h = (players[f"Player {c}"] for c in "ABGH")
    url = reverse("public:crosstable", args=[event.slug])
    en = Client().get(url).content.decode()
    assert f'<td class="num cross">{b} W</td>' in en and f'<td class="num cross">{a} L</td>' in en
    assert f'<td class="num cross">{h} D</td>' in en and f'<td class="num cross">{g} D</td>' in en
    assert "w White" not in en and "colour" not in en and ">No.</abbr>" in en
    da = Client().get(url, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert f'<td class="num cross">{b} V</td>' in da and f'<td class="num cross">{a} T</td>' in da
    assert f'<td class="num cross">{h} U</td>' in da and "h hvid" not in da
    ja = Client().get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f'<td class="num cross">○{b}</td>' in ja and f'<td class="num cross">●{a}</td>' in ja
    assert f'<td class="num cross">△{h}</td>' in ja and "白" not in ja
    # Every player's number in its own column, the rank beside it.
    row = re.search(rf'<tr><td class="num">(\d+)</td><td class="num">{a}</td><th scope="row">Player A', en)
    assert row is not None


# The phone's sentences about the other player: Japanese says さん after their name in every one.
PHONE_SENTENCES = [
    "%(name)s reported: %(result)s.",
    "%(name)s said:",
    "Reported: %(result)s. %(name)s confirms it on their phone.",
    "You reported: %(result)s. Waiting for %(name)s to confirm.",
    "You said %(name)s's report is not right: a judge will come to your table.",
    "Your report differs from %(name)s's: a judge will come to your table.",
    "a double loss with %(name)s",
    "a draw, %(score)s, with %(name)s",
    "you lost %(score)s to %(name)s",
    "you won %(score)s against %(name)s",
    "%(name)s (White) won 1-0",
    "%(name)s (Black) won 0-1",
]


def test_a_japanese_phone_says_san_after_the_other_players_name(live):
    """Some of the phone's messages said 斉藤さん and others plain 斉藤: さん throughout polite text about another
    player."""
    from django.utils import translation

    from tests.web.phone.test_self_report import match_of, phone, player, report

    with translation.override("ja"):
        for msgid in PHONE_SENTENCES:
            assert "%(name)sさん" in translation.gettext(msgid), msgid
    m = match_of(live, "Player A")
    anna, other = phone(player(live, "Player A")), phone(player(live, "Player C"))
    for c in (anna, other):
        c.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    sent = report(other, live, m, "0-2").content.decode()
    assert "Player Aさんが自分の携帯で確認します" in sent and "Player Aさんの確認を待っています" in sent
    page = anna.get(reverse("player:me", args=[live.slug])).content.decode()
    assert "Player Cさんの報告：あなたの勝ち（2-0）。" in page
