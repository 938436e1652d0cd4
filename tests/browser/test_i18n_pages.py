"""The public pages on a 360-px phone in Japanese and in Danish (docs/languages.md): chosen by the browser's
language, <html lang> set, and no English UI text left on the page (checked against every message of the
English catalog whose translation differs). A Japanese name is found when typed in half-width katakana."""

import re
from datetime import timedelta
from pathlib import Path

import polib
import pytest
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from tests.web.public.test_public import pair
from tournament.models import Player, Round
from tournament.services.locks import changed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LOCALE = Path(__file__).resolve().parents[2] / "locale"

# Players named as in each language, so a name never looks like an English word of the interface.
NAMES = {
    "ja": [
        ("山田 太郎", "やまだ たろう"),
        ("青木 花子", "あおき はなこ"),
        ("加藤 愛", "かとう あい"),
        ("渡辺 健", "わたなべ けん"),
        ("佐藤 蓮", "さとう れん"),
        ("鈴木 陽菜", "すずき ひな"),
        ("高橋 湊", "たかはし みなと"),
        ("田中 結衣", "たなか ゆい"),
    ],
    "da": [
        ("Søren Kirk", ""),
        ("Mette Holm", ""),
        ("Jens Bæk", ""),
        ("Ida Lund", ""),
        ("Freja Dahl", ""),
        ("Mads Krogh", ""),
        ("Karen Skov", ""),
        ("Ole Winther", ""),
    ],
}


# "Swiss" is also the app's name, shown as such in the header and the title of every page; Enter is a key.
PROPER_NAMES = {"Swiss", "Enter"}


def english_ui(language: str) -> list[tuple[str, re.Pattern]]:
    """A pattern for each English message that reads differently in `language` (placeholders match anything)."""
    translated = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))}
    patterns = []
    for e in polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po")):
        if e.msgctxt == "chess":
            continue  # a chess event's word for the same message (BYE is Oversidder there), not English
        other = translated[(e.msgctxt, e.msgid)]
        for english, local in [(e.msgid, other.msgstr or other.msgstr_plural.get(0, ""))] + (
            [(e.msgid_plural, other.msgstr_plural.get(1, other.msgstr_plural.get(0, "")))] if e.msgid_plural else []
        ):
            # The same word capitalised is the language's too: the Danish CSV heading "Rating" for "rating".
            if english.casefold() in local.casefold() or not re.search(
                r"[A-Za-z]{2}", re.sub(r"%\(\w+\)[sd]", "", english)
            ):
                continue
            if english in PROPER_NAMES:
                continue
            words = re.findall(r"[A-Za-z]+", re.sub(r"%\(\w+\)[sd]", "", english))
            if "%(" in english and len(words) <= 1:
                continue  # "%(score)s for %(name)s": one English word between names is also Danish ("for")
            parts = re.split(r"%\(\w+\)[sd]|%%", english)
            body = ".+?".join(re.escape(p) for p in parts)
            patterns.append((english, re.compile(rf"(?<![A-Za-zÆØÅæøå]){body}(?![A-Za-zÆØÅæøå])")))
    return patterns


def english_left(page, patterns) -> list[str]:
    text = page.evaluate(
        """() => [document.title,
                 // What may be typed (<kbd>) is input the desk accepts, not text of the page; the time zones are
                 // IANA names as the world writes them (America/Mexico_City is not the English "City").
                 [...document.querySelectorAll('kbd, select[name=time_zone]')].reduce(
                   (t, k) => t.replace(k.innerText, ''), document.body.innerText),
                 ...[...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')].flatMap(
                   el => ['aria-label', 'title', 'placeholder', 'alt'].map(a => el.getAttribute(a) || ''))
                ].join('\\n')"""
    )
    return sorted({english for english, pattern in patterns if pattern.search(text)})


@pytest.fixture
def event_in(event):
    def make(language: str):
        for p, (name, reading) in zip(event.players.order_by("id"), NAMES[language], strict=True):
            Player.objects.filter(pk=p.pk).update(name=name, reading=reading)
        by_id = list(event.players.order_by("id"))
        names = [p.name for p in by_id]
        # Round 1 complete, round 2 under way with the clock running.
        first = [(names[a], names[b]) for a, b in ((0, 1), (2, 3), (4, 5), (6, 7))]
        pair(event, 1, first, state=Round.State.COMPLETE, results=dict.fromkeys(range(1, 5), (2, 1, 0)))
        second = [(names[a], names[b]) for a, b in ((0, 2), (4, 6), (1, 3), (5, 7))]
        rnd = pair(event, 2, second, results={1: (2, 0, 0)})
        rnd.clock_started = timezone.now() - timedelta(minutes=5)
        rnd.save(update_fields=["clock_started"])
        changed(event)
        cache.clear()
        return event, by_id

    return make


@pytest.mark.parametrize("language", ["ja", "da"])
def test_public_pages_on_a_phone_speak_the_visitors_language(live_server, browser, event_in, shot, language):
    event, players = event_in(language)
    context = browser.new_context(locale={"ja": "ja-JP", "da": "da-DK"}[language], viewport=PHONE)
    page = context.new_page()
    patterns = english_ui(language)
    assert len(patterns) > 100
    base = f"{live_server.url}/e/{event.slug}"
    pages = {
        "home": f"{base}/",
        "pairings": f"{base}/pairings/",
        "standings": f"{base}/standings/",
        "player": f"{base}/players/{players[0].pk}/",
        "screen": f"{base}/screen/",
    }
    for name, url in pages.items():
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert english_left(page, patterns) == [], f"{name}: English left on the {language} page"
        if name != "screen":
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        shot(f"{language}-{name}", page)
    # The pairings search: a Japanese name stored in hiragana is found by half-width katakana.
    page.goto(pages["pairings"])
    rows = page.locator("#pairings tbody tr[data-name]")
    search = page.locator("input[name=q]")
    if language == "ja":
        search.press_sequentially("ﾔﾏﾀﾞ")
        visible = rows.filter(visible=True)
        expect(visible).to_have_count(1)
        expect(visible.first).to_contain_text("山田 太郎")
    else:
        search.press_sequentially("søren")
        expect(rows.filter(visible=True)).to_have_count(1)
    assert english_left(page, patterns) == []
    shot(f"{language}-search", page)
    context.close()


def test_the_switcher_changes_the_language_and_remembers_it(live_server, browser, event_in):
    event, _players = event_in("ja")
    context = browser.new_context(locale="en-GB", viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/e/{event.slug}/standings/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert page.url.endswith(f"/e/{event.slug}/standings/")
    page.goto(f"{live_server.url}/e/{event.slug}/pairings/")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    page.get_by_role("link", name="Dansk").click()
    expect(page.locator("html")).to_have_attribute("lang", "da")
    context.close()


def test_an_organiser_runs_a_round_in_danish(live_server, browser, event, organiser, shot):
    """Pair, publish, enter every result and read the standings, with a Danish browser."""
    for p, (name, _reading) in zip(event.players.order_by("id"), NAMES["da"], strict=True):
        Player.objects.filter(pk=p.pk).update(name=name)
    context = browser.new_context(locale="da-DK", viewport={"width": 1024, "height": 800})
    page = context.new_page()
    patterns = english_ui("da")
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "da")
    page.get_by_label("Brugernavn").fill("olga")
    page.get_by_label("Adgangskode").fill("organiser-pass-1")
    page.get_by_role("button", name="Log ind").click()
    expect(page.get_by_role("heading", name="Dine turneringer")).to_be_visible()
    assert english_left(page, patterns) == []
    page.get_by_role("link", name=event.name).click()
    expect(page.get_by_role("heading", name="Næste skridt")).to_be_visible()
    assert english_left(page, patterns) == []
    shot("da-event-home", page)
    page.get_by_role("button", name="Par runde 1").click()
    expect(page.get_by_role("heading", name=re.compile("Runde 1"))).to_contain_text("kladde — ikke offentlig endnu")
    assert english_left(page, patterns) == []
    shot("da-draft", page)
    page.get_by_role("button", name="Offentliggør runde 1").click()
    expect(page.locator("#outstanding")).to_have_text("4 resultater mangler")
    assert english_left(page, patterns) == []
    shot("da-round", page)
    for table, score in ((1, "2-0"), (2, "2-1"), (3, "1-2"), (4, "0-2")):
        page.get_by_role("button", name=f"Bord {table}: {score}", exact=True).click()
        expect(page.locator(f"#matches tr.match.done >> nth={table - 1}")).to_be_visible()
    expect(page.locator("#outstanding")).to_have_text("Alle resultater er inde")
    assert english_left(page, patterns) == []
    shot("da-results", page)
    page.get_by_role("navigation", name="Hovedmenu").get_by_role("link", name="Stilling", exact=True).click()
    expect(page.get_by_role("heading", name="Stilling efter runde 1")).to_be_visible()
    table = page.locator("table.standings")
    expect(table.locator("tbody tr")).to_have_count(8)
    # Danish figures: OMW% with a decimal comma and a space before the percent sign.
    expect(table).to_contain_text(re.compile(r"\d+,\d{4} %"))
    assert english_left(page, patterns) == []
    shot("da-standings", page)
    context.close()
