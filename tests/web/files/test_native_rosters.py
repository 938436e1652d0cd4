"""Names, numbers and spreadsheets as Japanese and Danish organisers type and save them
(docs/languages.md): the Japanese comma and full-width digits, Danish semicolon lists, the
encodings Excel saves CSV in, a leading "No." column, Danish birth dates and k for kvinde, each language's
own example in the help, and CSV column names in the language both ways."""

import csv
import html
import io
import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from swiss.eventfile import detail_problem
from swiss.model import possible_birth_date
from tournament.files import csv_columns, csv_rosters
from tournament.forms.players import QuickAddForm, parse_entry
from tournament.models import Event, EventRole
from tournament.text.chess_details import chess_detail
from tournament.text.name_search import sort_key

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
FIDE_DATE = "Write a birth date as 1969/12/06 or 1969-12-06, or the year alone (1969)."


def read(text: str, header: bool = True) -> list[tuple]:
    return [(r.name, r.rating, r.errors) for r in csv_rosters.parse_pasted(text, header=header)]


# ---------------------------------------------------------------- 、 and ， are commas


@pytest.mark.parametrize(
    ("line", "name", "rating"),
    [
        ("中村 翔、1650", "中村 翔", 1650),
        ("松本 大輔，1500", "松本 大輔", 1500),
        ("中村 翔、１６５０", "中村 翔", 1650),
        ("木村、拓也、１６００", "木村 拓也", 1600),
        ("Søren Kirk，1800", "Søren Kirk", 1800),
    ],
)
def test_the_japanese_comma_and_full_width_digits_separate_and_count_as_typed(line, name, rating):
    assert read(line, header=False) == [(name, rating, [])]
    form = QuickAddForm({"name": line})
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["name"], form.rating) == (name, rating)


def test_a_pasted_japanese_list_and_csv_file_read_the_japanese_comma():
    assert read("名前、レーティング\n中村 翔、1650\n松本 大輔，1500\n") == [
        ("中村 翔", 1650, []),
        ("松本 大輔", 1500, []),
    ]
    rows = csv_rosters.parse_players("名前、レーティング\n中村 翔、１６５０\n松本 大輔，1500\n")
    assert [(r.name, r.rating, r.ok) for r in rows] == [("中村 翔", 1650, True), ("松本 大輔", 1500, True)]


# ---------------------------------------------------------------- Danish semicolon lists


def test_a_danish_semicolon_list_is_read_and_its_heading_row_is_no_player(client, organiser, event):
    text = "Navn;Klub;Elo;Medlemsnummer\nAnne-Mette Høj;Skakklubben Nord;1490;12345\nHøj, Mads;SK;1620;77\n"
    client.force_login(organiser)
    assert client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text}).status_code == 302
    anne = event.players.get(name="Anne-Mette Høj")
    assert (anne.rating, anne.external_id) == (1490, "12345")
    mads = event.players.get(name="Mads Høj")
    assert (mads.family_name, mads.given_name, mads.rating) == ("Høj", "Mads", 1620)
    assert not event.players.filter(name__icontains="Navn").exists() and event.players.count() == 10


def test_quick_add_reads_a_semicolon_as_the_add_box_separator(client, organiser, event):
    client.force_login(organiser)
    client.post(reverse("org_player_add", args=[event.slug]), {"name": "Anne-Mette Høj; 1490"}, headers=HX)
    assert event.players.get(name="Anne-Mette Høj").rating == 1490


def test_a_heading_row_that_is_not_understood_is_refused_not_added(client, organiser, event):
    client.force_login(organiser)
    text = "Navn;Klub;Elo;Fødselsår\nAnne-Mette Høj;SK;1490;1980\n"
    r = client.post(reverse("org_players_paste", args=[event.slug]), {"lines": text})
    assert r.status_code == 200 and "»Fødselsår«" not in r.content.decode()  # English page: “Fødselsår”
    assert "“Fødselsår”" in r.content.decode()
    assert event.players.count() == 8


# ---------------------------------------------------------------- the encodings Excel saves CSV in

JAPANESE_LIST = "No.,氏名,ふりがな,レーティング\n1,山田 太郎,やまだ たろう,1500\n2,木村 拓也,きむら たくや,1600\n"
DANISH_LIST = "Navn;Klub;Elo;Medlemsnummer\nSøren Østergaard;Århus Skakklub;1800;123\nÅse Nørgård;Ærø SK;1490;77\n"


def preview(client, event, data: bytes, language: str = "en"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    upload = SimpleUploadedFile("players.csv", data)
    return client.post(reverse("org_players_csv", args=[event.slug]), {"file": upload})


@pytest.mark.parametrize(
    ("text", "encoding", "read_as", "names"),
    [
        (
            JAPANESE_LIST,
            "cp932",
            "Read as Shift_JIS (Windows-31J), fields separated by commas.",
            ["山田 太郎", "木村 拓也"],
        ),
        (
            DANISH_LIST,
            "cp1252",
            "Read as Windows-1252, fields separated by semicolons.",
            ["Søren Østergaard", "Åse Nørgård"],
        ),
        (DANISH_LIST, "utf-8", "Read as UTF-8, fields separated by semicolons.", ["Søren Østergaard", "Åse Nørgård"]),
        (
            JAPANESE_LIST.replace(",", "\t"),  # the codec writes the byte order mark, as Excel does
            "utf-16",
            "Read as UTF-16, fields separated by tabs.",
            ["山田 太郎"],
        ),
    ],
)
def test_a_spreadsheet_saved_as_excel_saves_it_is_read_and_the_preview_says_how(
    client, organiser, event, text, encoding, read_as, names
):
    client.force_login(organiser)
    r = preview(client, event, text.encode(encoding))
    body = r.content.decode()
    assert r.status_code == 200 and read_as in body, body[:3000]
    assert all(f"<td>{name}</td>" in body for name in names)
    assert 'class="bad-row"' not in body
    confirm = re.search(r'name="text" value="([^"]*)"', body, re.S)[1]
    client.post(reverse("org_players_csv_confirm", args=[event.slug]), {"text": html.unescape(confirm)})
    assert all(event.players.filter(name=name).exists() for name in names)


def test_a_short_list_both_encodings_read_is_read_in_the_pages_language(client, organiser, event):
    client.force_login(organiser)
    data = "Navn\nÅse\n".encode("cp1252")  # also the half-width kana ﾅse in Shift_JIS
    assert "<td>Åse</td>" in preview(client, event, data, "da").content.decode()
    assert csv_rosters.decode("名前\nアイ\n".encode("cp932"), "ja") == ("名前\nアイ\n", "Shift_JIS (Windows-31J)")


def test_a_file_in_no_encoding_we_read_is_refused_with_a_sentence(client, organiser, event):
    client.force_login(organiser)
    r = preview(client, event, bytes([0x81, 0x8D, 0x8F, 0x90, 0x9D, 0xFF, 0xFE, 0x00]) * 4)
    assert "is not text in UTF-8, Shift_JIS or Windows-1252" in r.content.decode()


@pytest.mark.parametrize("number", ["No.", "No", "番号", "#", "Ｎｏ．", "Nr."])
def test_a_leading_number_column_is_read_past(number):
    rows = csv_rosters.parse_players(f"{number},氏名,レーティング\n1,山田 太郎,1500\n2,木村 拓也,1600\n")
    assert [(r.name, r.rating, r.ok) for r in rows] == [("山田 太郎", 1500, True), ("木村 拓也", 1600, True)]


def test_a_list_numbered_by_hand_without_headings_is_read_past_its_numbers():
    rows = csv_rosters.parse_players("1,山田 太郎,1500\n2,木村 拓也,1600\n")
    assert [(r.name, r.rating, r.ok) for r in rows] == [("山田 太郎", 1500, True), ("木村 拓也", 1600, True)]
    assert read("1\tAnn\t1500\n2\tBo\t1400") == [("Ann", 1500, []), ("Bo", 1400, [])]
    # A list of names and ratings is not numbered; a line typed in the add box is read as it was before.
    assert read("Ann,1500\nBo,1400") == [("Ann", 1500, []), ("Bo", 1400, [])]
    assert read("1, Ann", header=False) == [("1, Ann", None, [])]


# ---------------------------------------------------------------- Danish birth dates and k for kvinde


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("06-12-1969", "1969/12/06"),
        ("6.12.1969", "1969/12/06"),
        ("6/12/1969", "1969/12/06"),
        ("1969-12-06", "1969/12/06"),
    ],
)
def test_a_danish_birth_date_is_read_day_first_and_stored_as_fide_writes_it(typed, stored):
    with translation.override("da"):
        assert chess_detail("birth_date", typed) == (stored, "")
    with translation.override("en"):  # 06-12-1969 is June 12 to an American: not read in English
        assert chess_detail("birth_date", typed)[1] == ("" if typed.startswith("1969") else FIDE_DATE)


@pytest.mark.parametrize("language", ["en", "ja", "da"])
@pytest.mark.parametrize("typed", ["9999-99-99", "1969-02-30", "1969/13/01", "1970/02/29", "31.04.1970"])
def test_an_impossible_birth_date_is_refused_in_every_language(language, typed):
    with translation.override(language):
        value, problem = chess_detail("birth_date", typed)
    assert problem, (language, typed, value)
    if language == "da" or not typed.startswith("31"):
        assert problem == {
            "en": "There is no date {}.",
            "ja": "{}という日付はありません。",
            "da": "Datoen {} findes ikke.",
        }[language].format(value)


def test_unknown_months_and_days_and_leap_days_are_dates():
    assert [possible_birth_date(d) for d in ("1969", "1969/00/00", "1969/12/00", "1968/02/29", "1969.12.06")] == [
        True
    ] * 5
    assert detail_problem("birth_date", "1969/02/30").code == "file_birth_date_impossible"
    assert detail_problem("birth_date", "9999/99/99").code == "file_birth_date_impossible"


@pytest.mark.parametrize(
    ("typed", "language", "stored"), [("k", "da", "w"), ("K", "da", "w"), ("f", "en", "w"), ("m", "da", "m")]
)
def test_sex_is_stored_as_fides_m_or_w_and_k_is_kvinde_in_danish(typed, language, stored):
    with translation.override(language):
        assert chess_detail("sex", typed) == (stored, "")
    with translation.override("en"):
        assert chess_detail("sex", "k")[1] == "Sex is m or w."


def test_the_danish_player_page_asks_for_m_or_k_and_reads_a_danish_birth_date(client, organiser, chess):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    client.force_login(organiser)
    player = chess.players.get(name="Player B")
    url = reverse("org_player_edit", args=[chess.slug, player.pk])
    assert "Køn (m/k)" in client.get(url).content.decode()
    data = {"name": "Player B", "rating": 1950, "byes": 0, "sex": "k", "birth_date": "06-12-1969"}
    assert client.post(url, data).status_code == 302
    player.refresh_from_db()
    assert (player.sex, player.birth_date) == ("w", "1969/12/06")
    assert 'name="sex" value="k"' in client.get(url).content.decode()
    r = client.post(url, {**data, "birth_date": "30-02-1969"})
    assert "Datoen 1969/02/30 findes ikke." in r.content.decode()


def test_a_danish_csv_with_day_first_birth_dates_and_k_is_imported(client, organiser, chess):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "da"
    client.force_login(organiser)
    text = "Navn;Køn;Fødselsdato\nMette Høj;k;06-12-1969\nSøren Kirk;m;6.1.1980\n"
    client.post(reverse("org_players_csv_confirm", args=[chess.slug]), {"text": text})
    assert {p.name: (p.sex, p.birth_date) for p in chess.players.filter(name__in=["Mette Høj", "Søren Kirk"])} == {
        "Mette Høj": ("w", "1969/12/06"),
        "Søren Kirk": ("m", "1980/01/06"),
    }


# ---------------------------------------------------------------- each language's own example

CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff（）]")


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_each_languages_examples_parse_as_the_help_says(language):
    with translation.override(language):
        examples = csv_columns.name_examples()
        assert len(examples) >= 2
        rows = [parse_entry(e) for e in examples]  # the add box: raises if an example does not parse
        pasted = csv_rosters.parse_pasted("\n".join(examples))
    assert all(r.ok for r in pasted) and [r.name for r in pasted] == [r.name for r in rows]
    assert all(r.rating for r in rows)
    assert rows[0].family_name and rows[0].given_name  # the first example keeps both names
    if language == "ja":
        assert (rows[0].name, rows[1].name, rows[1].reading) == ("木村 拓也", "山田 太郎", "やまだ たろう")
    else:
        assert not any(CJK.search(e) for e in examples)
    if language == "da":
        assert (rows[0].name, rows[0].family_name, rows[1].name) == ("Søren Østergaard", "Østergaard", "Anne-Mette Høj")
        # Listed under its family name, after Z as a Danish list puts Ø; typed whole it would sort under S.
        soren = sort_key(rows[0].name, "", "da", rows[0].family_name, rows[0].given_name)
        assert sort_key("Zacharias Ahl", "", "da") < soren and sort_key(rows[0].name, "", "da") < soren


@pytest.mark.parametrize("language", ["en", "ja", "da"])
def test_the_add_and_paste_help_show_the_pages_languages_examples(client, organiser, event, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(organiser)
    body = client.get(reverse("org_players", args=[event.slug])).content.decode()
    helps = [re.search(rf'<small class="muted" id="{h}-help">(.*?)</small>', body, re.S)[1] for h in ("add", "paste")]
    with translation.override(language):
        examples = csv_columns.name_examples()
    for text in helps:
        assert all(f"<code>{html.escape(e)}</code>" in text for e in examples), text
        assert bool(CJK.search(text)) == (language == "ja"), text


# ---------------------------------------------------------------- CSV columns in the language, both ways

LANGUAGES = ["en", "ja", "da"]
ENGLISH = "<code>name</code>, <code>rating</code>, <code>id</code>, <code>byes</code>"


def speak(client, organiser, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(organiser)
    return client


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode().removeprefix("\ufeff"))))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["name, rating, id, byes"]),
        ("ja", ["名前、レーティング、ID、不戦勝", ENGLISH]),
        ("da", ["Navn, Rating, ID, Oversiddere", ENGLISH]),
    ],
)
def test_the_csv_help_names_the_columns_in_the_pages_language_and_in_english(client, organiser, event, language, words):
    body = speak(client, organiser, language).get(reverse("org_players", args=[event.slug])).content.decode()
    help_text = re.search(r'id="id_file"[^>]*>\s*<small class="muted">(.*?)</small>', body, re.S)[1]
    assert all(w in help_text for w in words), help_text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("fixture", ["event", "chess"])
def test_a_players_export_reads_back_in_its_own_language(client, organiser, request, language, fixture):
    event = request.getfixturevalue(fixture)
    event.players.filter(name="Player B").update(
        byes=2, external_id="DCI-2", reading="ぷれいやー", family_name="B", given_name="Player"
    )
    if fixture == "chess":
        event.players.filter(name="Player B").update(sex="w", birth_date="1969/12/06", federation="DEN", fide_id="123")
    c = speak(client, organiser, language)
    exported = c.get(reverse("org_export_players", args=[event.slug]))
    header = csv_rows(exported)[0]
    with translation.override(language):
        assert header == csv_columns.headings(
            [
                key
                for key, _c, _l in csv_columns.PLAYER_COLUMNS
                + (csv_columns.CHESS_COLUMNS if fixture == "chess" else ())
            ]
        )
    text = exported.content.decode().removeprefix("\ufeff")
    with translation.override(language):
        rows = csv_rosters.parse_players(text)
    assert all(r.ok for r in rows) and len(rows) == event.players.count(), [r.errors for r in rows]
    b = rows[1]
    assert (b.name, b.rating, b.external_id, b.byes, b.reading, b.family_name, b.given_name) == (
        "Player B",
        event.players.get(name="Player B").rating,
        "DCI-2",
        2,
        "ぷれいやー",
        "B",
        "Player",
    )
    if fixture == "chess":
        assert b.chess == {"sex": "w", "birth_date": "1969/12/06", "federation": "DEN", "fide_id": "123"}
    # Read back by another event, in that language, through the upload and its preview.
    other = Event.objects.create(slug=f"other-{language}", name="Other", colours=event.colours)
    EventRole.objects.create(event=other, user=organiser, role=EventRole.Role.ORGANISER)
    upload = SimpleUploadedFile("players.csv", exported.content)
    assert (
        'class="bad-row"'
        not in c.post(reverse("org_players_csv", args=[other.slug]), {"file": upload}).content.decode()
    )
    c.post(reverse("org_players_csv_confirm", args=[other.slug]), {"text": text})
    copy = other.players.get(name="Player B")
    assert (copy.byes, copy.external_id, copy.family_name, copy.reading) == (2, "DCI-2", "B", "ぷれいやー")


@pytest.mark.parametrize("what", ["players", "pairings", "standings"])
def test_danish_csv_headings_are_words_not_code(client, organiser, chess, what):
    from tests.web.public.test_public import pair

    pair(chess, 1, [("Player A", "Player B"), ("Player C", "Player D"), ("Player E", "Player F")])
    url = reverse(f"org_export_{what}", args=[chess.slug]) + ("?round=1" if what == "pairings" else "")
    header = csv_rows(speak(client, organiser, "da").get(url))[0]
    assert not [h for h in header if "_" in h or h != h.strip()], header
    assert all(h[0].isupper() or not h[0].isalpha() for h in header), header
    if what == "players":
        assert "Udgået efter runde" in header and "Tilmeldt fra runde" in header
    if what == "pairings":
        assert header[2:5] == ["Hvids nummer", "Hvid", "Hvids point"]


def test_the_japanese_drop_heading_says_the_player_dropped_after_that_round(client, organiser, event):
    header = csv_rows(speak(client, organiser, "ja").get(reverse("org_export_standings", args=[event.slug])))[0]
    assert "ドロップ（このラウンド終了後）" in header and "ドロップしたラウンド" not in header


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_paste_helps_heading_line_names_the_columns(client, organiser, event, language):
    body = speak(client, organiser, language).get(reverse("org_players", args=[event.slug])).content.decode()
    paste_help = re.search(r'id="paste-help">(.*?)</small>', body, re.S)[1]
    with translation.override(language):
        line = html.unescape(re.findall(r"<code>(.*?)</code>", paste_help)[3])
        rows = csv_rosters.parse_pasted("\n".join([line, *csv_columns.name_examples()]))
    assert all(r.ok for r in rows) and len(rows) == 2, (line, [r.errors for r in rows])


def test_a_heading_row_we_cannot_read_names_the_columns_in_the_pages_language():
    with translation.override("da"):
        (row, _player) = csv_rosters.parse_players("Navn;Klubb;Rating\nSøren Kirk;SK;1800\n")
    assert (
        "Navn, Sorteringsnavn, Efternavn, Fornavn, Rating, ID, Oversiddere, Fødselsdato, Gruppe, FIDE-id, Forbund, "
        "Titel, Køn, K-faktor (name, reading," in row.errors[0]
    )
