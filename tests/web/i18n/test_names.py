"""Japanese names (docs/languages.md): search folds width, case and kana; an optional reading orders alphabetical
lists and is searched; it comes in by hand, paste, CSV and the swiss-event file, and goes out again."""

import re

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from swiss import eventfile as ef
from tests.web.public.test_public import pair
from tournament.files import csv_rosters
from tournament.forms.players import parse_line
from tournament.models import Player
from tournament.snapshot import event_to_file, import_event
from tournament.text import name_search as names

pytestmark = pytest.mark.django_db


def test_fold_ignores_width_case_kana_spaces_and_accents_but_not_voicing():
    assert names.fold("ﾔﾏﾀﾞ ﾀﾛｳ") == names.fold("やまだ たろう") == names.fold("ヤマダ タロウ") == "やまだたろう"
    assert names.fold("ＳＵＺＵＫＩ Ｉｃｈｉｒｏ") == "suzukiichiro"
    assert names.fold("José Bjørn") == "josebjorn"
    assert names.fold("ガ") != names.fold("カ")


def test_a_name_is_found_by_its_reading_typed_in_half_width_katakana():
    assert names.matches("ﾔﾏﾀﾞ", "山田 太郎", "やまだ たろう")
    assert names.matches("山田", "山田 太郎", "やまだ たろう")
    assert names.matches("たろう", "山田 太郎", "ヤマダ タロウ")
    assert not names.matches("ﾔﾏﾀﾞ", "山田 太郎")
    assert not names.matches("やまた", "山田 太郎", "やまだ たろう")


def test_alphabetical_order_follows_the_reading():
    people = [("渡辺", "わたなべ"), ("青木", "あおき"), ("Bo", ""), ("加藤", "かとう"), ("anna", "")]
    ordered = sorted(people, key=lambda p: names.sort_key(*p))
    assert [n for n, _ in ordered] == ["anna", "Bo", "青木", "加藤", "渡辺"]


@pytest.fixture
def japanese(event):
    """Four players with readings among the event's eight, round 1 paired."""
    for p, (name, reading) in zip(
        event.players.order_by("name")[:4],
        [
            ("山田 太郎", "やまだ たろう"),
            ("青木 花子", "あおき はなこ"),
            ("渡辺 健", "わたなべ けん"),
            ("加藤 愛", "かとう あい"),
        ],
        strict=True,
    ):
        p.name, p.reading = name, reading
        p.save()
    cache.clear()
    pair(
        event,
        1,
        [("山田 太郎", "青木 花子"), ("渡辺 健", "加藤 愛"), ("Player E", "Player F"), ("Player G", "Player H")],
        results={1: (2, 0, 0), 2: (2, 1, 0), 3: (2, 0, 0), 4: (0, 2, 0)},
    )
    return event


def rows(response) -> list[str]:
    return re.findall(r'<tr data-name="([^"]+)"', response.content.decode())


def test_public_pairings_sort_by_reading_and_find_half_width_katakana(client, japanese):
    url = reverse("public:pairings", args=[japanese.slug])
    listed = rows(client.get(url))
    assert listed[-4:] == ["青木 花子", "加藤 愛", "山田 太郎", "渡辺 健"]  # あ, か, や, わ after the Latin names
    assert rows(client.get(url, {"q": "ﾔﾏﾀﾞ"})) == ["山田 太郎"]
    assert rows(client.get(url, {"q": "ＷＡＴＡＮＡＢＥ"})) == []
    assert rows(client.get(url, {"q": "ワタナベ"})) == ["渡辺 健"]
    # The filter that runs as you type gets the reading too.
    assert 'data-name="山田 太郎" data-reading="やまだ たろう"' in client.get(url).content.decode()


def test_public_standings_find_by_reading(client, japanese):
    body = client.get(reverse("public:standings", args=[japanese.slug]), {"q": "ｶﾄｳ"}).content.decode()
    assert "加藤 愛" in body and "山田 太郎" not in body


def test_organiser_list_orders_by_reading_and_shows_it(client, organiser, japanese):
    client.force_login(organiser)
    body = client.get(reverse("org_players", args=[japanese.slug])).content.decode()
    order = [body.index(n) for n in ("青木 花子", "加藤 愛", "山田 太郎", "渡辺 健")]
    assert order == sorted(order)
    assert '<small class="muted reading">やまだ たろう</small>' in body


def test_paste_takes_a_reading_in_brackets():
    assert parse_line("山田 太郎（やまだ たろう）, 1500") == ("山田 太郎", "やまだ たろう", 1500)
    assert parse_line("鈴木 一郎 (ｽｽﾞｷ ｲﾁﾛｳ)") == ("鈴木 一郎", "ｽｽﾞｷ ｲﾁﾛｳ", None)
    assert parse_line("John Smith (Jr), 1400") == ("John Smith (Jr)", "", 1400)
    assert parse_line("Ann") == ("Ann", "", None)


def test_paste_and_quick_add_store_the_reading(client, organiser, event):
    client.force_login(organiser)
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": "山田 太郎（やまだ たろう）, 1500\nBen"})
    assert r.status_code == 302
    assert event.players.get(name="山田 太郎").reading == "やまだ たろう"
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "青木 花子（あおき はなこ）"})
    assert event.players.get(name="青木 花子").reading == "あおき はなこ"


def test_csv_reading_column_under_english_or_japanese_headers(client, organiser, event):
    parsed = csv_rosters.parse_players("名前,ふりがな,rating\n山田 太郎,やまだ たろう,1500\n")
    assert [(r.name, r.reading, r.rating, r.ok) for r in parsed] == [("山田 太郎", "やまだ たろう", 1500, True)]
    text = "name,reading,rating\n青木 花子,あおき はなこ,1400\nBo,,1300\n"
    client.force_login(organiser)
    preview = client.post(
        reverse("org_players_csv", args=[event.slug]), {"file": SimpleUploadedFile("p.csv", text.encode())}
    )
    assert "あおき はなこ" in preview.content.decode()
    client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": text})
    assert event.players.get(name="青木 花子").reading == "あおき はなこ"
    assert event.players.get(name="Bo").reading == ""
    too_long = csv_rosters.parse_players("name,reading\nA," + "あ" * 201 + "\n")
    assert too_long[0].errors == ["reading longer than 200 characters"]
    exported = client.get(reverse("org_export_players", args=[event.slug])).content.decode()
    assert exported.splitlines()[0].startswith("\ufeffnumber,name,reading,rating")
    assert ",青木 花子,あおき はなこ,1400," in exported


def test_the_event_file_carries_the_reading_and_the_language(event):
    event.language = "ja"
    event.save()
    Player.objects.filter(event=event, name="Player A").update(name="山田 太郎", reading="やまだ たろう")
    doc = ef.dump(event_to_file(event))
    assert doc["language"] == "ja"
    player = next(p for p in doc["players"] if p["name"] == "山田 太郎")
    assert player["reading"] == "やまだ たろう"
    assert all("reading" not in p for p in doc["players"] if p["name"] != "山田 太郎")  # optional: only when set
    copy = import_event(ef.parse(doc), slug="copy")
    assert copy.language == "ja" and copy.players.get(name="山田 太郎").reading == "やまだ たろう"
    with pytest.raises(ef.EventFileError, match=r"players\[0\]\.reading"):
        ef.parse(doc | {"players": [doc["players"][0] | {"reading": 3}]})
    with pytest.raises(ef.EventFileError, match="language"):
        ef.parse(doc | {"language": "fr"})
    long = doc | {"players": [doc["players"][0] | {"reading": "あ" * 201}], "rounds": []}
    with pytest.raises(ef.EventFileError, match=r"players\[0\]\.reading: at most 200 characters"):
        import_event(ef.parse(long), slug="long")
