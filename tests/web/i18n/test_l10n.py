"""Figures as each language writes them (docs/languages.md): every tie-breaker in English, Japanese and Danish.
The exact figures are the engine's; only the decimal separator and the percent pattern change."""

import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from standings.format import format_value
from swiss.presets import TIEBREAKER_CODES
from swiss.tiebreakers import HEADING_CONTEXT, PERCENTAGES, TIEBREAKERS, VECTOR
from tests.web.public.test_public import ALL_WON_BY_A, ROUND_1, pair
from tournament.text import l10n

VECTORS = tuple(c for c, t in TIEBREAKERS.items() if t.kind == VECTOR)


def sample(code):
    if code in PERCENTAGES:
        return Fraction(5, 9)
    if code in VECTORS:
        return (Fraction(19, 2), Fraction(7), Fraction(5), Fraction(3))
    return Fraction(5, 2)


EXPECTED = {
    "en": {"percent": "55.5556%", "vector": "9.5/7/5/3", "number": "2.5"},
    "ja": {"percent": "55.5556%", "vector": "9.5/7/5/3", "number": "2.5"},
    "da": {"percent": "55,5556 %", "vector": "9,5/7/5/3", "number": "2,5"},
}


@pytest.mark.parametrize("language", ["en", "ja", "da"])
@pytest.mark.parametrize("code", TIEBREAKER_CODES)
def test_each_tiebreaker_formats_in_each_language(code, language):
    kind = "percent" if code in PERCENTAGES else "vector" if code in VECTORS else "number"
    with translation.override(language):
        shown = l10n.value(code, sample(code))
        label = l10n.label(code)
    assert shown == EXPECTED[language][kind]
    # The same figure as the command line prints, only written the language's way.
    assert shown.replace(",", ".").replace(" %", "%") == format_value(code, sample(code))
    assert label and "\n" not in label


def test_percentages_keep_four_decimals_and_round_half_up_in_every_language():
    with translation.override("da"):
        assert l10n.percent(Fraction(1, 3)) == "33,3333 %"
        assert l10n.percent(Fraction(2, 3)) == "66,6667 %"
        assert l10n.percent(Fraction(1)) == "100,0000 %"
        assert l10n.number(Fraction(-1, 4)) == "-0,25"
    with translation.override("ja"):
        assert l10n.percent(Fraction(1, 3)) == "33.3333%"


@pytest.mark.parametrize(
    ("code", "ja", "da"),
    [
        ("buchholz", "ブッフホルツ", "Buchholz"),
        ("rating_sum", "レーティング合計", "Ratingsum"),
        ("wins", "勝利数", "Sejre"),
    ],
)
def test_tiebreaker_names_use_the_seeds_words(code, ja, da):
    with translation.override("ja"):
        assert l10n.label(code) == ja
        assert str(l10n.NAMES["omw"]) == "オポネントマッチウィン率"
    with translation.override("da"):
        assert l10n.label(code) == da


@pytest.mark.django_db
def test_the_danish_standings_page_writes_danish_figures(client, event):
    pair(event, 1, ROUND_1, results=ALL_WON_BY_A)
    body = client.get(
        reverse("public:standings", args=[event.slug]), headers={"Accept-Language": "da"}
    ).content.decode()
    assert re.search(r"\d+,\d{4} %", body) and not re.search(r"\d+\.\d{4}%", body)
    body = client.get(
        reverse("public:standings", args=[event.slug]), headers={"Accept-Language": "en"}
    ).content.decode()
    assert re.search(r"\d+\.\d{4}%", body) and not re.search(r"\d+,\d{4} %", body)


@pytest.mark.django_db
def test_dates_follow_the_language(client, event):
    event.date = "2026-11-21"
    event.save()
    url = reverse("public:home", args=[event.slug])
    assert "2026年11月21日" in client.get(url, headers={"Accept-Language": "ja"}).content.decode()
    assert "21. november 2026" in client.get(url, headers={"Accept-Language": "da"}).content.decode()
    assert "21 November 2026" in client.get(url, headers={"Accept-Language": "en"}).content.decode()


@pytest.mark.django_db
def test_csv_exports_and_print_views_state_their_language(client, organiser, event):
    from django.conf import settings

    pair(event, 1, ROUND_1, results=ALL_WON_BY_A)
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    r = client.get(reverse("org_export_standings", args=[event.slug]))
    assert r["Content-Language"] == "da" and 'filename="friday-standings-da.csv"' in r["Content-Disposition"]
    assert r.content.decode().startswith("\ufeffPlads,Nummer,Navn,Point,Sejre,Nederlag,Uafgjorte,OMW%,GW%,OGW%")
    r = client.get(reverse("org_export_pairings", args=[event.slug]) + "?round=1")
    assert r.content.decode().startswith(
        "\ufeffRunde,Bord,Nummer,Spiller,Point,Modstanders nummer,Modstander,Modstanders point,Resultat"
    )
    page = client.get(reverse("org_print_by_table", args=[event.slug, 1])).content.decode()
    # The page says its language to the browser; its printed header does not end with the language's name.
    assert '<html lang="da">' in page and "Dansk</span></header>" not in page and "print-language" not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    r = client.get(reverse("org_export_standings", args=[event.slug]))
    assert r["Content-Language"] == "ja" and r.content.decode().startswith("\ufeff順位,番号,名前,勝ち点")
    page = client.get(reverse("org_print_standings", args=[event.slug])).content.decode()
    assert '<html lang="ja">' in page and "日本語</span>" not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    r = client.get(reverse("org_export_standings", args=[event.slug]))
    assert 'filename="friday-standings-en.csv"' in r["Content-Disposition"]
    assert r.content.decode().startswith("\ufeffrank,number,name,points,wins,losses,draws,OMW%")


def test_every_tiebreakers_heading_and_name_is_translated_where_the_app_reads_it():
    """The registry (swiss/tiebreakers.py) holds the English words; each language's catalog has them under the
    context the pages look them up in, so a new tie-breaker cannot reach a page in English only."""
    import polib
    from django.conf import settings

    for language in ("ja", "da"):
        po = polib.pofile(str(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))
        found = {(e.msgctxt, e.msgid): e.msgstr for e in po if e.msgstr}
        for t in TIEBREAKERS.values():
            assert (None, t.name) in found, (language, t.code)
            if not t.fide:
                assert (HEADING_CONTEXT, t.heading) in found, (language, t.code)
    with translation.override("en"):
        assert {c: (l10n.label(c), str(l10n.NAMES[c])) for c in TIEBREAKERS} == {
            c: (t.heading, t.name) for c, t in TIEBREAKERS.items()
        }
    with translation.override("ja"):
        assert l10n.label("BH-C1") == "BH-C1" and str(l10n.NAMES["BH-C1"]) != TIEBREAKERS["BH-C1"].name
