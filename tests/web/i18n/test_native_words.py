"""The words a Japanese and a Danish player use (docs/languages.md): the catalogs' wrong words, chess words in Danish,
numbers with a decimal comma, the floor as a percentage."""

import re
from fractions import Fraction
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.web.i18n.test_l10n_inputs import fields
from tests.web.public.test_public import pair
from tournament.forms.players import PlayerForm
from tournament.models import Event, Player, Round
from tournament.services.locks import changed
from tournament.services.rounds import publish_round
from tournament.services.top_cut import start_top_cut
from tournament.text import l10n

LOCALE = Path(__file__).resolve().parents[3] / "locale"


def msgstrs(language: str) -> list[tuple[str | None, str, str]]:
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    return [(e.msgctxt, e.msgid, text) for e in po for text in [e.msgstr, *e.msgstr_plural.values()]]


def test_japanese_says_taikai_and_timer_and_keeps_fuseihai_for_a_forfeit():
    for _ctx, msgid, text in msgstrs("ja"):
        assert "イベント" not in text.replace("マジック・イベント規定", ""), msgid  # the seeds say 大会
        assert "時計" not in text, msgid  # the players' word for the round clock is タイマー
        if "unpaired loss" in msgid.lower():
            assert "不戦敗" not in text, msgid  # 不戦敗 is a forfeited game, not a round missed
    with translation.override("ja"):
        assert translation.pgettext("tie-breaker", "Sonneborn-Berger") == "ゾネボーン・ベルガー"
        assert translation.gettext("lost by forfeit") == "不戦敗"
        assert translation.gettext("This is me") != "これは自分"
        assert translation.gettext("Not me") != "自分ではない"


@pytest.mark.parametrize("language", ["ja", "da"])
def test_direct_encounter_and_head_to_head_read_differently(language):
    with translation.override(language):
        assert translation.pgettext("tie-breaker", "Direct encounter") != translation.pgettext(
            "tie-breaker", "Head-to-head"
        )


def test_danish_says_par_and_quotes_the_danish_way():
    for _ctx, msgid, text in msgstrs("da"):
        assert not re.search(r"\b[Pp]arr\b", text), msgid  # the imperative of parre is "par"
        assert "“" not in text and "”" not in text, msgid  # Danish quotes are »…«
        assert "Placering" not in text and "placering" not in text, msgid
    with translation.override("da"):
        assert translation.gettext("Pair round %(number)s") == "Par runde %(number)s"
        assert translation.gettext("Nobody’s name contains “%(q)s”.") == "Intet navn indeholder »%(q)s«."


@pytest.mark.parametrize(
    ("value", "en", "da"),
    [
        (Fraction(3), "3", "3"),
        (Fraction(1, 2), "0.5", "0,5"),
        (Fraction(33, 100), "0.33", "0,33"),
        (Fraction(1, 3), "1/3", "1/3"),
    ],
)
def test_a_value_to_type_back_is_written_in_the_language(value, en, da):
    with translation.override("en"):
        assert l10n.exact(value) == en
    with translation.override("da"):
        assert l10n.exact(value) == da
    for text in (en, da):
        assert l10n.read_fraction(text) == value


def test_the_floor_reads_and_writes_as_a_percentage():
    with translation.override("da"):
        assert l10n.exact_percent(Fraction(33, 100)) == "33 %"
        assert l10n.exact_percent(Fraction(1, 4)) == "25 %"
        assert l10n.exact_percent(Fraction(1, 3)) == "1/3"
    with translation.override("en"):
        assert l10n.exact_percent(Fraction(33, 100)) == "33%"
    assert l10n.read_fraction("33 %", percent=True) == Fraction(33, 100)
    assert l10n.read_fraction("12,5%", percent=True) == Fraction(1, 8)
    with pytest.raises(ValueError):
        l10n.read_fraction("3%")  # a score is no percentage


@pytest.mark.django_db
def test_danish_settings_show_and_take_decimal_commas_and_the_floor_in_percent(client, organiser, event):
    Event.objects.filter(pk=event.pk).update(draw_points="1/2", floor="33/100")
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    url = reverse("org_settings", args=[event.slug])
    body = client.get(url).content.decode()
    assert 'name="draw_points" value="0,5"' in body and 'name="floor" value="33 %"' in body
    data = fields(body, "settings-form").data
    data.update(floor=["25 %"], draw_points=["1,5"], save=["1"])
    assert client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert (event.floor, event.draw_points) == ("1/4", "3/2")


@pytest.mark.django_db
def test_settings_shown_back_unchanged_are_not_a_change_after_pairing(client, organiser, event):
    pair(event, 1, [("Player A", "Player B")])
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    url = reverse("org_settings", args=[event.slug])
    data = fields(client.get(url).content.decode(), "settings-form").data
    data.update(save=["1"])
    assert client.post(url, data).status_code == 302  # no "tick to confirm": nothing locked changed
    assert not event.log.filter(action="settings_after_pairing").exists()


@pytest.fixture
def chess_event(event):
    Event.objects.filter(pk=event.pk).update(
        preset="chess", win_points="1", draw_points="1/2", loss_points="0", best_of=1, language="da"
    )
    Player.objects.create(event=event, name="Player I", number=9)
    event.refresh_from_db()
    pairs = [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", "Player H")]
    pair(event, 1, [*pairs, ("Player I", None)], state=Round.State.COMPLETE, results={1: (0, 0, 1), 2: (1, 0, 0)})
    changed(event)
    return event


@pytest.mark.django_db
def test_a_danish_chess_event_says_remis_and_oversidder(client, chess_event):
    body = client.get(reverse("public:pairings", args=[chess_event.slug])).content.decode()
    assert "Oversidder" in body and "BYE" not in body
    player = chess_event.players.get(name="Player A")
    body = client.get(reverse("public:player", args=[chess_event.slug, player.pk])).content.decode()
    assert "remis" in body.lower() and "uafgjort" not in body.lower()
    assert "Partier" in body or "partier" in body


@pytest.mark.django_db
def test_a_danish_magic_event_keeps_its_words(client, event):
    Event.objects.filter(pk=event.pk).update(language="da")
    Player.objects.create(event=event, name="Player I", number=9)
    pairs = [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F"), ("Player G", "Player H")]
    pair(event, 1, [*pairs, ("Player I", None)], state=Round.State.COMPLETE, results={1: (1, 1, 0)})
    body = client.get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert "BYE" in body and "Oversidder" not in body
    # The chess words stay on the chess event's request: the next page of another event speaks plainly.
    with translation.override("da"):
        assert translation.gettext("Bye") == "BYE"


@pytest.mark.django_db
def test_the_players_own_page_writes_points_with_a_decimal_comma(client, chess_event):
    """Half points as the event writes them: a chess event's ½, another's 0,5 in Danish (each page worded in its
    own language: the figures are kept once for every language)."""
    player = chess_event.players.get(name="Player A")
    client.get(reverse("player:link", args=[chess_event.slug, player.pk, player.token]))
    me = reverse("player:me", args=[chess_event.slug])
    body = client.get(me, headers={"Accept-Language": "en"}).content.decode()
    assert re.search(r"<dd>½</dd>", body), re.findall(r"<dd>[^<]*</dd>", body)
    Event.objects.filter(pk=chess_event.pk).update(preset="custom")
    changed(chess_event)
    body = client.get(me, headers={"Accept-Language": "da"}).content.decode()
    assert re.search(r"<dd>0,5</dd>", body), re.findall(r"<dd>[^<]*</dd>", body)


@pytest.mark.django_db
def test_japanese_round_tabs_name_the_top_cut_stages(client, organiser, event):
    from tests.web.organiser.test_top_cut_flow import ALL_WON_BY_A, ROUND_1, ROUND_2

    Event.objects.filter(pk=event.pk).update(top_cut=4, planned_rounds=2)
    event.refresh_from_db()
    pair(event, 1, ROUND_1, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    pair(event, 2, ROUND_2, state=Round.State.COMPLETE, results=ALL_WON_BY_A)
    publish_round(start_top_cut(event, organiser), organiser)
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    body = client.get(reverse("org_round", args=[event.slug, 3])).content.decode()
    assert ">準決勝</a>" in body and "決勝3" not in body and ">R1</a>" in body


@pytest.mark.django_db
def test_the_table_page_says_versus_and_the_standings_caption_names_the_swiss_part(client, event):
    rnd = pair(event, 1, [("Player A", "Player B")])
    body = client.get(
        reverse("player:table", args=[event.slug, rnd.number, 1]), headers={"Accept-Language": "ja"}
    ).content.decode()
    assert '<span class="muted">対</span>' in body and "対戦相手" not in body
    with translation.override("ja"):
        assert translation.pgettext("the part of the event before the top cut", "Swiss rounds") == "スイス式ラウンド"


def test_the_danish_sorting_name_help_gives_a_danish_example():
    with translation.override("da"):
        help_text = str(PlayerForm.base_fields["reading"].help_text)
    assert "Østergaard, Søren" in help_text and not re.search(r"[\u3040-\u30ff]", help_text)
