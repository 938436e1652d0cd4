"""The Japanese and Danish catalogs, read whole: one word for one thing (the glossary in docs/languages.md), Japanese
spacing, ranges and counters as Japanese is written, the arbiter's desk never a playing table, no Danish genitive made
of a name, and a bye that is an absence never called a win. What a page shows comes from these entries, so a wrong
word here is wrong on every page that uses it, including pages no page-text test renders."""

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[3] / "locale"
PLACEHOLDER = r"%\(\w+\)[sd]"


def entries(language: str) -> list[tuple[polib.POEntry, str]]:
    """(entry, one of its translations) for every translated form."""
    po = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    return [(e, text) for e in po for text in ([e.msgstr] if not e.msgid_plural else e.msgstr_plural.values())]


def where(found: list[tuple[polib.POEntry, str]]) -> str:
    return "\n".join(f"{e.msgctxt or ''} {e.msgid!r} -> {text!r}" for e, text in found)


# The chosen word, and the words it replaces (docs/languages.md, Glossary).
JAPANESE_WORDS = {
    "プレイヤー": r"選手(?!権)",
    "ドロップ": r"棄権",
    "開始順位": r"スタートランク|開始番号",
    "携帯": r"スマートフォン|スマホ",
    "取り込": r"インポート",
    "書き出": r"エクスポート",
    "0.5点": r"½点",
    "決勝トーナメント": r"トップカット",
    "不戦勝": r"バイ(?!ト)",
    "タイブレーカー": r"タイブレーク(?!カー)",
}
DANISH_WORDS = {
    "slutspil": r"\b[Tt]op cut\b",
    "korrektion": r"\b[Tt]ie-?break",
    "walkover": r"\budeblivelse",
    "½ point": r"\bhalvt point",
    "telefon": r"\bmobil",
}


@pytest.mark.parametrize(("language", "words"), [("ja", JAPANESE_WORDS), ("da", DANISH_WORDS)])
def test_the_catalog_uses_the_chosen_word_and_none_of_the_others(language, words):
    every = entries(language)
    for chosen, others in words.items():
        assert any(chosen.lower() in text.lower() for _, text in every), chosen
        found = [(e, text) for e, text in every if re.search(others, text)]
        assert not found, f"{others} instead of {chosen}:\n{where(found)}"


# Japanese: no ASCII space beside a full-width bracket or punctuation, none between a number and its counter.
JAPANESE_SPACING = [
    re.compile(r" [（「『【]|[（「『【）」』】、。：] "),
    re.compile(r"(?:\d|" + PLACEHOLDER + r") (?:秒|分|人|件|卓|枚|行|回|点|位|ラウンド目|ページ)"),
]
# A range is written with 〜 and 卓 follows its number: 5卓, 1〜10卓 (never 卓5, 1–10).
JAPANESE_RANGE = re.compile(r"(?:\d|" + PLACEHOLDER + r")\s*[–—]\s*(?:\d|" + PLACEHOLDER + r")")
TABLE_FIRST = re.compile(r"[卓盤](?:\d|" + PLACEHOLDER + r")")


def test_japanese_spaces_ranges_and_tables_as_japanese_is_written():
    found = [
        (e, text)
        for e, text in entries("ja")
        if any(p.search(text) for p in JAPANESE_SPACING) or JAPANESE_RANGE.search(text) or TABLE_FIRST.search(text)
    ]
    assert not found, where(found)


def test_the_arbiters_desk_is_never_a_playing_table():
    """Danish "bord 5" is a playing table, so "ved bordet" cannot be the arbiter's desk; Japanese 受付 is the
    registration desk, not the arbiters' 本部."""
    desk = [(e, t) for e, t in entries("da") if "desk" in e.msgid]
    assert desk
    wrong = [(e, t) for e, t in desk if not re.search(r"dommerbord|\bher\b", t)]
    assert not wrong, where(wrong)
    wrong = [(e, t) for e, t in entries("ja") if "desk" in e.msgid and not re.search(r"本部|ここ", t)]
    assert not wrong, where(wrong)


def test_no_danish_genitive_is_made_of_a_name():
    """ "%(player)ss farvedifference" gives "Rasmus Larss": a name's genitive is said with "for" or "fra"."""
    found = [(e, t) for e, t in entries("da") if re.search(PLACEHOLDER + r"s\b|" + PLACEHOLDER + r"'s?\b", t)]
    assert not found, where(found)


def test_an_absence_is_never_called_a_win():
    """A zero-point bye is an absence (欠席), a half-point bye a rest (休み); only a bye that scores as a win is
    不戦勝. A chess event's Danish says oversidder, afbud and ikke til stede, never the card games' BYE."""
    zero = [(e, t) for e, t in entries("ja") if re.search(r"zero[- ]point bye|0-point bye|zero bye", e.msgid, re.I)]
    half = [(e, t) for e, t in entries("ja") if re.search(r"half[- ]point bye|½-point bye|half bye", e.msgid, re.I)]
    assert zero and half
    wrong = [(e, t) for e, t in zero if "不戦勝" in t or "欠席" not in t]
    wrong += [(e, t) for e, t in half if "不戦勝" in t or "休み" not in t]
    assert not wrong, where(wrong)
    chess = [(e, t) for e, t in entries("da") if e.msgctxt == "chess" and re.search(r"\bbyes?\b", e.msgid, re.I)]
    assert chess
    wrong = [(e, t) for e, t in chess if "BYE" in t or not re.search(r"oversidder|afbud|ikke til stede", t, re.I)]
    assert not wrong, where(wrong)


QUOTED = re.compile(r'"([^"<>]*)"')


@pytest.mark.parametrize(("language", "marks"), [("ja", "「…」"), ("da", "»…«")])
def test_text_is_quoted_the_languages_way_and_only_a_literal_keeps_straight_quotes(language, marks):
    """A straight "…" stays only around what is typed or read exactly as the English says it (a file's JSON value,
    "loss", "4-1"); a quoted example in the reader's own words ("1位 | 500", "Bedste kvinde | 50") takes the
    language's own marks: 「…」 in Japanese, »…« in Danish."""
    outside_tags = [(e, re.sub(r"<[^>]*>", "", t)) for e, t in entries(language)]
    found = [
        (e, t)
        for e, t in outside_tags
        if any(f'"{q}"' not in re.sub(r"<[^>]*>", "", e.msgid_plural or e.msgid) for q in QUOTED.findall(t))
    ]
    assert not found, f"quote with {marks}:\n{where(found)}"
