"""Finding and sorting names the way each language does (docs/languages.md): one folding for every search, one order
for every list, chosen by the event's language (tournament/text/name_search.py)."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from tests.web.public.test_public import pair
from tournament.models import Event, Player, Round
from tournament.services.locks import changed
from tournament.text import name_search as names


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("soren", "Søren Kirk"),
        ("oster", "Mette Østergaard"),
        ("brondum", "Jens Brøndum"),
        ("aero", "Ida Ærø"),
        ("norgaard", "Åse Nørgård"),
        ("norgard", "Karl Nørgaard"),
        ("Aase", "Åse Nørgård"),
        ("Åse", "Aase Holm"),
        ("Nørgård", "Karl Nørgaard"),
        ("SØREN", "Søren Kirk"),
        ("sorenkirk", "Søren Kirk"),
    ],
)
def test_a_dane_finds_a_name_typed_without_the_danish_letters(typed, name):
    assert names.matches(typed, name)


@pytest.mark.parametrize(
    ("typed", "name", "reading"),
    [
        ("やまだたろう", "山田 太郎", "やまだ たろう"),
        ("山田太郎", "山田 太郎", ""),
        ("ﾔﾏﾀﾞﾀﾛｳ", "山田 太郎", "やまだ たろう"),
        ("高橋", "髙橋 湊", ""),
        ("髙橋", "高橋 湊", ""),
        ("渡辺", "渡邊 健", ""),
        ("渡邉", "渡辺 健", ""),
        ("斉藤", "斎藤 翔", ""),
        ("斎藤", "齋藤 翔", ""),
    ],
)
def test_a_japanese_name_is_found_without_the_space_and_in_its_variant_kanji(typed, name, reading):
    assert names.matches(typed, name, reading)


def test_voicing_still_tells_kana_apart():
    assert not names.matches("かとう", "がとう")


def test_danish_order_puts_ae_oe_aa_last_and_aa_as_aa():
    people = ["Åse", "Zacharias", "Ærø", "Øster", "Aalborg", "Anders", "Bo", "Ødum"]
    assert sorted(people, key=lambda n: names.sort_key(n, "", "da")) == [
        "Anders",
        "Bo",
        "Zacharias",
        "Ærø",
        "Ødum",
        "Øster",
        "Aalborg",
        "Åse",
    ]
    # In English Å is an A.
    assert sorted(["Bo", "Åse", "Anders"], key=lambda n: names.sort_key(n, "", "en")) == ["Anders", "Åse", "Bo"]


def test_japanese_order_is_by_reading_with_voiced_kana_beside_their_unvoiced_twin():
    people = [("木村", "きむら"), ("蒲生", "がもう"), ("加藤", "かとう"), ("青木", "アオキ")]
    ordered = sorted(people, key=lambda p: names.sort_key(*p, language="ja"))
    assert [n for n, _ in ordered] == ["青木", "加藤", "蒲生", "木村"]


@pytest.mark.django_db
def test_half_width_kana_typed_at_registration_is_stored_full_width(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "ｻｲﾄｳ ｹﾝ（ｻｲﾄｳ ｹﾝ）"})
    player = event.players.get(number=9)
    assert (player.name, player.reading) == ("サイトウ ケン", "サイトウ ケン")
    edited = Player.objects.create(event=event, name="x", reading="ﾀﾅｶ")
    assert edited.reading == "タナカ"


DANISH = ["Åse Holm", "Zeki Ay", "Ærling Dahl", "Øjvind Lund", "Aage Berg", "Anders Bo", "Søren Kirk", "Bo Ravn"]
IN_DANISH_ORDER = [
    "Anders Bo",
    "Bo Ravn",
    "Søren Kirk",
    "Zeki Ay",
    "Ærling Dahl",
    "Øjvind Lund",
    "Aage Berg",
    "Åse Holm",
]


@pytest.fixture
def danish_event(event):
    Event.objects.filter(pk=event.pk).update(language="da", top_cut=0)
    for p, name in zip(event.players.order_by("id"), DANISH, strict=True):
        Player.objects.filter(pk=p.pk).update(name=name)
    # Everybody drew: all eight tied on every figure.
    pairs = [(DANISH[i], DANISH[i + 1]) for i in range(0, 8, 2)]
    pair(event, 1, pairs, state=Round.State.COMPLETE, results=dict.fromkeys(range(1, 5), (1, 1, 0)))
    changed(event)
    event.refresh_from_db()
    return event


def order_on(body: str, among=DANISH) -> list[str]:
    # A pairings row names the opponent too: its own player is its data-name.
    rows = re.findall(r'data-name="([^"]*)"', body) or re.findall(r"<tr><td>([^<]*)</td>", body)
    if rows:
        return [n for n in rows if n in among]
    return sorted(among, key=lambda n: body.index(n))


@pytest.mark.django_db
def test_every_list_of_a_danish_event_agrees_on_the_danish_order(client, organiser, danish_event):
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the event's language sorts, whoever reads
    e = danish_event.slug
    lists = {
        "roster": reverse("org_players", args=[e]),
        "standings (tied)": reverse("org_standings", args=[e]),
        "public standings (tied)": reverse("public:standings", args=[e]),
        "public pairings": reverse("public:pairings", args=[e]),
        "cards": reverse("org_print_cards", args=[e]),
        "pairings by name": reverse("org_print_by_name", args=[e, 1]),
    }
    for what, url in lists.items():
        body = client.get(url).content.decode()
        body = body[body.index("<main") if "<main" in body else 0 :]
        assert order_on(body) == IN_DANISH_ORDER, what


@pytest.mark.django_db
def test_the_organisers_round_search_folds_as_every_other_search(client, organiser, danish_event):
    client.force_login(organiser)
    url = reverse("org_round", args=[danish_event.slug, 1])
    for typed in ("soren", "SØREN", "søren", "kirk"):
        body = client.get(url, {"q": typed}).content.decode()
        assert "Søren Kirk" in body and "Zeki Ay" not in body, typed
    body = client.get(url, {"q": "ærling"}).content.decode()
    assert "Ærling Dahl" in body and "Søren Kirk" not in body
