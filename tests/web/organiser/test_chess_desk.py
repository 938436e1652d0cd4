"""A chess event run at the desk: colours on every pairing list, 1-0 / ½-½ / 0-1 results,
forfeits, requested byes honoured by the next pairing, the crosstable, and the FIDE registration details."""

import csv
import io
from fractions import Fraction

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from swiss.model import FORFEIT
from tournament.files import csv_exports, csv_rosters
from tournament.models import Event
from tournament.pages.results_board import counts
from tournament.services.locks import ServiceError, changed
from tournament.services.results import parse_outcome, record_result, shorthands
from tournament.services.roster import NewPlayer, add_players, new_players, request_bye
from tournament.services.rounds import pair_next_round, publish_round, repair_round
from tournament.services.standings import crosstable, event_standings, start_numbers
from tournament.snapshot import event_to_file, event_to_trf
from tournament.text.results import result_label

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client, organiser):
    client.force_login(organiser)
    return client


def play_round(event, by):
    rnd = pair_next_round(event, by)
    publish_round(rnd, by)
    rnd.refresh_from_db()
    return rnd


def games(rnd):
    return list(rnd.matches.filter(player_b__isnull=False).select_related("player_a", "player_b", "round__event"))


# ---------------------------------------------------------------- results


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("1", (1, 0, 0)),
        ("1-0", (1, 0, 0)),
        ("0", (0, 1, 0)),
        ("0-1", (0, 1, 0)),
        ("=", (0, 0, 1)),
        ("½", (0, 0, 1)),
        ("1/2", (0, 0, 1)),
        ("0.5-0.5", (0, 0, 1)),
        ("½-½", (0, 0, 1)),
        ("１－０", (1, 0, 0)),
    ],
)
def test_a_chess_desk_types_chess_results(typed, stored):
    outcome = parse_outcome(typed, 1, chess=True)
    assert outcome.result == "played" and outcome.games == stored


@pytest.mark.parametrize(
    ("typed", "result", "winner"),
    [
        ("+-", "forfeit", "a"),
        ("+/-", "forfeit", "a"),
        ("-+", "forfeit", "b"),
        ("−/+", "forfeit", "b"),
        ("--", "double_loss", "a"),
        ("-/-", "double_loss", "a"),
    ],
)
def test_forfeits_are_typed_the_chess_way(typed, result, winner):
    outcome = parse_outcome(typed, 1, chess=True)
    assert (outcome.result, outcome.winner) == (result, winner)


def test_a_chess_refusal_gives_chess_examples():
    with pytest.raises(ServiceError) as chess:
        parse_outcome("abc", 1, chess=True)
    with pytest.raises(ServiceError) as magic:
        parse_outcome("abc", 3)
    assert "1-0, ½-½" in str(chess.value) and "2-0, 2-1" in str(magic.value)


def test_a_half_typed_at_a_magic_desk_is_not_a_draw():
    with pytest.raises(ServiceError):
        parse_outcome("1/2", 1, chess=False)


def test_the_round_page_offers_chess_buttons_and_stores_a_draw_as_a_drawn_game(chess, organiser, org):
    rnd = play_round(chess, organiser)
    page = org.get(reverse("org_round", args=[chess.slug, rnd.number])).content.decode()
    assert 'value="½-½"' in page and 'value="1-0"' in page and 'value="0-1"' in page
    assert 'value="2-0"' not in page and "White – Black" in page
    m = games(rnd)[0]
    url = reverse("org_match_result", args=[chess.slug, rnd.number, m.pk])
    answer = org.post(url, {"result": "½-½", "version": m.version})
    assert answer.status_code == 302
    m.refresh_from_db()
    assert m.games == (0, 0, 1) and result_label(m, chess=True) == "½-½"
    again = org.post(url, {"result": "½-½", "version": m.version})  # the same result twice changes nothing
    m.refresh_from_db()
    assert again.status_code == 302 and m.version == 1


def test_the_keyboard_takes_a_chess_result_and_its_hint_lists_them(chess, organiser, org):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    url = reverse("org_table_result", args=[chess.slug, rnd.number])
    org.post(url, {"table": m.table, "result": "0"})
    m.refresh_from_db()
    assert m.games == (0, 1, 0)
    page = org.get(reverse("org_round", args=[chess.slug, rnd.number])).content.decode()
    assert "<kbd>=</kbd>" in page and "<kbd>1/2</kbd>" in page
    wrong = org.post(url, {"table": games(rnd)[1].table, "result": "2-0-9x"}, HTTP_HX_REQUEST="true")
    assert "1-0, ½-½ (or =), 0-1" in wrong.content.decode()


def test_a_forfeit_black_won_keeps_its_colours_and_counts_as_a_forfeit(chess, organiser):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    white, black = m.player_a, m.player_b
    record_result(m, parse_outcome("-+", 1, True), organiser)
    m.refresh_from_db()
    assert m.result == "forfeit" and m.player_a == black and m.white == white
    assert m.colour_order() == (white, black) and result_label(m) == "−/+"
    doc = event_to_file(chess)
    stored = next(x for x in doc.rounds[0].matches if x.result == FORFEIT)
    assert (stored.a, stored.b) == (black.key, white.key)
    # Replacing the forfeit by a game puts White back as player A.
    record_result(m, parse_outcome("1-0", 1, True), organiser, m.version, replace=True)
    m.refresh_from_db()
    assert (m.player_a, m.player_b, m.white, m.games) == (white, black, None, (1, 0, 0))


def test_a_double_forfeit_is_a_double_loss_and_the_match_page_offers_forfeits(chess, organiser, org):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    page = org.get(reverse("org_match", args=[chess.slug, rnd.number, m.pk])).content.decode()
    assert 'name="forfeit"' in page and "White" in page
    answer = org.post(reverse("org_match", args=[chess.slug, rnd.number, m.pk]), {"forfeit": "a", "version": m.version})
    assert answer.status_code == 302
    m.refresh_from_db()
    assert m.result == "forfeit" and m.winner == m.player_a
    record_result(m, parse_outcome("--", 1, True), organiser, m.version, replace=True)
    m.refresh_from_db()
    assert m.result == "double_loss" and result_label(m, chess=True) == "double forfeit −/−"


def test_a_forfeit_with_games_is_refused_on_the_match_page(chess, organiser, org):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    page = org.post(
        reverse("org_match", args=[chess.slug, rnd.number, m.pk]),
        {"forfeit": "b", "games_a": "1", "version": m.version},
    ).content.decode()
    m.refresh_from_db()
    assert "a game not played has no game counts" in page and not m.has_result


def test_the_phone_shows_the_three_chess_results_from_either_side(chess, organiser):
    from tournament.pages.player import quick_results

    # Each button names the winner and their colour; its value is the result from the tapping player's side.
    assert quick_results(1, False, True, "Bo") == [
        ("1-0", "You (White) won 1-0"),
        ("0-0-1", "Draw ½-½"),
        ("0-1", "Bo (Black) won 0-1"),
    ]
    assert quick_results(1, False, False, "Anna") == [
        ("0-1", "Anna (White) won 1-0"),
        ("0-0-1", "Draw ½-½"),
        ("1-0", "You (Black) won 0-1"),
    ]
    assert quick_results(1, True, False, "Anna") == [("0-1", "Anna (White) won 1-0"), ("1-0", "You (Black) won 0-1")]
    assert quick_results(1, False) == [("1-0", "I won"), ("0-1", "I lost"), ("0-0-1", "Draw")]


def test_black_reports_white_won_from_the_phone(chess, organiser):
    """At an arbiter's event Black read "your won games first" above 1-0 / ½-½ / 0-1, tapped 1-0 for a win and
    reported a loss. The buttons now say who won with which colour, and the card-game field is gone."""
    chess.reporting = Event.Reporting.ALONE
    chess.save(update_fields=["reporting"])
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    white, black = m.player_a, m.player_b
    phone = Client()
    phone.get(reverse("player:link", args=[chess.slug, black.pk, black.token]))
    page = phone.get(reverse("player:me", args=[chess.slug])).content.decode()
    assert f'value="0-1" class="big">{white.name} (White) won 1-0</button>' in page
    assert 'value="0-0-1" class="big">Draw ½-½</button>' in page
    assert 'value="1-0" class="big">You (Black) won 0-1</button>' in page
    assert "games you won first" not in page and "Other result" not in page and 'name="other"' not in page
    assert page.index("(White) won 1-0") < page.index("Draw ½-½") < page.index("(Black) won 0-1")
    da = phone.get(reverse("player:me", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    assert f"{white.name} (hvid) vandt 1-0" in da and "Du (sort) vandt 0-1" in da and "Remis ½-½" in da
    assert "dine vundne spil først" not in da and "Andet resultat" not in da
    ja = phone.get(reverse("player:me", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"{white.name}さん（白）の勝ち 1-0" in ja and "あなた（黒）の勝ち 0-1" in ja
    answer = phone.post(reverse("player:report", args=[chess.slug]), {"match": m.pk, "result": "1-0"}, follow=True)
    m.refresh_from_db()
    assert m.games == (0, 1, 0)  # Black won
    assert "you won 0-1" in answer.content.decode()


def test_a_card_game_phone_keeps_its_other_result_field(live):
    from tests.web.phone.test_self_report import match_of, phone, player

    page = phone(player(live, "Player A")).get(reverse("player:me", args=[live.slug])).content.decode()
    m = match_of(live, "Player A")
    assert m and "games you won first" in page and 'name="other"' in page and "(White)" not in page


# ---------------------------------------------------------------- requested byes


def test_a_half_point_bye_for_round_3_leaves_the_player_out_and_scores_a_half(chess, organiser, org):
    alice = chess.players.get(name="Player A")
    answer = org.post(reverse("org_player_bye", args=[chess.slug, alice.pk]), {"round": 3, "kind": "half_bye"})
    assert answer.status_code == 302
    alice.refresh_from_db()
    assert alice.requested_byes == {"3": "half_bye"}
    roster = org.get(reverse("org_players", args=[chess.slug])).content.decode()
    assert "R3: ½-point bye" in roster
    for _ in range(2):
        rnd = play_round(chess, organiser)
        for m in games(rnd):
            record_result(m, parse_outcome("1-0", 1, True), organiser)
    third = play_round(chess, organiser)
    mine = third.matches.get(player_a=alice)
    assert mine.player_b is None and mine.result == "half_bye"
    assert not third.matches.filter(player_b=alice).exists()
    assert third.matches.filter(player_b__isnull=False).count() == 2  # the five others: two games and a bye
    before = {r.player_id: r.points for r in event_standings(chess, after_round=2).rows}
    after = {r.player_id: r.points for r in event_standings(chess).rows}
    assert after[alice.key] - before[alice.key] == Fraction(1, 2)
    cross = crosstable(chess, live=True)
    row = next(r for r in cross.rows if r.player == alice)
    assert row.cells[2].opponent is None and row.cells[2].result == "½"


def test_a_zero_point_bye_marks_an_absence(chess, organiser):
    bob = chess.players.get(name="Player B")
    request_bye(bob, 1, "zero_bye", organiser)
    rnd = play_round(chess, organiser)
    assert rnd.matches.get(player_a=bob).result == "zero_bye"
    # The five others: two games and the pairing's bye.
    assert rnd.matches.filter(player_b__isnull=False).count() == 2 and rnd.matches.filter(result="bye").count() == 1


def test_a_bye_for_a_round_already_paired_is_refused(chess, organiser, org):
    play_round(chess, organiser)
    alice = chess.players.get(name="Player A")
    with pytest.raises(ServiceError, match="already paired"):
        request_bye(alice, 1, "half_bye", organiser)
    with pytest.raises(ServiceError, match="plays no round 6"):
        request_bye(alice, 6, "half_bye", organiser)
    answer = org.post(
        reverse("org_player_bye", args=[chess.slug, alice.pk]), {"round": 1, "kind": "half_bye"}, follow=True
    )
    assert "already paired" in answer.content.decode()


def test_a_bye_request_is_withdrawn_and_logged(chess, organiser):
    alice = chess.players.get(name="Player A")
    request_bye(alice, 2, "half_bye", organiser)
    request_bye(alice, 2, "", organiser)
    alice.refresh_from_db()
    assert alice.requested_byes == {}
    assert list(chess.log.values_list("action", flat=True).order_by("id")) == ["request_bye", "withdraw_bye"]


def test_a_player_asks_for_a_bye_from_their_phone_only_where_the_event_allows_it(chess):
    alice = chess.players.get(name="Player A")
    phone = Client()
    phone.get(reverse("player:link", args=[chess.slug, alice.pk, alice.token]))
    assert 'action="/e/open/me/bye/"' not in phone.get(reverse("player:me", args=[chess.slug])).content.decode()
    refused = phone.post(reverse("player:bye", args=[chess.slug]), {"round": 1, "kind": "half_bye"}, follow=True)
    assert "requested at the desk" in refused.content.decode()
    chess.players_request_byes = True
    chess.save(update_fields=["players_request_byes"])
    assert "Ask for a bye" in phone.get(reverse("player:me", args=[chess.slug])).content.decode()
    phone.post(reverse("player:bye", args=[chess.slug]), {"round": 1, "kind": "half_bye"})
    alice.refresh_from_db()
    assert alice.requested_byes == {"1": "half_bye"}
    assert chess.log.get(action="request_bye").detail["asked_by_player"] is True


def test_byes_asked_from_a_phone_keep_to_the_events_limits_and_the_desk_may_pass_them(chess, organiser):
    """One player once took ½-point byes for 5 of 7 rounds, the last included, from the phone."""
    Event.objects.filter(pk=chess.pk).update(
        players_request_byes=True, planned_rounds=7, bye_requests_max=2, bye_requests_closed_last=2
    )
    chess.refresh_from_db()
    alice = chess.players.get(name="Player A")
    phone = Client()
    phone.get(reverse("player:link", args=[chess.slug, alice.pk, alice.token]))

    def ask(number: int) -> str:
        answer = phone.post(
            reverse("player:bye", args=[chess.slug]), {"round": number, "kind": "half_bye"}, follow=True
        )
        return answer.content.decode()

    assert "No bye may be asked for in the last 2 rounds from the phone" in ask(6)
    ask(1)
    ask(3)
    assert "A player may ask for 2 byes from the phone in this event" in ask(4)
    alice.refresh_from_db()
    assert alice.requested_byes == {"1": "half_bye", "3": "half_bye"}
    ask(3)  # changing a round already asked for is not one more
    # The arbiter approves past the limits by entering them at the desk.
    request_bye(alice, 4, "half_bye", organiser)
    request_bye(alice, 7, "zero_bye", organiser)
    alice.refresh_from_db()
    assert alice.requested_byes == {"1": "half_bye", "3": "half_bye", "4": "half_bye", "7": "zero_bye"}


def test_an_outsider_cannot_record_a_bye(chess, outsider, client):
    client.force_login(outsider)
    alice = chess.players.get(name="Player A")
    url = reverse("org_player_bye", args=[chess.slug, alice.pk])
    assert client.post(url, {"round": 2, "kind": "half_bye"}).status_code == 404  # the event is not theirs
    alice.refresh_from_db()
    assert alice.requested_byes == {}


# ---------------------------------------------------------------- colours


def test_every_pairing_list_says_who_has_white(chess, organiser, org):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    white, black = m.player_a.name, m.player_b.name
    by_table = org.get(reverse("org_print_by_table", args=[chess.slug, 1])).content.decode()
    assert "<th>White</th>" in by_table and "<th>Black</th>" in by_table
    assert by_table.index(white) < by_table.index(black)
    by_name = org.get(reverse("org_print_by_name", args=[chess.slug, 1])).content.decode()
    assert 'class="colour">White' in by_name and 'class="colour">Black' in by_name
    slips = org.get(reverse("org_print_slips", args=[chess.slug, 1])).content.decode()
    assert slips.index("White") < slips.index("Black") and "1-0, ½-½ or 0-1" in slips
    pairings = Client().get(reverse("public:pairings", args=[chess.slug])).content.decode()
    assert "colour-w" in pairings and "colour-b" in pairings
    screen = Client().get(reverse("public:screen", args=[chess.slug])).content.decode()
    assert "<span>White</span><span>Black</span>" in screen and 'class="name black"' in screen
    csv_text = org.get(reverse("org_export_pairings", args=[chess.slug])).content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(csv_text)))
    assert header[2:8] == ["white_number", "white", "white_points", "black_number", "black", "black_points"]


def test_colours_are_worded_in_danish_and_japanese(chess, organiser):
    play_round(chess, organiser)
    for language, white, black in (("da", "Hvid", "Sort"), ("ja", "白", "黒")):
        page = Client().get(reverse("public:pairings", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE=language)
        text = page.content.decode()
        assert white in text and black in text, language


def test_a_magic_event_shows_no_colours(event, organiser, client):
    client.force_login(organiser)
    play_round(event, organiser)
    page = client.get(reverse("org_print_by_table", args=[event.slug, 1])).content.decode()
    assert "<th>White</th>" not in page and "<th>Opponent</th>" in page


def test_pair_command_text_heads_white_and_black(tmp_path, capsys):
    doc = {
        "format": "swiss-event",
        "version": 1,
        "name": "Club",
        "preset": "chess",
        "players": [{"id": f"p{i}", "name": f"P{i}", "rating": 2000 - i} for i in range(4)],
        "rounds": [],
    }
    import json

    path = tmp_path / "club.json"
    path.write_text(json.dumps(doc))
    call_command("pair", str(path), format="text")
    out = capsys.readouterr().out
    assert "White (points)" in out and "Black (points)" in out


# ---------------------------------------------------------------- crosstable


def test_the_crosstable_reads_start_number_colour_and_result(chess, organiser, org):
    rnd = play_round(chess, organiser)
    first, second, third = games(rnd)
    record_result(first, parse_outcome("1-0", 1, True), organiser)
    record_result(second, parse_outcome("=", 1, True), organiser)
    record_result(third, parse_outcome("-+", 1, True), organiser)
    page = Client().get(reverse("public:crosstable", args=[chess.slug]))
    assert page.status_code == 200 and page.has_header("ETag")
    text = page.content.decode()
    starts = start_numbers(chess, chess.players.all())
    winner = first.player_a
    assert f"{starts[first.player_b_id]}w1" in text
    assert f"{starts[winner.pk]}b0" in text
    third.refresh_from_db()
    assert f"{starts[third.player_b_id]}b+" in text  # Black won by forfeit
    assert f"{starts[third.player_a_id]}w-" in text
    assert "½" in text and "BH-C1" in text and "start number" in text
    again = Client().get(reverse("public:crosstable", args=[chess.slug]), HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304
    printed = org.get(reverse("org_print_crosstable", args=[chess.slug]))
    assert printed.status_code == 200 and f"{starts[first.player_b_id]}w1" in printed.content.decode()


def test_tied_players_are_told_apart_by_start_number(chess, organiser):
    """Opponents were named by rank: after a round of draws everyone shared rank 1, and every cell read
    "1w½" or "1b½". The start (pairing) number is unique: rating order, as the pairing numbered them."""
    rnd = play_round(chess, organiser)
    for m in games(rnd):
        record_result(m, parse_outcome("=", 1, True), organiser)
    table = crosstable(chess)
    assert len({r.rank for r in table.rows}) < len(table.rows)  # ties
    opponents = [c.opponent for r in table.rows for c in r.cells]
    assert sorted(opponents) == list(range(1, 7)) and sorted(r.number for r in table.rows) == list(range(1, 7))
    by_rating = sorted(chess.players.all(), key=lambda p: -p.rating)
    assert [start_numbers(chess, by_rating)[p.pk] for p in by_rating] == list(range(1, 7))


def test_a_long_crosstable_comes_in_pages_as_the_standings_do(organiser):
    from tests.conftest import new_chess_event

    big = new_chess_event(organiser, {f"Player {k:03d}": 2400 - k for k in range(250)}, slug="big")
    play_round(big, organiser)
    url = reverse("public:crosstable", args=[big.slug])
    rows = [Client().get(url + f"?page={n}").content.decode().count('<th scope="row">') for n in (1, 2, 3, 9)]
    assert rows == [100, 100, 50, 50]  # past the last page: the last page
    first = Client().get(url).content.decode()
    assert 'aria-label="Crosstable pages"' in first and 'href="?page=2"' in first and "Player 000" in first
    assert "Player 100" not in first
    # A page swapped by htmx is the table's section; the back button's restore gets the whole page.
    swap = Client().get(url + "?page=2", HTTP_HX_REQUEST="true").content.decode()
    assert swap.lstrip().startswith('<section id="crosstable"') and "Player 100" in swap
    restore = Client().get(url + "?page=2", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert b"<html" in restore.content and b"Player 100" in restore.content
    # The printed crosstable is all of it.
    client = Client()
    client.force_login(organiser)
    printed = client.get(reverse("org_print_crosstable", args=[big.slug])).content.decode()
    assert printed.count('<th scope="row">') == 250 and "Crosstable pages" not in printed
    da = Client().get(url, HTTP_ACCEPT_LANGUAGE="da").content.decode()
    ja = Client().get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'aria-label="Krydstabellens sider"' in da and 'aria-label="クロス表のページ"' in ja


def test_the_crosstable_in_danish_and_japanese(chess, organiser):
    rnd = play_round(chess, organiser)
    for m in games(rnd):
        record_result(m, parse_outcome("1", 1, True), organiser)
    da = Client().get(reverse("public:crosstable", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE="da").content.decode()
    ja = Client().get(reverse("public:crosstable", args=[chess.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "h1" in da and "Krydstabel" in da
    assert "白1" in ja and "黒0" in ja and "開始順位" in ja


def test_the_crosstable_print_is_for_the_staff(chess, outsider, client):
    client.force_login(outsider)
    assert client.get(reverse("org_print_crosstable", args=[chess.slug])).status_code == 404
    assert client.post(reverse("public:crosstable", args=[chess.slug])).status_code == 405


# ---------------------------------------------------------------- FIDE details


def test_a_chess_player_form_has_the_fide_details(chess, org):
    alice = chess.players.get(name="Player A")
    url = reverse("org_player_edit", args=[chess.slug, alice.pk])
    assert 'name="fide_id"' in org.get(url).content.decode()
    data = {
        "name": "Player A",
        "rating": "2000",
        "byes": "0",
        "fide_id": "4100018",
        "federation": "ger",
        "title": "gm",
        "sex": "M",
        "birth_date": "1969-12-06",
    }
    assert org.post(url, data).status_code == 302
    alice.refresh_from_db()
    assert (alice.fide_id, alice.federation, alice.title, alice.sex, alice.birth_date) == (
        "4100018",
        "GER",
        "GM",
        "m",
        "1969/12/06",
    )
    wrong = org.post(url, data | {"fide_id": "41x", "federation": "G3R"}).content.decode()
    assert "up to 11 digits" in wrong and "three-letter FIDE code" in wrong


def test_a_magic_player_form_has_no_fide_details(event, organiser, client):
    client.force_login(organiser)
    p = event.players.first()
    assert 'name="fide_id"' not in client.get(reverse("org_player_edit", args=[event.slug, p.pk])).content.decode()


def test_fide_details_come_in_and_go_out_by_csv(chess, organiser):
    rows = csv_rosters.parse_players(
        "name,rating,fide id,fed,title,sex,birth date\nAnna Cramling,2100,1234567,swe,WFM,w,2002/04/30\n"
    )
    assert rows[0].ok and rows[0].chess == {
        "fide_id": "1234567",
        "federation": "SWE",
        "title": "WFM",
        "sex": "w",
        "birth_date": "2002/04/30",
    }
    add_players(chess, organiser, new_players(rows))
    anna = chess.players.get(name="Anna Cramling")
    assert anna.fide_id == "1234567" and anna.federation == "SWE"
    out = csv_exports.players_csv(chess.players.order_by("number"), chess=True)
    header, *lines = list(csv.reader(io.StringIO(out.lstrip("\ufeff"))))
    assert header[-6:] == ["fide_id", "federation", "title", "sex", "birth_date", "k"]
    assert lines[-1][-6:] == ["1234567", "SWE", "WFM", "w", "2002/04/30", ""]
    bad = csv_rosters.parse_players("name,federation\nBo,Sweden\n")
    assert not bad[0].ok and "three-letter" in bad[0].errors[0]


def test_the_settings_take_the_rating_tie_break_and_phone_byes(chess, org):
    page = org.get(reverse("org_settings", args=[chess.slug])).content.decode()
    assert 'name="rating_breaks_ties"' in page and 'name="players_request_byes"' in page


def test_colour_words_exist_in_every_language():
    for language, white in (("da", "Hvid"), ("ja", "白")):
        with translation.override(language):
            assert translation.gettext("White") == white


def test_a_forfeit_is_not_reported_from_a_phone(chess, organiser):
    chess.reporting = Event.Reporting.ALONE
    chess.save(update_fields=["reporting"])
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    phone = Client()
    phone.get(reverse("player:link", args=[chess.slug, m.player_a.pk, m.player_a.token]))
    page = phone.post(
        reverse("player:report", args=[chess.slug]), {"match": m.pk, "action": "other", "other": "+-"}, follow=True
    )
    m.refresh_from_db()
    assert "recorded by the judges" in page.content.decode() and not m.has_result


def test_a_round_with_only_a_forfeit_entered_is_not_paired_again(chess, organiser):
    rnd = play_round(chess, organiser)
    record_result(games(rnd)[0], parse_outcome("+-", 1, True), organiser)
    with pytest.raises(ServiceError, match="already has results"):
        repair_round(rnd, organiser)
    assert counts(rnd).entered


def test_the_phone_tells_a_stored_forfeit(chess, organiser):
    from tournament.services.reports import told

    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    record_result(m, parse_outcome("-+", 1, True), organiser)
    m.refresh_from_db()
    assert told(m.games, m.result, m) == f"{m.player_a.name} won by forfeit"


def test_the_draft_of_a_chess_round_heads_white_and_black(chess, organiser, org):
    pair_next_round(chess, organiser)
    page = org.get(reverse("org_round", args=[chess.slug, 1])).content.decode()
    assert "<th>White</th>" in page and "<th>Black</th>" in page


def test_a_players_public_page_says_their_colour_each_round(chess, organiser):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    record_result(m, parse_outcome("1-0", 1, True), organiser)
    white = Client().get(reverse("public:player", args=[chess.slug, m.player_a_id])).content.decode()
    black = Client().get(reverse("public:player", args=[chess.slug, m.player_b_id])).content.decode()
    assert 'class="colour">with White against' in white and 'class="colour">with Black against' in black


def test_the_keyboard_confirms_a_forfeit_white_first(chess, organiser, org):
    rnd = play_round(chess, organiser)
    m = games(rnd)[0]
    white, black = m.player_a.name, m.player_b.name
    url = reverse("org_table_result", args=[chess.slug, rnd.number])
    page = org.post(url, {"table": m.table, "result": "-/+"}, HTTP_HX_REQUEST="true").content.decode()
    assert f"Table {m.table}: {white} −/+ {black}" in page
    round_page = org.get(reverse("org_round", args=[chess.slug, rnd.number])).content.decode()
    row = round_page[round_page.index(f'id="m-{m.pk}"') :]
    assert row.index(white) < row.index(black) and '<span class="pb winner">' in row


def test_the_event_page_lists_who_the_next_pairing_leaves_out(chess, organiser, org):
    request_bye(chess.players.get(name="Player C"), 1, "half_bye", organiser)
    request_bye(chess.players.get(name="Player D"), 2, "zero_bye", organiser)
    page = org.get(reverse("org_event", args=[chess.slug])).content.decode()
    assert "Requested byes in round 1 (not paired):" in page and "Player C</a> (½)" in page
    assert "Player D</a>" not in page


def test_the_crosstable_is_in_a_chess_events_menu_only(chess, event):
    chess_page = Client().get(reverse("public:standings", args=[chess.slug])).content.decode()
    magic_page = Client().get(reverse("public:standings", args=[event.slug])).content.decode()
    assert reverse("public:crosstable", args=[chess.slug]) in chess_page
    assert reverse("public:crosstable", args=[event.slug]) not in magic_page


def test_the_crosstable_reads_a_constant_number_of_queries(chess, organiser, django_assert_max_num_queries):
    from django.core.cache import cache

    from tournament.pages.crosstable import crosstable_context

    rnd = play_round(chess, organiser)
    for m in games(rnd):
        record_result(m, parse_outcome("1", 1, True), organiser)
    cache.clear()
    # 12, and 3 more for the FIDE rating changes (the event read as a file once, then cached: docs/ratings.md).
    with django_assert_max_num_queries(15) as small:
        crosstable_context(chess)
    add_players(chess, organiser, [NewPlayer(name=f"Late {k}") for k in range(30)])
    cache.clear()
    with django_assert_max_num_queries(len(small.captured_queries)):
        crosstable_context(chess)


def test_a_magic_desk_types_forfeits_too_and_its_hint_says_so():
    hint = dict(shorthands(3, False))
    assert hint["double loss"] == ["dl", "double", "double loss"]
    assert hint["forfeit, first player wins +/−"] == ["+-", "+/-"] and hint["double forfeit −/−"] == ["--", "-/-"]
    for typed in ("+-", "-+", "--"):
        parse_outcome(typed, 3)  # every form the hint shows is read
    assert shorthands(3, True) == [(s, [s.replace("-", "")]) for s in ("2-0", "2-1", "1-2", "0-2")]


def test_a_fide_id_column_is_the_players_id_in_an_event_without_colours(event, organiser):
    rows = csv_rosters.parse_players("name,fide id,federation\nBo Ek,1503014,SWE\n")
    add_players(event, organiser, new_players(rows, chess=False))
    bo = event.players.get(name="Bo Ek")
    assert (bo.external_id, bo.fide_id, bo.federation) == ("1503014", "", "")


def test_a_chess_roster_file_is_previewed_with_its_fide_details_then_imported(chess, org):
    text = "name,rating,fide_id,federation,title,sex,birth_date\nAnna Cramling,2100,1234567,SWE,WFM,w,2002\n"
    preview = org.post(
        reverse("org_players_csv", args=[chess.slug]), {"file": SimpleUploadedFile("p.csv", text.encode())}
    )
    assert "1234567 · SWE · WFM · w · 2002" in preview.content.decode()
    org.post(reverse("org_players_csv_confirm", args=[chess.slug]), {"text": text})
    anna = chess.players.get(name="Anna Cramling")
    assert (anna.fide_id, anna.title, anna.birth_date) == ("1234567", "WFM", "2002")
    export = org.get(reverse("org_export_players", args=[chess.slug])).content.decode("utf-8-sig")
    assert "fide_id,federation,title,sex,birth_date" in export.splitlines()[0]


def test_the_organisers_round_page_and_print_speak_colours_in_danish_and_japanese(chess, organiser, org):
    play_round(chess, organiser)
    org.cookies["swiss_language"] = "da"
    assert "Hvid – Sort" in org.get(reverse("org_round", args=[chess.slug, 1])).content.decode()
    org.cookies["swiss_language"] = "ja"
    printed = org.get(reverse("org_print_by_table", args=[chess.slug, 1])).content.decode()
    assert "<th>白</th>" in printed and "<th>黒</th>" in printed


# ---------------------------------------------------------------- the rating report (TRF) out of the app


def test_the_trf_export_carries_what_the_desk_entered(chess, organiser, org):
    alice = chess.players.get(name="Player A")
    alice.fide_id, alice.federation, alice.title, alice.sex, alice.birth_date = (
        "4100018",
        "GER",
        "GM",
        "m",
        "1969/12/06",
    )
    alice.save()
    request_bye(chess.players.get(name="Player B"), 2, "half_bye", organiser)
    rnd = play_round(chess, organiser)
    forfeit, *rest = games(rnd)
    record_result(forfeit, parse_outcome("-+", 1, True), organiser)
    for m in rest:
        record_result(m, parse_outcome("=", 1, True), organiser)
    text = org.get(reverse("org_export_trf", args=[chess.slug])).content.decode()
    line = next(x for x in text.splitlines() if "Player A" in x)
    assert "mGM" in line.replace(" ", "")[:12] and "GER" in line and "4100018" in line and "1969/12/06" in line
    bob = next(x for x in text.splitlines() if "Player B" in x)
    assert bob.rstrip().endswith("0000 - H")  # the half-point bye asked for round 2, the round to be paired
    forfeit.refresh_from_db()
    start = {p.name: p.number for p in chess.players.all()}
    black_winner = next(x for x in text.splitlines() if forfeit.player_a.name in x)
    assert f"{start[forfeit.player_b.name]:>4} b +" in black_winner  # Black won by forfeit, colours kept
    # The file comes back in as an event with the same details, byes and colours, and goes out unchanged.
    again = org.post(
        reverse("org_event_import_trf"),
        {
            "file": __import__("django.core.files.uploadedfile", fromlist=["x"]).SimpleUploadedFile(
                "r.trf", text.encode()
            )
        },
    )
    assert again.status_code == 302
    copy = Event.objects.exclude(pk=chess.pk).get()
    copied = copy.players.get(name="Player A")
    assert (copied.fide_id, copied.federation, copied.title) == ("4100018", "GER", "GM")
    assert copy.players.get(name="Player B").requested_byes == {"2": "half_bye"}
    assert copy.rounds.get(number=1).matches.get(result="forfeit").white.name == forfeit.white.name
    assert [x for x in event_to_trf(copy).splitlines() if x.startswith("001")] == [
        x for x in text.splitlines() if x.startswith("001")
    ]


def test_rating_breaks_the_ties_c07_leaves_when_the_event_asks(chess, organiser):
    rnd = play_round(chess, organiser)
    for m in games(rnd):
        record_result(m, parse_outcome("=", 1, True), organiser)
    chess.tiebreakers = []
    chess.rating_breaks_ties = True
    chess.save(update_fields=["tiebreakers", "rating_breaks_ties", "version"])
    changed(chess)
    rows = event_standings(chess).rows
    ratings = [chess.players.get(key=r.player_id).rating for r in rows]
    assert ratings == sorted(ratings, reverse=True) and [r.rank for r in rows] == list(range(1, 7))


def test_a_trf_initial_colour_is_kept(chess, organiser, org):
    chess.initial_colour = "black"
    chess.save(update_fields=["initial_colour"])
    play_round(chess, organiser)
    text = org.get(reverse("org_export_trf", args=[chess.slug])).content.decode()
    assert "XXC black1" in text
    assert (
        org.post(reverse("org_event_import_trf"), {"file": SimpleUploadedFile("c.trf", text.encode())}).status_code
        == 302
    )
    assert Event.objects.exclude(pk=chess.pk).get().initial_colour == "black"
