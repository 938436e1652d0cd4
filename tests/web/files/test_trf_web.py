"""TRF on the organiser pages: download a chess event as TRF, start a new event from a TRF upload, and the
FIDE codes as the standings' column headers."""

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.engines.test_trf import blocks_of
from tournament.models import Event, EventRole

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parents[2] / "data" / "trf"
HELD = DATA / "held-exercises-2024.trf"


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def upload(client, path: Path, content: bytes | None = None, once: str = ""):
    data = content if content is not None else path.read_bytes()
    form = {"file": SimpleUploadedFile(path.name, data), "once": once}
    return client.post(reverse("org_event_import_trf"), form)


def test_a_double_click_imports_once(org):
    assert upload(org, HELD, once="t1").status_code == 302
    again = upload(org, HELD, once="t1")
    event = Event.objects.get()
    assert again.status_code == 302 and again.url == reverse("org_event", args=[event.slug])
    assert Event.objects.count() == 1


def test_new_event_page_offers_a_trf_upload(org):
    page = org.get(reverse("org_event_new")).content.decode()
    assert 'enctype="multipart/form-data"' in page and reverse("org_event_import_trf") in page


def test_uploading_a_trf_creates_a_chess_event_the_uploader_organises(org, organiser):
    r = upload(org, HELD)
    event = Event.objects.get()
    assert r.status_code == 302 and r.url == reverse("org_event", args=[event.slug])
    assert (event.preset, event.tiebreakers, event.players.count(), event.rounds.count()) == (
        "chess",
        ["BH-C1", "BH", "SB", "DE"],
        16,
        5,
    )
    assert EventRole.objects.get(event=event).user == organiser
    # The standings show the FIDE codes as column headers, with FIDE values (Bruno: BH-C1 12, BH 13, SB 9.5).
    page = org.get(reverse("public:standings", args=[event.slug])).content.decode()
    for code in ("BH-C1", "BH", "SB", "DE"):
        assert f">{code}<" in page
    # And the organiser can download it back as TRF with every opponent, colour and result.
    home = org.get(reverse("org_event", args=[event.slug])).content.decode()
    assert reverse("org_export_trf", args=[event.slug]) in home
    got = org.get(reverse("org_export_trf", args=[event.slug]))
    assert got["Content-Disposition"] == f'attachment; filename="{event.slug}.trf"'
    assert blocks_of(got.content.decode()) == blocks_of(HELD.read_text())


def test_a_malformed_trf_is_refused_with_its_line_and_nothing_is_created(org):
    lines = HELD.read_text().splitlines()
    lines[8] = lines[8][:98] + "7" + lines[8][99:]  # round 1 result code 7
    r = upload(org, HELD, ("\n".join(lines) + "\n").encode())
    assert r.status_code == 400
    page = r.content.decode()
    assert "Nothing was imported: line 9: round 1: unknown result code &#x27;7&#x27;" in page
    assert Event.objects.count() == 0


def test_a_file_that_is_not_trf_is_refused(org):
    r = upload(org, Path("event.json"), b'{"format": "swiss-event"}')
    assert r.status_code == 400 and "Nothing was imported: line 1:" in r.content.decode()
    assert Event.objects.count() == 0


def test_no_trf_download_for_a_non_chess_event(org, event):
    home = org.get(reverse("org_event", args=[event.slug])).content.decode()
    assert reverse("org_export_trf", args=[event.slug]) not in home
    r = org.get(reverse("org_export_trf", args=[event.slug]))
    assert r.status_code == 302  # back to the event, with a message; never a 500


def test_trf_pages_need_a_login_and_a_role(event, outsider, organiser):
    anonymous = Client()
    assert anonymous.get(reverse("org_export_trf", args=[event.slug])).status_code == 302
    assert anonymous.post(reverse("org_event_import_trf")).status_code == 302
    other = Client()
    other.force_login(outsider)
    assert other.get(reverse("org_export_trf", args=[event.slug])).status_code == 404
    assert other.get(reverse("org_event_import_trf")).status_code == 403  # may not create events
    creator = Client()
    creator.force_login(organiser)
    assert creator.get(reverse("org_event_import_trf")).status_code == 200  # the new-event page, upload included


def line(rank: int, name: str, points: str, rounds: str) -> str:
    return f"001 {rank:>4}      {name:<33} 2000 {'':<3} {'':>11} {'':<10} {points:>4} {'':>4}{rounds}"


SMALL = (
    "\n".join(
        [
            "012 Unplayed rounds",
            line(1, "Anna", "2.0", "     3 w 1     2 - +"),
            line(2, "Bert", "1.0", "     4 b 1     1 - -"),
            line(3, "Cleo", "0.5", "     1 b 0  0000 - H"),
            line(4, "Dora", "0.0", "     2 w 0  0000 - Z"),
        ]
    )
    + "\n"
)


def test_public_pages_show_the_unplayed_kinds_and_the_points_before_the_round(org):
    upload(org, Path("small.trf"), SMALL.encode())
    event = Event.objects.get()
    pairings = org.get(reverse("public:pairings", args=[event.slug])).content.decode()
    assert "½-point bye" in pairings and "0-point bye" in pairings and "won by forfeit" in pairings
    # Points going into round 2: Anna and Bert 1 (the round-2 forfeit not counted yet), Cleo 0 (not her ½ bye).
    rows = {p.name: p for p in event.players.all()}
    for p, pts in (("Anna", "1 pt"), ("Bert", "1 pt"), ("Cleo", "0 pts")):
        # The name with its start number, title and rating, as a chess pairing list shows it.
        shown = rf'{rows[p].pk}/"><span class="start-no">\d+</span> [^<]*(<abbr[^>]*>\w+</abbr> )?{p}( <span class="rating">\d+</span>)?</a>'
        assert re.search(shown + f' <span class="pts">{pts}</span>', pairings), p
    anna = org.get(reverse("public:player", args=[event.slug, rows["Anna"].pk])).content.decode()
    bert = org.get(reverse("public:player", args=[event.slug, rows["Bert"].pk])).content.decode()
    assert "won by forfeit" in anna and "lost by forfeit" in bert
    cleo = org.get(reverse("public:player", args=[event.slug, rows["Cleo"].pk])).content.decode()
    assert "½-point bye" in cleo


def test_a_malformed_trf_is_refused_in_the_organisers_language(org):
    lines = HELD.read_text().splitlines()
    lines[8] = lines[8][:98] + "7" + lines[8][99:]  # round 1 result code 7
    org.cookies["swiss_language"] = "ja"
    page = upload(org, HELD, ("\n".join(lines) + "\n").encode()).content.decode()
    assert "何も取り込みませんでした：9行目：ラウンド1：不明な結果コード&#x27;7&#x27;です" in page
    org.cookies["swiss_language"] = "da"
    page = upload(org, HELD, ("\n".join(lines) + "\n").encode()).content.decode()
    assert "Intet blev importeret: linje 9: runde 1: ukendt resultatkode &#x27;7&#x27;" in page


def test_a_trf_name_the_forms_refuse_is_refused_by_place_not_a_server_error(org):
    lines = HELD.read_text().splitlines()
    name = lines[7][14:47]
    lines[7] = lines[7][:14] + ("Bell\x07" + name[5:]) + lines[7][47:]  # a control character in player 2's name
    r = upload(org, HELD, ("\n".join(lines) + "\n").encode())
    assert r.status_code == 400
    assert "Nothing was imported: players[1].name: The name “Bell\\x07" in r.content.decode()
    assert Event.objects.count() == 0


def hostile_rounds(rounds: int) -> str:
    """The upload that once stalled: two players who meet every round, for thousands of rounds."""
    one = "".join(f"     2 {'w' if r % 2 else 'b'} {'1' if r % 2 else '0'}" for r in range(rounds))
    two = "".join(f"     1 {'b' if r % 2 else 'w'} {'0' if r % 2 else '1'}" for r in range(rounds))
    return f"012 Hostile\n{line(1, 'Anna', '', one)}\n{line(2, 'Bert', '', two)}\n"


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (SMALL.replace("Unplayed", "Un\x00played"), "Nothing was imported: line 1: column 7: a NUL character"),
        (SMALL.replace("2000    ", "2000 G\x00R", 1), "Nothing was imported: line 2: column 55: a NUL character"),
        (
            SMALL.replace("001    1", "001    \u0661", 1),
            "line 2: column 8: &#x27;\u0661&#x27; is not one of the digits 0-9",
        ),
        (SMALL.replace("     3 w 1", "     \u0663 w 1", 1), "line 2: column 95: &#x27;\u0663&#x27; is not one of"),
        (SMALL + "XXR 99999\n", "line 6: 99999 rounds for 4 players: at most 30 (twice the players, or 30)"),
        (hostile_rounds(32_768), "line 2: 32768 rounds for 2 players: at most 30"),
        (hostile_rounds(20_000), "line 2: 20000 rounds for 2 players: at most 30"),
        (
            "012 Big\n### " + "x" * 2_000_001 + "\n",
            "Nothing was imported: the file has 2000014 bytes; a TRF file of at most",
        ),
        (SMALL.replace("2000    ", "2000 G1R", 1), "line 2: columns 54-56: a federation is a three-letter FIDE code"),
    ],
)
def test_a_hostile_trf_is_a_clear_form_error_never_a_500(org, content, words):
    r = upload(org, Path("hostile.trf"), content.encode())
    assert r.status_code == 400
    assert words in r.content.decode()
    assert Event.objects.count() == 0


def test_a_hostile_trf_is_refused_in_the_organisers_language(org):
    org.cookies["swiss_language"] = "ja"
    page = upload(org, Path("hostile.trf"), hostile_rounds(20_000).encode()).content.decode()
    assert "2人に20000ラウンド：最大30です" in page
    org.cookies["swiss_language"] = "da"
    page = upload(org, Path("hostile.trf"), (SMALL + "XXR 99999\n").encode()).content.decode()
    assert "99999 runder for 4 spillere: højst 30" in page


def test_an_upload_keeps_the_fide_ids_and_the_initial_colour_without_a_date(org):
    r = upload(
        org,
        Path("small.trf"),
        (SMALL.replace(" " * 11 + " " * 11, " " * 11 + "    1503014", 1) + "XXC black1\n").encode(),
    )
    event = Event.objects.get()
    assert r.status_code == 302
    got = org.get(reverse("org_export_trf", args=[event.slug])).content.decode()
    assert "XXC black1" in got.splitlines()
    assert not [x for x in got.splitlines() if x.startswith("042")]  # the file had no date: none invented


def test_an_uploaded_file_is_paired_by_its_own_start_ranks_and_a_late_entry_placed_among_them(org, organiser):
    """The file ranks its players against their ratings (an arbiter's national list): round 1 pairs by the
    file's numbers, as bbpPairings does (tests/engines/test_dutch.py), and a player added here is numbered among them
    in the export without moving anyone the file ranked."""
    from tests.engines.test_dutch import RANKED_BY_THE_FILE
    from tournament.services.roster import add_player
    from tournament.services.rounds import pair_next_round

    assert upload(org, Path("ranked.trf"), RANKED_BY_THE_FILE.encode()).status_code == 302
    event = Event.objects.get()
    rnd = pair_next_round(event, organiser)
    games = {(m.player_a.key, m.player_b.key) for m in rnd.matches.select_related("player_a", "player_b")}
    assert games == {("1", "4"), ("5", "2"), ("3", "6")}  # White first, as bbpPairings pairs the file
    add_player(event, organiser, name="Golf, G", rating=2100)
    text = org.get(reverse("org_export_trf", args=[event.slug])).content.decode()
    order = [line[14:47].strip() for line in text.splitlines() if line.startswith("001")]
    # Golf (2100): nobody in the file is rated above them, so first; the file's own order follows.
    assert order == ["Golf, G", "Alpha, A", "Bravo, B", "Charlie, C", "Delta, D", "Echo, E", "Foxtrot, F"]
